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
