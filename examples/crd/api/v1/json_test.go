package v1_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/codec"
	v1 "github.com/kubewire/kubewire/examples/crd/api/v1"
	"github.com/kubewire/kubewire/internal/testing/randfill"
)

// The encoders kubewire-gen writes produce the bytes encoding/json
// produces for the same value, and the decoders read them back to an
// equal value: on the zero value, on random values (nil and empty maps,
// slices and pointers, odd strings) and on a realistic object.
func TestGeneratedJSONMatchesEncodingJSON(t *testing.T) {
	quantities := []string{"0", "1", "100m", "1.5Gi", "2e3", "500M"}
	raws := []string{"{}", `{"f:metadata":{"f:labels":{".":{}}}}`, ` { "a" : "<b>" } `}
	f := &randfill.Filler{
		Rand:     rand.New(rand.NewPCG(7, 11)),
		MaxDepth: 5,
		Custom: map[reflect.Type]func(*randfill.Filler) reflect.Value{
			reflect.TypeFor[quantity.Quantity](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(quantity.MustParse(quantities[f.Rand.IntN(len(quantities))]))
			},
			reflect.TypeFor[metav1.FieldsV1](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(metav1.FieldsV1{Raw: []byte(raws[f.Rand.IntN(len(raws))])})
			},
		},
	}
	values := []any{&v1.Widget{}, &v1.WidgetList{}, &v1.WidgetSpec{}, &v1.WidgetStatus{}}
	for range 200 {
		var w v1.Widget
		f.Fill(&w)
		values = append(values, &w)
		var l v1.WidgetList
		f.Fill(&l)
		values = append(values, &l)
	}
	for i, v := range values {
		if _, ok := v.(jsonwire.Encodable); !ok {
			t.Fatalf("%T has no generated EncodeJSON method", v)
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := codec.EncodeJSON(v)
		if err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("value %d: generated encoder differs from encoding/json:\n got %s\nwant %s", i, got, want)
		}
		if _, ok := v.(*v1.Widget); !ok {
			continue
		}
		var back v1.Widget
		if err := codec.DecodeJSON(got, &back); err != nil {
			t.Fatalf("value %d: decode: %v", i, err)
		}
		var viaStd v1.Widget
		if err := json.Unmarshal(got, &viaStd); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(viaStd, back); diff != "" {
			t.Fatalf("value %d: generated decoder and encoding/json disagree (-encoding/json +generated):\n%s", i, diff)
		}
	}
}
