package jsonwire_test

import (
	"errors"
	"math"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/wire"
)

func TestStrings(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`""`, ""},
		{`"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"},
		{`"\u00e9\u4e16"`, "é世"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\ud800x"`, "\uFFFDx"},      // lone surrogate
		{`"\ud800\u0041"`, "\uFFFDA"}, // surrogate then not a low one
		{"\"a\xffb\"", "a\uFFFDb"},    // invalid UTF-8
		{`"é"`, "é"},
	}
	for _, tt := range tests {
		var s string
		d := jsonwire.NewDecoder([]byte(tt.in), nil)
		jsonwire.String(d, &s)
		if err := d.End(); err != nil || s != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.in, s, err, tt.want)
		}
	}
}

func TestIntegers(t *testing.T) {
	tests := []struct {
		in     string
		want   int64
		wantOK bool
	}{
		{"0", 0, true}, {"-0", 0, true}, {"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true}, {"9223372036854775808", 0, false},
		{"1.0", 0, false}, {"1e2", 0, false}, {`"1"`, 0, false}, {"null", 42, true},
	}
	for _, tt := range tests {
		v := int64(42)
		d := jsonwire.NewDecoder([]byte(tt.in), nil)
		jsonwire.Int(d, &v)
		err := d.End()
		if (err == nil) != tt.wantOK || tt.wantOK && v != tt.want {
			t.Errorf("%s: got %d, %v; want %d (ok %v)", tt.in, v, err, tt.want, tt.wantOK)
		}
	}
	var small int32
	d := jsonwire.NewDecoder([]byte("2147483648"), nil)
	jsonwire.Int(d, &small)
	var te *jsonwire.TypeError
	if err := d.End(); !errors.As(err, &te) || !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("int32 overflow: %v, want a TypeError matching wire.ErrMalformed", err)
	}
}

func TestSyntaxErrors(t *testing.T) {
	for _, in := range []string{
		``, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `[1,]`, `[1 2]`, `tru`, `nul`, `01`, `1.`, `-`, `1e`,
		`"a`, "\"a\nb\"", `"\x"`, `"\u12"`, `{"a":1}}`, `{} {}`, strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	} {
		d := jsonwire.NewDecoder([]byte(in), nil)
		d.Skip()
		var se *jsonwire.SyntaxError
		if err := d.End(); !errors.As(err, &se) || !errors.Is(err, wire.ErrMalformed) {
			t.Errorf("%.40q: %v, want a SyntaxError", in, err)
		}
	}
}

func TestAny(t *testing.T) {
	d := jsonwire.NewDecoder([]byte(`{"i":1,"big":9223372036854775808,"f":2.0,"e":1e3,"b":true,"n":null,"a":[],"o":{}}`), nil)
	got := d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"i": int64(1), "big": 9223372036854775808.0, "f": 2.0, "e": 1000.0, "b": true, "n": nil, "a": []any{}, "o": map[string]any{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
	d = jsonwire.NewDecoder([]byte(`[1e400]`), nil)
	d.Any()
	if err := d.End(); err == nil {
		t.Error("1e400: no error")
	}
}

// Through a ReadOnly table, equal nested objects are one map from their
// first sighting on (the first decode's, kept for the next); the top of a
// value never is.
func TestAnySharing(t *testing.T) {
	table := &wire.Decoder{ReadOnly: true}
	decode := func() map[string]any {
		d := jsonwire.NewDecoder([]byte(`{"spec":{"color":"red"}}`), table)
		return d.AnyObject()
	}
	a, b, c := decode(), decode(), decode()
	spec := func(m map[string]any) map[string]any { return m["spec"].(map[string]any) }
	spec(a)["marker"] = true // a's spec is the one kept for later decodes
	if _, ok := spec(b)["marker"]; !ok {
		t.Error("the second decode does not share the first's nested map")
	}
	if _, ok := spec(c)["marker"]; !ok {
		t.Error("the third decode does not share the first's nested map")
	}
	a["top"] = 1
	if _, ok := c["top"]; ok {
		t.Error("top-level maps are shared")
	}
}

// Through a ReadOnly table, empty arrays are one boxed []any of capacity
// zero (appending to one cannot reach another object), and an array is
// boxed once: the third decode holds the very any the second kept.
func TestAnyArraySharing(t *testing.T) {
	table := &wire.Decoder{ReadOnly: true}
	decode := func(table *wire.Decoder) map[string]any {
		d := jsonwire.NewDecoder([]byte(`{"a":[],"b":[],"ports":[80,443]}`), table)
		m := d.AnyObject()
		if d.Err() != nil {
			t.Fatal(d.Err())
		}
		return m
	}
	x, y := decode(table), decode(table)
	ea, eb := x["a"].([]any), y["b"].([]any)
	if ea == nil || len(ea) != 0 || cap(ea) != 0 || eb == nil || len(eb) != 0 {
		t.Fatalf("empty arrays: %#v, %#v", ea, eb)
	}
	if unsafe.SliceData(ea) != unsafe.SliceData(eb) {
		t.Error("empty arrays are not shared")
	}
	_ = append(ea, "x")
	if len(y["a"].([]any)) != 0 {
		t.Error("appending to a shared empty array reached another object")
	}
	z := decode(table)
	py, pz := y["ports"], z["ports"]
	if (*[2]unsafe.Pointer)(unsafe.Pointer(&py))[1] != (*[2]unsafe.Pointer)(unsafe.Pointer(&pz))[1] {
		t.Error("a shared array is boxed again for each object")
	}
	// Without ReadOnly nothing is shared.
	p, q := decode(nil), decode(nil)
	if unsafe.SliceData(p["ports"].([]any)) == unsafe.SliceData(q["ports"].([]any)) {
		t.Error("arrays shared without a ReadOnly table")
	}
}
