package main

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/jsonwire"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	"github.com/kubewire/kubewire/codec"
)

// shuffledCBOR is the CBOR kube-apiserver would send for the JSON js:
// byte strings, the keys of every map in a random order, the
// self-described tag.
func shuffledCBOR(t testing.TB, js []byte, r *rand.Rand) []byte {
	t.Helper()
	d := jsonwire.NewDecoder(js, nil)
	v := d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	return appendShuffled(cborwire.AppendSelfDescribed(nil), v, r)
}

func appendShuffled(b []byte, v any, r *rand.Rand) []byte {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		b = append(b, cborHead(5, len(keys))...)
		for _, k := range keys {
			b = append(append(b, cborHead(2, len(k))...), k...)
			b = appendShuffled(b, v[k], r)
		}
		return b
	case []any:
		b = append(b, cborHead(4, len(v))...)
		for _, e := range v {
			b = appendShuffled(b, e, r)
		}
		return b
	case string:
		return append(append(b, cborHead(2, len(v))...), v...)
	}
	out, err := cborwire.AppendValue(b, v)
	if err != nil {
		panic(err)
	}
	return out
}

func cborHead(major byte, n int) []byte {
	if n < 24 {
		return []byte{major<<5 | byte(n)}
	}
	if n < 256 {
		return []byte{major<<5 | 24, byte(n)}
	}
	return []byte{major<<5 | 25, byte(n >> 8), byte(n)}
}

// A generated type reads from CBOR (as kube-apiserver sends it, keys in
// any order) what it reads from the JSON of the same object, every kind
// of field included: embedded structs, pointers, nested slices, maps of
// slices, bytes, quantities, int-or-strings, built-in types (through
// their JSON decoders), raw extensions, untyped values; plain and
// read-only, and the read-only decode shares what repeats.
func TestGeneratedCBORDecodesAsJSON(t *testing.T) {
	js, err := codec.EncodeJSON(fullWidget())
	if err != nil {
		t.Fatal(err)
	}
	var want shapesv1.Widget
	if err := codec.DecodeJSON(js, &want); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	table := &wire.Decoder{ReadOnly: true}
	var ro []*shapesv1.Widget
	for i := range 5 {
		cb := shuffledCBOR(t, js, r)
		for _, tb := range []*wire.Decoder{nil, table} {
			got := new(shapesv1.Widget)
			if err := cborwire.Decode(cb, got, tb); err != nil {
				t.Fatalf("decode %d: %v", i, err)
			}
			if d := cmp.Diff(&want, got, ignoreUnexported); d != "" {
				t.Fatalf("CBOR decodes differently (-json +cbor):\n%s", d)
			}
			if tb != nil {
				ro = append(ro, got)
			}
		}
	}
	if &ro[3].Spec.Tags[0] != &ro[4].Spec.Tags[0] || &ro[3].Status.Conditions[0] != &ro[4].Status.Conditions[0] {
		t.Error("a read-only decode does not share equal slices")
	}
}

// Whatever the bytes, a generated decoder ends without a panic; and
// what the dynamic decoder refuses for a duplicate map key the typed
// decoders refuse too (for that or another reason), and the other way
// round.
func FuzzGeneratedCBOR(f *testing.F) {
	js, err := codec.EncodeJSON(fullWidget())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(shuffledCBOR(f, js, rand.New(rand.NewPCG(3, 4))))
	obj := dupWidget(f)
	f.Add(appendWithDup(f, nil, obj, nil, dupEntry{}))
	f.Add(appendWithDup(f, nil, obj, []any{"spec", "surplus", "inner", 0}, dupEntry{name: "unknown", key: "z"}))
	f.Add(appendWithDup(f, nil, obj, []any{"metadata", "labels"}, dupEntry{name: "labels", key: "app"}))
	f.Fuzz(func(t *testing.T, in []byte) {
		plain := cborwire.Decode(in, new(shapesv1.Widget), nil)
		readOnly := cborwire.Decode(in, new(shapesv1.Widget), &wire.Decoder{ReadOnly: true})
		dynamic := cborwire.Decode(in, new(unstructured.Unstructured), nil)
		for _, typed := range []error{plain, readOnly} {
			if isDuplicateKey(dynamic) && typed == nil {
				t.Fatalf("the dynamic decoder refuses %v; a typed decoder took it", dynamic)
			}
			if isDuplicateKey(typed) && dynamic == nil {
				t.Fatalf("a typed decoder refuses %v; the dynamic decoder took it", typed)
			}
		}
	})
}

func isDuplicateKey(err error) bool {
	return err != nil && strings.Contains(err.Error(), "duplicate key")
}
