package intstr

import (
	"github.com/kubewire/kubewire/api/cborwire"
)

// DecodeCBOR reads intstr as DecodeJSON reads the same value in JSON: a
// text (or byte) string, or an integer that fits in an int32, which is
// what kube-apiserver writes for one (a custom resource's field, or a
// built-in's through IntOrString's own CBOR form); null leaves it
// unchanged. Other items (a float such as 3.0) are read through the JSON
// decoder, so that they give its values and its errors.
func (intstr *IntOrString) DecodeCBOR(d *cborwire.Decoder) error {
	switch kind := d.NextKind(); {
	case kind == cborwire.KindNull:
		d.Null()
	case kind == cborwire.KindString:
		var s string
		cborwire.String(d, &s)
		if d.Err() == nil {
			*intstr = FromString(s)
		}
	case d.AtInteger():
		var i int32
		cborwire.Int(d, &i)
		if d.Err() == nil {
			*intstr = FromInt32(i)
		}
	case kind != cborwire.KindInvalid || d.Err() == nil:
		cborwire.ViaJSON(d, intstr, "intstr.IntOrString")
	}
	return d.Err()
}
