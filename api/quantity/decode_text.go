package quantity

import "github.com/kubewire/kubewire/api/wire"

// textDecoder is what decodeText needs of the JSON or the CBOR decoder.
type textDecoder interface {
	Invalid(at int, typ string, err error)
	InternString(b []byte) string
	Err() error
}

// decodeText sets q to the quantity written v, read at offset at: each
// distinct v is parsed once per table, under the same key whichever
// format it came in, and its canonical text is interned.
func (q *Quantity) decodeText(d textDecoder, table *wire.Decoder, at int, v []byte) error {
	if memo, ok := table.Memo("Quantity", v); ok {
		*q = memo.(Quantity)
		return nil
	}
	val, f, keep, err := parse(v)
	if err != nil {
		d.Invalid(at, "resource.Quantity", err)
		return d.Err()
	}
	if keep {
		*q = Quantity{s: d.InternString(v)}
	} else {
		var buf [40]byte
		*q = Quantity{s: d.InternString(render(buf[:0], val, f))}
	}
	table.SetMemo("Quantity", v, *q)
	return nil
}
