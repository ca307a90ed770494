package jsoncodec_test

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/internal/codegen/jsoncodec/testdata/shapes"
	"github.com/kubewire/kubewire/internal/testing/randfill"
)

// shapeFiller makes values of the shapes, with the custom types' special
// values (a MarshalJSON that fails or writes spaces, invalid raw JSON)
// among the random ones.
func shapeFiller(a, b uint64) *randfill.Filler {
	pick := func(f *randfill.Filler, vs ...string) string {
		if n := f.Rand.IntN(len(vs) + 1); n < len(vs) {
			return vs[n]
		}
		return f.String()
	}
	return &randfill.Filler{
		Rand: rand.New(rand.NewPCG(a, b)),
		NaN:  a%7 == 0,
		Custom: map[reflect.Type]func(*randfill.Filler) reflect.Value{
			reflect.TypeFor[shapes.Raw](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(shapes.Raw{V: pick(f, "bad", "err", "nested", "<x>")})
			},
			reflect.TypeFor[shapes.Text](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(shapes.Text{V: pick(f, "fail", "<&>")})
			},
			reflect.TypeFor[json.RawMessage](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(json.RawMessage(pick(f, "", "null", ` { "a" : [1, "<>"] } `, `[1,`, `"\u2028"`, "\"\xe2\x80\xa8\"", "1e3")))
			},
			reflect.TypeFor[json.Number](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(json.Number(pick(f, "", "1", "-1.5e3", "01", "abc")))
			},
			reflect.TypeFor[fmt.Stringer](): func(f *randfill.Filler) reflect.Value {
				var s fmt.Stringer
				if f.Rand.IntN(2) == 0 {
					s = time.Duration(f.Rand.Int64())
				}
				return reflect.ValueOf(&s).Elem()
			},
		},
	}
}

// shapeValues are new values of the shapes that have encoders.
func shapeValues() []jsonwire.Encodable {
	return []jsonwire.Encodable{
		new(shapes.Thing), new(shapes.UsesQuoted), new(shapes.Tree), new(shapes.Later), new(shapes.Tie),
		new(shapes.Names), new(shapes.Rows), new(shapes.NoFields), new(shapes.Holder), new(shapes.Blob), new(shapes.Octets),
	}
}

// checkEncode fails unless the generated encoder writes what
// encoding/json writes for v, or both fail.
func checkEncode(t *testing.T, v jsonwire.Encodable) {
	t.Helper()
	want, errWant := json.Marshal(v)
	got, errGot := jsonwire.Encode(v)
	if (errWant == nil) != (errGot == nil) {
		t.Fatalf("%T: encoding/json says %v, jsonwire says %v\n%s", v, errWant, errGot, want)
	}
	if diff := cmp.Diff(string(want), string(got)); errWant == nil && diff != "" {
		t.Fatalf("%T: encodings differ (-encoding/json +generated):\n%s", v, diff)
	}
}

func encodeSeeds(t *testing.T, a, b uint64) {
	f := shapeFiller(a, b)
	for _, v := range shapeValues() {
		f.Fill(v)
		checkEncode(t, v)
	}
}

// TestEncodeShapes compares the generated encoders with encoding/json on
// random values of every shape.
func TestEncodeShapes(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := range uint64(n) {
		encodeSeeds(t, i, i*7919)
	}
}

// FuzzEncodeShapes looks for values on which the generated encoders and
// encoding/json disagree.
func FuzzEncodeShapes(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(7), uint64(0))
	f.Fuzz(encodeSeeds)
}

// TestEncodeEdges covers what random values rarely reach: nil values, a
// pointer cycle, a deep tree, and the zero values of omitzero fields.
func TestEncodeEdges(t *testing.T) {
	cyclic := &shapes.Tree{Name: "a"}
	cyclic.Parent = cyclic
	deep := &shapes.Tree{Name: "leaf"}
	for range 1500 {
		deep = &shapes.Tree{Name: "n", Parent: deep}
	}
	zero := &shapes.Thing{ZeroVal: shapes.Zeroer{N: -1}, Cmp: shapes.Comparable{F: 0}}
	// -0.0 is +0 in Go: negative zero is Copysign's. encoding/json's
	// omitzero counts a struct holding it as zero (reflect.Value.IsZero
	// does, since Go 1.22); the generated encoder must too, not compare
	// bits.
	negZero := &shapes.Thing{ZeroVal: shapes.Zeroer{N: -1}, Cmp: shapes.Comparable{F: math.Copysign(0, -1)}}
	for _, tc := range []struct {
		name string
		v    jsonwire.Encodable
	}{
		{"nil thing", (*shapes.Thing)(nil)},
		{"nil names", (*shapes.Names)(nil)},
		{"empty thing", new(shapes.Thing)},
		{"zeroes", zero},
		{"negative zero", negZero},
		{"cycle", cyclic},
		{"deep", deep},
		{"strings", &shapes.Thing{Name: strings.Join(randfill.Strings(), ""), Escaped: "<>"}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkEncode(t, tc.v) })
	}
}
