package cborwire

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// TestAppendJSONFormMatchesFromJSON: the walk writes the bytes FromJSON
// writes from the value's JSON, and declines what it cannot mirror.
func TestAppendJSONFormMatchesFromJSON(t *testing.T) {
	same := []any{
		nil, true, false, "", "héllo", int64(-1), int64(math.MaxInt64), int(24), int32(-25),
		1.5, 3.0, -0.0, 1e300, -9.2e18,
		[]any{}, []any{"a", int64(1), nil}, []any(nil), map[string]any(nil),
		map[string]any{"b": int64(2), "a": []any{map[string]any{"z": 1.25, "y": ""}}},
	}
	for _, v := range same {
		got, ok := AppendJSONForm(AppendSelfDescribed(nil), v)
		if !ok {
			t.Errorf("%#v: declined", v)
			continue
		}
		js, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		want, err := FromJSON(js)
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%#v:\n got %x\nwant %x (from %s)", v, got, want, js)
		}
	}
	deep := any("leaf")
	for range DefaultMaxDepth + 1 {
		deep = []any{deep}
	}
	declined := []any{"\xff", float32(1), uint64(1), math.NaN(), math.Inf(1), struct{}{}, deep,
		map[string]any{"\xfe": int64(1)}, -9223372036854775808.0}
	for _, v := range declined[:len(declined)-1] {
		if _, ok := AppendJSONForm(nil, v); ok {
			t.Errorf("%#v: not declined", v)
		}
	}
	// -2^63 is integral but the JSON reader takes it as a float: written as one.
	got, _ := AppendJSONForm(nil, declined[len(declined)-1])
	if len(got) != 9 || got[0] != 0xfb {
		t.Errorf("-2^63: got %x, want a float64", got)
	}
}
