package client

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
)

// unstructuredCBORCases are objects whose direct CBOR must be the bytes of
// their JSON converted: the recorded rich Widget, and the numbers,
// strings and empties where JSON and CBOR part ways.
func unstructuredCBORCases(t testing.TB) map[string]map[string]any {
	var rich unstructured.Unstructured
	if err := codec.DecodeJSON(load(t, "cbor/widget-rich.json").Body, &rich); err != nil {
		t.Fatal(err)
	}
	return map[string]map[string]any{
		"recorded rich widget": rich.Object,
		"numbers": {"spec": map[string]any{
			"one": 1.0, "negzero": math.Copysign(0, -1), "tenth": 0.1, "small": 1e-7, "e20": 1e20, "e21": 1e21,
			"minint": float64(math.MinInt64), "two63": float64(1 << 63), "maxfloat": math.MaxFloat64, "half": -2.5,
			"ints": []any{int64(0), int64(-1), int64(23), int64(24), int64(255), int64(256), int64(65536), int64(math.MaxInt64), int64(math.MinInt64), 7, int32(-9)},
		}},
		"strings and empties": {"metadata": map[string]any{"name": "n", "labels": map[string]any{}},
			"spec": map[string]any{"s": "\u00e9\u4e16<>&\"\\\n\u2028", "empty": "", "nilmap": map[string]any(nil), "nilslice": []any(nil), "list": []any{}, "null": nil, "t": true, "f": false,
				"long": string(bytes.Repeat([]byte("x"), 70000))}},
		"typemeta present": {"apiVersion": "", "kind": nil, "metadata": map[string]any{"name": "n"}},
	}
}

// The direct CBOR of an Unstructured object is byte for byte the JSON
// conversion's (which kube-apiserver takes: see e2e), with apiVersion and
// kind added the same way; what the walk does not mirror goes back to the
// conversion instead of differing.
func TestUnstructuredCBORMatchesConverted(t *testing.T) {
	for name, obj := range unstructuredCBORCases(t) {
		for _, tm := range [][2]string{{"", ""}, {"example.com/v1", "Widget"}} {
			direct, ok := unstructuredCBOR(obj, tm[0], tm[1])
			converted, convOK, err := cborConverted(&unstructured.Unstructured{Object: obj}, tm[0], tm[1])
			if !ok || !convOK || err != nil {
				t.Fatalf("%s %v: direct ok %v, converted ok %v, %v", name, tm, ok, convOK, err)
			}
			if !bytes.Equal(direct, converted) {
				t.Errorf("%s %v: direct CBOR differs from the converted JSON\n direct    %x\n converted %x", name, tm, direct[:min(len(direct), 200)], converted[:min(len(converted), 200)])
			}
		}
	}
	for name, v := range map[string]any{
		"invalid UTF-8": "a\xffb", "float32": float32(0.1), "uint64": uint64(1 << 63), "[]string": []string{"a"},
		"NaN": math.NaN(), "invalid UTF-8 key": map[string]any{"\xff": 1},
	} {
		if _, ok := unstructuredCBOR(map[string]any{"spec": map[string]any{"v": v}}, "", ""); ok {
			t.Errorf("%s: written directly, want it left to the JSON conversion", name)
		}
	}
	if _, ok := unstructuredCBOR(nil, "v1", "ConfigMap"); ok {
		t.Error("a nil object was written directly")
	}
}

// A CBOR write of an Unstructured object read from the server sends the
// direct bytes (not the conversion's fallback).
func TestCBORWriteSendsDirectBody(t *testing.T) {
	c, rec := cborServer(t, Config{})
	res := Dynamic(c, widgets).Namespace("default")
	ctx := context.Background()
	got, err := res.Get(ctx, "rich", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, ok := unstructuredCBOR(got.Object, "", "")
	if !ok {
		t.Fatal("an object decoded from CBOR is left to the JSON conversion")
	}
	if _, err := res.Update(ctx, got, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	req, body := rec.last(t)
	if req.Header.Get("Content-Type") != codec.MediaTypeCBOR || !bytes.Equal(body, want) {
		t.Errorf("sent %q, %d bytes; want the CBOR of the object (%d bytes)", req.Header.Get("Content-Type"), len(body), len(want))
	}
}

// Any JSON object read as Unstructured: its direct CBOR, when written,
// is the conversion's.
func FuzzUnstructuredCBOR(f *testing.F) {
	f.Add(load(f, "cbor/widget-rich.json").Body)
	f.Add([]byte(`{"a":1.0,"b":-0,"c":[1e21,1e-7,0.5],"d":{"e":null,"f":"\u00e9"}}`))
	f.Add([]byte(`{"x":9223372036854775807,"y":-9223372036854775808,"z":18446744073709551615}`))
	f.Fuzz(func(t *testing.T, js []byte) {
		var u unstructured.Unstructured
		if codec.DecodeJSON(js, &u) != nil {
			return
		}
		direct, ok := unstructuredCBOR(u.Object, "example.com/v1", "Widget")
		if !ok {
			return
		}
		converted, _, err := cborConverted(&u, "example.com/v1", "Widget")
		if err != nil {
			t.Fatalf("direct CBOR written where the conversion fails: %v", err)
		}
		if !bytes.Equal(direct, converted) {
			t.Fatalf("direct %x\nconverted %x", direct, converted)
		}
		if _, err := cborwire.ToJSON(direct); err != nil {
			t.Fatalf("direct CBOR does not read back: %v", err)
		}
	})
}

// The CBOR body of an Unstructured write: through JSON (before) and
// straight from the maps.
func BenchmarkUnstructuredCBORBody(b *testing.B) {
	var u unstructured.Unstructured
	if err := codec.DecodeJSON(load(b, "cbor/widget-rich.json").Body, &u); err != nil {
		b.Fatal(err)
	}
	b.Run("converted", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, _, err := cborConverted(&u, "example.com/v1", "Widget"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := unstructuredCBOR(u.Object, "example.com/v1", "Widget"); !ok {
				b.Fatal("not written")
			}
		}
	})
}
