package quantity

import (
	"bytes"
	"strconv"
	"unicode"

	"github.com/kubewire/kubewire/api/cborwire"
)

// DecodeCBOR reads q as DecodeJSON reads the same value in JSON: a text
// (or byte) string, which is what kube-apiserver writes for a Quantity,
// or an integer, as a custom resource may hold ("cpu: 2"); null sets the
// zero Quantity. Each distinct value is parsed once per Decoder Table,
// under the key DecodeJSON memoizes it by. Other items (a float) are read
// through the JSON decoder, so that they give its values and its errors.
func (q *Quantity) DecodeCBOR(d *cborwire.Decoder) error {
	var v []byte
	var num [24]byte
	at := d.Offset()
	switch kind := d.NextKind(); {
	case kind == cborwire.KindNull:
		d.Null()
		*q = Quantity{}
		return d.Err()
	case kind == cborwire.KindString:
		b, ok := d.StringBytes("resource.Quantity")
		if !ok {
			return d.Err()
		}
		v = bytes.TrimFunc(b, jsonRawSpace)
	case d.AtInteger():
		i, u, fits, ok := d.Integer("resource.Quantity")
		switch {
		case !ok:
			return d.Err()
		case fits:
			v = strconv.AppendInt(num[:0], i, 10)
		default:
			v = strconv.AppendUint(num[:0], u, 10)
		}
	case kind == cborwire.KindInvalid && d.Err() != nil:
		return d.Err()
	default:
		cborwire.ViaJSON(d, q, "resource.Quantity")
		return d.Err()
	}
	return q.decodeText(d, d.Table, at, v)
}

// jsonRawSpace reports the spaces DecodeJSON trims from a quantity: those
// a JSON string holds as they are. Control characters and U+2028, U+2029
// are escaped in JSON (as the transcoder writes them), so they stay and
// the value does not parse, as it does not from JSON.
func jsonRawSpace(r rune) bool {
	return r >= ' ' && r != '\u2028' && r != '\u2029' && unicode.IsSpace(r)
}
