package cborwire_test

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/kubewire/kubewire/api/builtin"
	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/intstr"
	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/testing/randfill"
)

// kindFiller fills API objects at random, with the values MarshalJSON
// accepts where a type keeps invariants.
func kindFiller(seed uint64) *randfill.Filler {
	quantities := []string{"0", "1", "100m", "1.5Gi", "2e3", "-7Ki", "500M"}
	raws := []string{"{}", `{"f:metadata":{"f:labels":{".":{}}}}`, ` { "b" : "<b>", "a": [1, 2.5, "\u2028"] } `, `[1, "\u2028"]`}
	return &randfill.Filler{
		Rand:     rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		MaxDepth: 5,
		Custom: map[reflect.Type]func(*randfill.Filler) reflect.Value{
			reflect.TypeFor[quantity.Quantity](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(quantity.MustParse(quantities[f.Rand.IntN(len(quantities))]))
			},
			reflect.TypeFor[intstr.IntOrString](): func(f *randfill.Filler) reflect.Value {
				if f.Rand.IntN(2) == 0 {
					return reflect.ValueOf(intstr.FromString(f.String()))
				}
				return reflect.ValueOf(intstr.FromInt32(f.Rand.Int32()))
			},
			reflect.TypeFor[metav1.FieldsV1](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(metav1.FieldsV1{Raw: []byte(raws[f.Rand.IntN(len(raws))])})
			},
			reflect.TypeFor[runtime.RawExtension](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(runtime.RawExtension{Raw: []byte(raws[f.Rand.IntN(len(raws))])})
			},
		},
	}
}

// The write body of every built-in kind and list, filled at random and
// encoded by its generated JSON encoder (with apiVersion and kind, as a
// write adds them), converts in one pass to the bytes the tree of Go
// values gave.
func TestFromJSONEveryKindAsTree(t *testing.T) {
	converted := 0
	for _, k := range registry.All() {
		makers := []func() (any, bool){func() (any, bool) { return builtin.New(k.APIVersion(), k.Kind) }}
		if k.ListKind != "" {
			makers = append(makers, func() (any, bool) { return builtin.NewList(k.APIVersion(), k.ListKind) })
		}
		for _, newObj := range makers {
			for seed := range uint64(4) {
				obj, ok := newObj()
				if !ok {
					t.Fatalf("%s %s: no constructor", k.APIVersion(), k.Kind)
				}
				if seed > 0 { // seed 0: the empty object
					kindFiller(seed).Fill(obj)
				}
				js, err := codec.EncodeJSON(obj)
				if err != nil {
					continue // a float the filler made that JSON cannot hold
				}
				js = codec.WithTypeMeta(js, k.APIVersion(), k.Kind)
				got, err := cborwire.FromJSON(js)
				if err != nil {
					t.Fatalf("%T: %v", obj, err)
				}
				d := jsonwire.NewDecoder(js, nil)
				v := d.Any()
				if err := d.End(); err != nil {
					t.Fatalf("%T: the JSON decoder refuses its own encoding: %v", obj, err)
				}
				want, err := cborwire.AppendValue(cborwire.AppendSelfDescribed(nil), v)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("%T seed %d: %s\n got %x\nwant %x", obj, seed, js, got, want)
				}
				converted++
			}
		}
	}
	if converted < len(registry.All())*4 {
		t.Errorf("converted only %d objects of %d kinds", converted, len(registry.All()))
	}
}
