package runtime

import (
	"bytes"
	"errors"

	"github.com/kubewire/kubewire/api/wire"
)

// TypeMeta mirrors runtime.TypeMeta: the apiVersion and kind of an object
// as the protobuf envelope carries them.
type TypeMeta struct {
	APIVersion    string             `json:"apiVersion,omitempty"`
	Kind          string             `json:"kind,omitempty"`
	UnknownFields wire.UnknownFields `json:"-"`
}

// Unknown mirrors runtime.Unknown: the message that follows the `k8s\0`
// magic in every protobuf body. Raw holds the encoded object.
type Unknown struct {
	TypeMeta        `json:",inline"`
	Raw             []byte             `json:"-"`
	ContentEncoding string             `json:"contentEncoding"`
	ContentType     string             `json:"contentType"`
	UnknownFields   wire.UnknownFields `json:"-"`
}

// RawExtension mirrors runtime.RawExtension: an object embedded in another
// one (a WatchEvent's object, a Table row's object) kept as the bytes the
// server sent, JSON or an enveloped protobuf object.
type RawExtension struct {
	Raw           []byte             `json:"-"`
	UnknownFields wire.UnknownFields `json:"-"`
}

// MarshalJSON writes Raw as it is, or null when it is empty.
func (re RawExtension) MarshalJSON() ([]byte, error) {
	if re.Raw == nil {
		return []byte("null"), nil
	}
	return re.Raw, nil
}

// UnmarshalJSON keeps a copy of the raw JSON value; null leaves Raw nil.
func (re *RawExtension) UnmarshalJSON(in []byte) error {
	if re == nil {
		return errors.New("runtime.RawExtension: UnmarshalJSON on nil pointer")
	}
	if bytes.Equal(in, []byte("null")) {
		re.Raw = nil
		return nil
	}
	re.Raw = bytes.Clone(in)
	return nil
}
