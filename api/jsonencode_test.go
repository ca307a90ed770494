package api_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/api/runtime"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/internal/testing/randfill"
)

// checkEncodeSame fails unless jsonwire.Encode (the generated encoders)
// writes what encoding/json writes for v, or both fail.
func checkEncodeSame(t *testing.T, v jsonwire.Encodable) {
	t.Helper()
	want, errWant := json.Marshal(v)
	got, errGot := jsonwire.Encode(v)
	if (errWant == nil) != (errGot == nil) {
		t.Fatalf("%T: encoding/json says %v, jsonwire says %v", v, errWant, errGot)
	}
	if errWant != nil {
		return
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Fatalf("%T: encodings differ (-encoding/json +generated):\n%s", v, diff)
	}
}

// TestJSONEncodeFixtures decodes every JSON fixture and bad input into
// each kind (with encoding/json, where it accepts them) and into
// Unstructured, and checks that the generated encoders write them as
// encoding/json does.
func TestJSONEncodeFixtures(t *testing.T) {
	for i, data := range jsonInputs(t) {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, kind := range jsonKinds {
				v := kind()
				if json.Unmarshal(data, v) != nil {
					continue
				}
				checkEncodeSame(t, v.(jsonwire.Encodable))
			}
			var u unstructured.Unstructured
			if jsonwire.Decode(data, &u, nil) == nil {
				checkEncodeSame(t, &u)
			}
			var l unstructured.UnstructuredList
			if jsonwire.Decode(data, &l, nil) == nil {
				checkEncodeSame(t, &l)
			}
		})
	}
}

// apiFiller fills API types at random, with valid values where their
// types keep invariants (Quantity) and, now and then, the invalid raw
// JSON or IntOrString that MarshalJSON refuses.
func apiFiller(a, b uint64) *randfill.Filler {
	quantities := []string{"0", "1", "100m", "1.5Gi", "2e3", "-7Ki", "500M"}
	raws := []string{"{}", `{"f:metadata":{"f:labels":{".":{}}}}`, ` { "a" : "<b>" } `, `[1, "\u2028"]`, "{", ""}
	return &randfill.Filler{
		Rand:     rand.New(rand.NewPCG(a, b)),
		MaxDepth: 5,
		NaN:      a%11 == 0,
		Custom: map[reflect.Type]func(*randfill.Filler) reflect.Value{
			reflect.TypeFor[quantity.Quantity](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(quantity.MustParse(quantities[f.Rand.IntN(len(quantities))]))
			},
			reflect.TypeFor[intstr.IntOrString](): func(f *randfill.Filler) reflect.Value {
				switch f.Rand.IntN(5) {
				case 0:
					return reflect.ValueOf(intstr.FromString(f.String()))
				case 1:
					return reflect.ValueOf(intstr.IntOrString{Type: 7})
				}
				return reflect.ValueOf(intstr.FromInt32(f.Rand.Int32()))
			},
			reflect.TypeFor[metav1.FieldsV1](): func(f *randfill.Filler) reflect.Value {
				return reflect.ValueOf(metav1.FieldsV1{Raw: []byte(raws[f.Rand.IntN(len(raws))])})
			},
			reflect.TypeFor[runtime.RawExtension](): func(f *randfill.Filler) reflect.Value {
				var raw []byte
				if n := f.Rand.IntN(len(raws) + 1); n < len(raws) {
					raw = []byte(raws[n])
				}
				return reflect.ValueOf(runtime.RawExtension{Raw: raw})
			},
		},
	}
}

// encodeKinds are the types the random tests fill: kinds with every kind
// of field between them, and apply configurations.
var encodeKinds = []func() jsonwire.Encodable{
	func() jsonwire.Encodable { return new(corev1.Pod) },
	func() jsonwire.Encodable { return new(corev1.Service) },
	func() jsonwire.Encodable { return new(corev1.ConfigMap) },
	func() jsonwire.Encodable { return new(corev1.Secret) },
	func() jsonwire.Encodable { return new(corev1.Node) },
	func() jsonwire.Encodable { return new(corev1.PersistentVolume) },
	func() jsonwire.Encodable { return new(appsv1.Deployment) },
	func() jsonwire.Encodable { return new(appsv1.StatefulSet) },
	func() jsonwire.Encodable { return new(batchv1.CronJob) },
	func() jsonwire.Encodable { return new(apiextensionsv1.CustomResourceDefinition) },
	func() jsonwire.Encodable { return new(metav1.Status) },
	func() jsonwire.Encodable { return new(metav1.Table) },
	func() jsonwire.Encodable { return new(metav1.DeleteOptions) },
	func() jsonwire.Encodable { return new(metav1.WatchEvent) },
	func() jsonwire.Encodable { return new(metav1.PartialObjectMetadataList) },
}

func encodeRandom(t *testing.T, a, b uint64) {
	f := apiFiller(a, b)
	kinds := encodeKinds
	for _, kind := range kinds {
		v := kind()
		f.Fill(v)
		checkEncodeSame(t, v)
	}
	u := &unstructured.Unstructured{}
	if m, ok := f.Any(0).(map[string]any); ok {
		u.Object = m
	}
	checkEncodeSame(t, u)
	l := &unstructured.UnstructuredList{Object: map[string]any{"kind": "List", "zz": 1.5, "items": "replaced"}}
	l.Items = []unstructured.Unstructured{*u, {}}
	checkEncodeSame(t, l)
}

// TestJSONEncodeRandom compares the generated encoders with
// encoding/json on random values.
func TestJSONEncodeRandom(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 40
	}
	for i := range uint64(n) {
		encodeRandom(t, i, i*104729)
	}
}

// FuzzJSONEncode looks for values on which the generated encoders and
// encoding/json disagree.
func FuzzJSONEncode(f *testing.F) {
	f.Add(uint64(0), uint64(1))
	f.Add(uint64(11), uint64(3))
	f.Fuzz(encodeRandom)
}
