package intstr

import (
	"fmt"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// DecodeJSON reads intstr as UnmarshalJSON does: a string, or an integer
// that fits in an int32; null leaves it unchanged.
func (intstr *IntOrString) DecodeJSON(d *jsonwire.Decoder) error {
	if d.Null() {
		return d.Err()
	}
	at := d.Offset()
	var s string
	var i int32
	switch raw := d.Raw(); {
	case d.Err() != nil:
		return d.Err()
	case raw[0] == '"':
		sub := jsonwire.NewDecoder(raw, d.Table)
		jsonwire.String(sub, &s)
		*intstr = FromString(s)
	default:
		sub := jsonwire.NewDecoder(raw, nil)
		jsonwire.Int(sub, &i)
		if sub.Err() != nil {
			d.Invalid(at, "intstr.IntOrString", fmt.Errorf("cannot unmarshal %s into an int32 or a string", raw))
			return d.Err()
		}
		*intstr = FromInt32(i)
	}
	return nil
}

// EncodeJSON appends intstr as MarshalJSON writes it; a nil intstr is
// null.
func (intstr *IntOrString) EncodeJSON(e *jsonwire.Encoder) error {
	switch {
	case intstr == nil:
		e.Null()
	case intstr.Type == Int:
		e.Int(int64(intstr.IntVal))
	case intstr.Type == String:
		e.String(intstr.StrVal)
	default:
		e.Marshaler(intstr) // MarshalJSON's error
	}
	return e.Err()
}
