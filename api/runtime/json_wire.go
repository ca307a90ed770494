package runtime

import (
	"bytes"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// DecodeJSON reads re as UnmarshalJSON does: a copy of the value's bytes;
// null leaves Raw nil.
func (re *RawExtension) DecodeJSON(d *jsonwire.Decoder) error {
	raw := d.Raw()
	if d.Err() != nil {
		return d.Err()
	}
	if string(raw) == "null" {
		re.Raw = nil
		return nil
	}
	re.Raw = bytes.Clone(raw)
	return nil
}

// EncodeJSON appends re as MarshalJSON writes it (and encoding/json after
// it: compacted, HTML characters escaped); a nil re is null.
func (re *RawExtension) EncodeJSON(e *jsonwire.Encoder) error {
	if re == nil || re.Raw == nil {
		e.Null()
		return e.Err()
	}
	e.RawJSON(re.Raw, re)
	return e.Err()
}
