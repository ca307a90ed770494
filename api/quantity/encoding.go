package quantity

import (
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/api/wire"
	"google.golang.org/protobuf/encoding/protowire"
)

// MarshalJSON writes q as a JSON string holding String().
func (q Quantity) MarshalJSON() ([]byte, error) {
	t := q.String()
	b := make([]byte, 0, len(t)+2)
	b = append(b, '"')
	b = append(b, t...)
	return append(b, '"'), nil
}

// UnmarshalJSON reads a JSON string, or a JSON number as upstream also
// accepts, with surrounding spaces ignored; null is zero. Like upstream it
// does not unescape the string: quantities never need escapes.
func (q *Quantity) UnmarshalJSON(value []byte) error {
	if string(value) == "null" {
		*q = Quantity{}
		return nil
	}
	if l := len(value); l >= 2 && value[0] == '"' && value[l-1] == '"' {
		value = value[1 : l-1]
	}
	parsed, err := ParseQuantity(strings.TrimSpace(string(value)))
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}

// The protobuf form is message Quantity {string string = 1}, holding
// String(); like kube-apiserver, the field is written even for zero ("0").

// Size returns the encoded size of m in bytes.
func (m *Quantity) Size() int { return 1 + protowire.SizeBytes(len(m.String())) }

// AppendProto appends the protobuf encoding of m to b.
func (m *Quantity) AppendProto(b []byte) []byte {
	return protowire.AppendString(append(b, 0x0a), m.String())
}

// Marshal returns the protobuf encoding of m.
func (m *Quantity) Marshal() ([]byte, error) {
	return m.AppendProto(make([]byte, 0, m.Size())), nil
}

// Unmarshal replaces m with the message decoded from b.
func (m *Quantity) Unmarshal(b []byte) error {
	*m = Quantity{}
	return m.UnmarshalProto(nil, b)
}

// UnmarshalProto merges the message encoded in b into m: each string field
// replaces m. The stored string costs no allocation beyond d.String, which
// shares it with equal values decoded before. A string that does not parse
// is an error matching wire.ErrMalformed.
func (m *Quantity) UnmarshalProto(d *wire.Decoder, b []byte) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return wire.Error("Quantity", 0, n)
		}
		b = b[n:]
		if num != 1 {
			n = wire.SkipField(num, typ, b)
			if n < 0 {
				return wire.Error("Quantity", num, n)
			}
			b = b[n:]
			continue
		}
		v, n := wire.ConsumeBytes(typ, b)
		if n < 0 {
			return wire.Error("Quantity", num, n)
		}
		if memo, ok := d.Memo("Quantity", v); ok {
			*m = memo.(Quantity)
			b = b[n:]
			continue
		}
		val, f, keep, err := parse(v)
		switch {
		case err != nil:
			return &wire.FieldError{Message: "Quantity", Field: 1, Reason: quoteReason(v, err)}
		case keep:
			*m = Quantity{s: d.String(v)}
		default:
			// Rendered on the stack; d.String copies it, or reuses an
			// equal string it already holds.
			var buf [40]byte
			*m = Quantity{s: d.String(render(buf[:0], val, f))}
		}
		d.SetMemo("Quantity", v, *m)
		b = b[n:]
	}
	return nil
}

// quoteReason describes a bad quantity string, cut short if it is long.
func quoteReason(v []byte, err error) string {
	s := string(v)
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return "quantity " + strconv.Quote(s) + ": " + err.Error()
}
