package jsonwire_test

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/internal/testing/randfill"
)

// same fails unless write appends what encoding/json's Marshal writes
// for v, or both fail.
func same(t *testing.T, v any, write func(e *jsonwire.Encoder)) {
	t.Helper()
	want, errWant := json.Marshal(v)
	var e jsonwire.Encoder
	write(&e)
	if (errWant == nil) != (e.Err() == nil) {
		t.Fatalf("%#v: encoding/json says %v, jsonwire says %v", v, errWant, e.Err())
	}
	if diff := cmp.Diff(string(want), string(e.Bytes())); errWant == nil && diff != "" {
		t.Fatalf("%#v: encodings differ (-encoding/json +jsonwire):\n%s", v, diff)
	}
}

func TestEncoderStrings(t *testing.T) {
	for _, s := range append(randfill.Strings(), "\u2027\u202a", "\xe2\x80", "\xed\xa0\x80", string(rune(0x10ffff))) {
		same(t, s, func(e *jsonwire.Encoder) { e.String(s) })
	}
}

func FuzzEncoderString(f *testing.F) {
	for _, s := range randfill.Strings() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		same(t, s, func(e *jsonwire.Encoder) { e.String(s) })
		same(t, []byte(s), func(e *jsonwire.Encoder) { e.Base64([]byte(s)) })
	})
}

func TestEncoderFloats(t *testing.T) {
	fs := append(randfill.Floats(), math.NaN(), math.Inf(1), math.Inf(-1), 1e-320, 5e-324)
	for _, x := range fs {
		for _, v := range []float64{x, -x} {
			same(t, v, func(e *jsonwire.Encoder) { e.Float64(v) })
			same(t, float32(v), func(e *jsonwire.Encoder) { e.Float32(float32(v)) })
		}
	}
}

func FuzzEncoderFloat(f *testing.F) {
	f.Add(uint64(0x3eb0c6f7a0b5ed8d)) // 1e-6
	f.Add(uint64(0x444b1ae4d6e2ef50)) // 1e21
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		same(t, v, func(e *jsonwire.Encoder) { e.Float64(v) })
		v32 := math.Float32frombits(uint32(bits))
		same(t, v32, func(e *jsonwire.Encoder) { e.Float32(v32) })
	})
}

func TestEncoderIntegers(t *testing.T) {
	for _, v := range []int64{0, 1, -1, math.MaxInt64, math.MinInt64} {
		same(t, v, func(e *jsonwire.Encoder) { e.Int(v) })
	}
	for _, v := range []uint64{0, 1, math.MaxUint64} {
		same(t, v, func(e *jsonwire.Encoder) { e.Uint(v) })
	}
	for _, v := range []bool{true, false} {
		same(t, v, func(e *jsonwire.Encoder) { e.Bool(v) })
	}
}

// rawJSON is a json.Marshaler returning fixed bytes or an error.
type rawJSON struct {
	b   string
	err error
}

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(r.b), r.err }

type text string

func (s text) MarshalText() ([]byte, error) {
	if s == "fail" {
		return nil, errors.New("no")
	}
	return []byte("<" + s + ">"), nil
}

func TestEncoderMarshalers(t *testing.T) {
	for _, r := range []rawJSON{
		{b: `{"a":1}`}, {b: " { \"a\" : [ 1 , \"<&>\" ] } "}, {b: "\"\u2028\u2029\""}, {b: `{"a":`}, {b: ``},
		{b: "null"}, {b: `1 2`}, {b: `"x"`, err: errors.New("refused")},
	} {
		same(t, r, func(e *jsonwire.Encoder) { e.Marshaler(r) })
		if r.err == nil {
			same(t, r, func(e *jsonwire.Encoder) { e.RawJSON([]byte(r.b), r) })
		}
	}
	for _, s := range []text{"a", "&", "fail"} {
		same(t, s, func(e *jsonwire.Encoder) { e.TextMarshaler(s) })
	}
	same(t, (*rawJSON)(nil), func(e *jsonwire.Encoder) { e.Marshaler((*rawJSON)(nil)) })
}

// TestEncoderAny covers the values Unstructured holds and the fallback
// to encoding/json for others.
func TestEncoderAny(t *testing.T) {
	type other struct {
		A int `json:"a"`
	}
	cycle := map[string]any{}
	cycle["self"] = cycle
	for _, v := range []any{
		nil, "s", int64(-3), 1.5, true, 7, int32(8), float32(0.1), map[string]any(nil), []any(nil),
		map[string]any{"b": []any{1.0, "x", nil}, "a": map[string]any{}}, map[string]string{"z": "1", "a": "<"},
		[]string{"a"}, []string(nil), json.Number("12"), json.Number("x"), other{A: 1}, &other{}, (*other)(nil),
		math.NaN(), map[int]string{2: "b", 10: "a"},
	} {
		same(t, v, func(e *jsonwire.Encoder) { e.Any(v) })
	}
	t.Run("cycle", func(t *testing.T) {
		var e jsonwire.Encoder
		e.Any(cycle)
		if e.Err() == nil {
			t.Fatal("a map holding itself encoded without error")
		}
	})
	f := &randfill.Filler{Rand: rand.New(rand.NewPCG(1, 2))}
	for range 2000 {
		v := f.Any(0)
		same(t, v, func(e *jsonwire.Encoder) { e.Any(v) })
	}
}

func TestEncoderStringMapsSorted(t *testing.T) {
	m := map[string]string{}
	for i := range 40 {
		m[string(rune('a'+i%26))+string(rune('0'+i/26))] = "v"
	}
	same(t, m, func(e *jsonwire.Encoder) { jsonwire.EncodeStringMap(e, m) })
	var nilMap map[string]string
	same(t, nilMap, func(e *jsonwire.Encoder) { jsonwire.EncodeStringMap(e, nilMap) })
}
