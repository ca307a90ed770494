package boxes

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzBoxes boxes a stream of values driven by the input, with Drops in
// between, and checks at the end that every value still reads back as
// boxed and that carved arrays never overlap.
func FuzzBoxes(f *testing.F) {
	f.Add([]byte("\x00abc\x01\x00\x01\x00\x00\x02\x00\x00\x00\x00\x00\x00\xf8\x3f\x03\x04\x05"))
	f.Add([]byte("\x01\xff\xff\xff\xff\xff\xff\xff\x7f\x03\x10\x03\x01\x04"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var a Arena
		var got, want []any
		var arrays [][]any
		for i := 0; i < len(in); {
			op := in[i]
			i++
			left := len(in) - i
			switch op % 6 {
			case 0:
				n := min(left, int(op>>3))
				s := string(in[i : i+n])
				i += n
				got, want = append(got, a.String(s, left)), append(want, s)
			case 1, 2:
				var b [8]byte
				i += copy(b[:], in[i:])
				u := binary.LittleEndian.Uint64(b[:])
				if op%6 == 1 {
					got, want = append(got, a.Int(int64(u), left)), append(want, int64(u))
				} else if f := math.Float64frombits(u); f == f {
					got, want = append(got, a.Float(f, left)), append(want, f)
				}
			case 3:
				e := a.Elems(int(op>>3), left)
				for j := range e {
					e[j] = int64(len(arrays))
				}
				arrays = append(arrays, e)
				got, want = append(got, a.Slice(e, left)), append(want, len(e))
			case 4:
				a.Drop()
			case 5:
				if len(arrays) > 0 {
					e := arrays[len(arrays)-1]
					arrays[len(arrays)-1] = append(e, "grown")
				}
			}
		}
		for k, g := range got {
			switch w := want[k].(type) {
			case int:
				if s, ok := g.([]any); !ok || len(s) != w || cap(s) != w {
					t.Fatalf("value %d: %#v, want an array of %d", k, g, w)
				}
			case float64:
				if f, ok := g.(float64); !ok || math.Float64bits(f) != math.Float64bits(w) {
					t.Fatalf("value %d: %#v, want %v", k, g, w)
				}
			default:
				if g != w {
					t.Fatalf("value %d: %#v, want %#v", k, g, w)
				}
			}
		}
		for k, e := range arrays {
			for j := range min(len(e), cap(e)) {
				if v := e[j]; v != int64(k) && v != "grown" {
					t.Fatalf("array %d[%d] = %#v: overwritten by a neighbour", k, j, v)
				}
			}
		}
	})
}
