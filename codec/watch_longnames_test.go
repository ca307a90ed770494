package codec

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// protobufEvent is one length-prefixed protobuf watch frame: a WatchEvent
// of typ whose object is a "k8s\x00" Unknown envelope.
func protobufEvent(typ, apiVersion, kind, contentType string, raw []byte) []byte {
	var meta, unknown, ext, ev []byte
	meta = protowire.AppendTag(meta, 1, protowire.BytesType)
	meta = protowire.AppendString(meta, apiVersion)
	meta = protowire.AppendTag(meta, 2, protowire.BytesType)
	meta = protowire.AppendString(meta, kind)
	unknown = protowire.AppendTag(unknown, 1, protowire.BytesType)
	unknown = protowire.AppendBytes(unknown, meta)
	if raw != nil {
		unknown = protowire.AppendTag(unknown, 2, protowire.BytesType)
		unknown = protowire.AppendBytes(unknown, raw)
	}
	if contentType != "" {
		unknown = protowire.AppendTag(unknown, 4, protowire.BytesType)
		unknown = protowire.AppendString(unknown, contentType)
	}
	ext = protowire.AppendTag(ext, 1, protowire.BytesType)
	ext = protowire.AppendBytes(ext, append([]byte("k8s\x00"), unknown...))
	ev = protowire.AppendTag(ev, 1, protowire.BytesType)
	ev = protowire.AppendString(ev, typ)
	ev = protowire.AppendTag(ev, 2, protowire.BytesType)
	ev = protowire.AppendBytes(ev, ext)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(ev))), ev...)
}

// The event type, apiVersion and kind of a protobuf watch event are the
// server's: an error shows them cut, as the content type already was.
// Before, a 1 MiB kind or type made a 1 MiB error.
func TestProtobufWatchErrorsCutLongNames(t *testing.T) {
	long := strings.Repeat("X", 1<<20)
	tests := map[string][]byte{
		"type of an event without object":   protobufEvent(long, "v1", "Pod", "", nil),
		"names of an object of JSON":        protobufEvent("ADDED", long, long, "application/json", []byte("{}")),
		"names of an object that is broken": protobufEvent("ADDED", long, long, "", []byte{0xff}),
	}
	for name, frame := range tests {
		t.Run(name, func(t *testing.T) {
			w, err := NewWatchDecoder(MediaTypeProtobuf+";stream=watch", bytes.NewReader(frame), WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = w.NextObject(new(corev1.Pod))
			if err == nil {
				t.Fatal("no error")
			}
			if len(err.Error()) > 1024 {
				t.Errorf("error of %d bytes: %.200s...", len(err.Error()), err.Error())
			}
		})
	}
}
