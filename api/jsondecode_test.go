package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	apidiscoveryv2 "github.com/kubewire/kubewire/api/apidiscovery/v2"
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// jsonKinds are the types the differential tests decode every input into.
var jsonKinds = []func() jsonwire.Decodable{
	func() jsonwire.Decodable { return new(corev1.Pod) },
	func() jsonwire.Decodable { return new(corev1.PodList) },
	func() jsonwire.Decodable { return new(corev1.ConfigMap) },
	func() jsonwire.Decodable { return new(corev1.Service) },
	func() jsonwire.Decodable { return new(corev1.Node) },
	func() jsonwire.Decodable { return new(appsv1.Deployment) },
	func() jsonwire.Decodable { return new(coordinationv1.Lease) },
	func() jsonwire.Decodable { return new(apiextensionsv1.CustomResourceDefinition) },
	func() jsonwire.Decodable { return new(metav1.Status) },
	func() jsonwire.Decodable { return new(metav1.PartialObjectMetadataList) },
	func() jsonwire.Decodable { return new(metav1.APIResourceList) },
	func() jsonwire.Decodable { return new(apidiscoveryv2.APIGroupDiscoveryList) },
	func() jsonwire.Decodable { return new(metav1.Table) },
}

// jsonInputs are the fixtures' JSON bodies and the bad-input table.
func jsonInputs(t testing.TB) [][]byte {
	var out [][]byte
	for _, dir := range []string{"objects", "lists", "meta", "errors", "discovery", "tables"} {
		names, err := fixture.List(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			r, err := fixture.Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(r.ContentType(), "application/json") {
				out = append(out, r.Body)
			}
		}
	}
	for _, s := range badJSON {
		out = append(out, []byte(s))
	}
	return out
}

// badJSON is input kube-apiserver and encoding/json reject, or that tests
// the edges of what they accept.
var badJSON = []string{
	``, ` `, `{`, `}`, `[]`, `null`, ` null `, `"x"`, `1`, `{"metadata":`, `{"metadata":{}`,
	`{"metadata":{}}}`, `{"metadata":{}} x`, `{"metadata":{},}`, `{,}`, `{"a" 1}`, `{"a":1 "b":2}`,
	`{"metadata":{"name":"a","name":"b"}}`, `{"metadata":{"name":"a"},"metadata":{"namespace":"b"}}`,
	`{"metadata":{"name":1}}`, `{"metadata":{"name":null}}`, `{"metadata":null}`, `{"metadata":[]}`,
	`{"metadata":{"generation":1.5}}`, `{"metadata":{"generation":1e3}}`, `{"metadata":{"generation":-0}}`,
	`{"metadata":{"generation":9223372036854775807}}`, `{"metadata":{"generation":9223372036854775808}}`,
	`{"metadata":{"generation":-9223372036854775808}}`, `{"metadata":{"generation":"1"}}`,
	`{"metadata":{"generation":01}}`, `{"metadata":{"generation":-}}`, `{"metadata":{"generation":1.}}`,
	`{"spec":{"priority":2147483648}}`, `{"spec":{"priority":-2147483648}}`,
	`{"metadata":{"labels":{"a":"b","a":"c"}}}`, `{"metadata":{"labels":{"a":null}}}`, `{"metadata":{"labels":{"a":1}}}`,
	`{"metadata":{"labels":null}}`, `{"metadata":{"labels":{}}}`, `{"metadata":{"finalizers":[]}}`,
	`{"metadata":{"finalizers":["a",]}}`, `{"metadata":{"finalizers":["a" "b"]}}`, `{"metadata":{"finalizers":[null,"b"]}}`,
	`{"metadata":{"name":"\u00e9\ud83d\ude00\ud800x\"\\\/\b\f\n\r\t"}}`, "{\"metadata\":{\"name\":\"a\xffb\"}}",
	`{"metadata":{"name":"\x"}}`, `{"metadata":{"name":"\u12"}}`, "{\"metadata\":{\"name\":\"a\nb\"}}",
	`{"metadata":{"na\u006de":"escaped key"}}`, `{"metadata":{"creationTimestamp":"2024-01-02T03:04:05Z"}}`,
	`{"metadata":{"creationTimestamp":"yesterday"}}`, `{"metadata":{"creationTimestamp":null}}`,
	`{"metadata":{"creationTimestamp":""}}`, `{"metadata":{"creationTimestamp":5}}`,
	`{"spec":{"containers":[{"name":"a","image":"x"}],"containers":[{"name":"b"}]}}`,
	`{"spec":{"containers":[{"name":"a"},{"name":"b"}],"containers":[{"image":"c"}]}}`,
	`{"spec":{"containers":[{"resources":{"limits":{"cpu":"100m","memory":"1Gi"}}}]}}`,
	`{"spec":{"containers":[{"resources":{"limits":{"cpu":"lots"}}}]}}`, `{"spec":{"containers":[{"resources":{"limits":{"cpu":2}}}]}}`,
	`{"spec":{"containers":[{"ports":[{"containerPort":80,"targetPort":"http"}]}]}}`,
	`{"spec":{"ports":[{"port":80,"targetPort":"http"},{"port":81,"targetPort":8081}]}}`, `{"spec":{"ports":[{"targetPort":1.5}]}}`,
	`{"data":{"a":"b"},"binaryData":{"c":"aGVsbG8="}}`, `{"binaryData":{"c":"not base64!"}}`,
	`{"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"f:metadata":{"f:labels":{}}}}]}}`,
	`{"metadata":{"managedFields":[{"fieldsV1":{ "f:a" : { } }}]}}`,
	`{"rows":[{"cells":["a",1,2.5,true,null,{"k":[1]}]}]}`, `{"metadata":{"name":"a"}, "unknown": {"deep": [1, {"x": null}]}}`,
	`{"metadata":{"name":"a"}, "unknown": [1, 2,]}`, `{"metadata":{"name":"a"}, "unknown": tru}`, `{"items":[null,{}]}`,
	`{"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{}]}}}}}`,
	`{"spec":{"volumes":[{"name":"v","hostPath":{"path":"/x"},"configMap":{"name":"c"}}]}}`,
	`{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object","properties":{"a":{"type":"string","default":"x"}}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"items":[{"type":"string"}],"additionalProperties":false}}}]}}`,
	strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001),
	`{"metadata":{"uid":"u"}, "Metadata":{"uid":"v"}}`,
}

// foldedKey reports whether data has an object key that differs from a
// field name of v's type only in case: encoding/json matches it and
// kubewire, like kube-apiserver, does not.
func foldedKey(data []byte, v any) bool {
	var generic any
	if json.Unmarshal(data, &generic) != nil {
		return false
	}
	names := jsonNames(reflect.TypeOf(v))
	var walk func(any) bool
	walk = func(x any) bool {
		switch x := x.(type) {
		case map[string]any:
			for k, e := range x {
				for n := range names {
					if k != n && strings.EqualFold(k, n) {
						return true
					}
				}
				if walk(e) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	return walk(generic)
}

var namesByType sync.Map // reflect.Type -> map[string]bool

// jsonNames returns the JSON member names of t and the types it holds.
func jsonNames(t reflect.Type) map[string]bool {
	if v, ok := namesByType.Load(t); ok {
		return v.(map[string]bool)
	}
	names := map[string]bool{}
	fieldNames(t, names, map[reflect.Type]bool{})
	namesByType.Store(t, names)
	return names
}

func fieldNames(t reflect.Type, names map[string]bool, seen map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		names[name] = true
		fieldNames(f.Type, names, seen)
	}
}

// checkSame decodes data into a new value of each kind with encoding/json
// and with the generated decoder, and fails unless both reject it or both
// give the same value.
func checkSame(t *testing.T, data []byte, kinds []func() jsonwire.Decodable) {
	for _, kind := range kinds {
		want, got := kind(), kind()
		if foldedKey(data, want) {
			continue
		}
		errWant := json.Unmarshal(data, want)
		errGot := jsonwire.Decode(data, got, &wire.Decoder{})
		if (errWant == nil) != (errGot == nil) {
			t.Fatalf("%T from %.200q: encoding/json says %v, jsonwire says %v", want, data, errWant, errGot)
		}
		if errWant != nil {
			continue
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%T from %.200q: decoded values differ:\n%s", want, data, cmp.Diff(fmt.Sprintf("%+v", want), fmt.Sprintf("%+v", got)))
		}
	}
}

// TestJSONDecodeMatchesEncodingJSON checks every fixture and bad input.
func TestJSONDecodeMatchesEncodingJSON(t *testing.T) {
	for i, data := range jsonInputs(t) {
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkSame(t, data, jsonKinds) })
	}
}

// FuzzJSONDecode looks for input on which the generated decoders and
// encoding/json disagree, over a few kinds that between them hold every
// kind of field (maps, slices, pointers, embedded structs, []byte, Quantity,
// IntOrString, Time, FieldsV1, RawExtension, interface{}), so that each
// execution stays cheap.
func FuzzJSONDecode(f *testing.F) {
	for _, data := range jsonInputs(f) {
		f.Add(data)
	}
	kinds := []func() jsonwire.Decodable{jsonKinds[0], jsonKinds[1], jsonKinds[2], jsonKinds[7], jsonKinds[8], jsonKinds[12]}
	f.Fuzz(func(t *testing.T, data []byte) { checkSame(t, data, kinds) })
}

// TestJSONRoundTrip decodes every JSON fixture of a known kind with the
// generated decoder and with Unstructured, encodes it again, and expects
// the server's bytes: exactly for typed values (whose fields are in the
// server's order), and after sorting keys for Unstructured (a map has no
// order), with every number as the server wrote it.
func TestJSONRoundTrip(t *testing.T) {
	for _, fx := range objectFixtures {
		body := fixtureJSON(t, fx.base)
		if body == nil {
			continue
		}
		t.Run(fx.base, func(t *testing.T) {
			var want bytes.Buffer
			if err := json.Compact(&want, body); err != nil {
				t.Fatal(err)
			}
			typed, ok := fx.new().(jsonwire.Decodable)
			if !ok {
				t.Fatalf("%T has no DecodeJSON", fx.new())
			}
			if err := jsonwire.Decode(body, typed, &wire.Decoder{ReadOnly: true}); err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(typed)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.String(), string(got)); diff != "" {
				t.Errorf("typed round trip differs (-server +kubewire):\n%s", diff)
			}

			var u unstructured.Unstructured
			if err := jsonwire.Decode(body, &u, &wire.Decoder{ReadOnly: true}); err != nil {
				t.Fatal(err)
			}
			got, err = json.Marshal(&u)
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(body))
			dec.UseNumber()
			var generic any
			if err := dec.Decode(&generic); err != nil {
				t.Fatal(err)
			}
			sorted, _ := json.Marshal(generic)
			if diff := cmp.Diff(string(sorted), string(got)); diff != "" {
				t.Errorf("Unstructured round trip differs (-server +kubewire):\n%s", diff)
			}
		})
	}
}

// fixtureJSON returns the JSON body of a fixture, or nil when it was not
// captured in JSON.
func fixtureJSON(t *testing.T, base string) []byte {
	for _, name := range []string{base + ".json", base} {
		r, err := fixture.Load(name)
		if err == nil && strings.HasPrefix(r.ContentType(), "application/json") {
			return r.Body
		}
	}
	return nil
}
