package schema

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

// gadget is the schema of the e2e fidelity check's Gadget resource; the
// expected messages below are kube-apiserver v1.36's answers to the same
// objects.
const gadget = `{"type":"object","properties":{
"spec":{"type":"object","required":["size"],"properties":{
"size":{"type":"integer","minimum":1,"maximum":10,"default":3},
"replicas":{"type":"integer","minimum":0},
"color":{"type":"string","enum":["red","blue"]},
"name":{"type":"string","pattern":"^[a-z]+$","maxLength":8,"minLength":2},
"ratio":{"type":"number","exclusiveMaximum":true,"maximum":1,"multipleOf":0.25},
"email":{"type":"string","format":"email"},
"when":{"type":"string","format":"date-time"},
"ports":{"type":"array","maxItems":3,"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port"],"items":{"type":"object","required":["port"],"properties":{"port":{"type":"integer"},"proto":{"type":"string","default":"TCP"}}}},
"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
"labels":{"type":"object","additionalProperties":{"type":"string"},"maxProperties":2},
"opt":{"type":"string","nullable":true},
"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
"port":{"x-kubernetes-int-or-string":true},
"nested":{"type":"object","default":{},"properties":{"level":{"type":"string","default":"low"}}}
},"x-kubernetes-validations":[{"rule":"self.size <= 5 || has(self.color)","message":"big gadgets need a color"}]},
"status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}`

func gadgetSchema(t *testing.T) *Schema {
	t.Helper()
	var props apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal([]byte(gadget), &props); err != nil {
		t.Fatal(err)
	}
	s, err := New(&props)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func object(t *testing.T, s string) map[string]any {
	t.Helper()
	v, err := decodeJSON([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func TestValidate(t *testing.T) {
	s := gadgetSchema(t)
	tests := []struct {
		name, spec string
		want       []string
	}{
		{"valid", `{"size":2}`, nil},
		{"wrong type", `{"size":"big"}`, []string{`spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`}},
		{"enum", `{"size":2,"color":"green"}`, []string{`spec.color: Unsupported value: "green": supported values: "red", "blue"`}},
		{"maximum", `{"size":11}`, []string{`spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10`}},
		{"minimum", `{"size":0}`, []string{`spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1`}},
		{"pattern", `{"size":2,"name":"ABC"}`, []string{`spec.name: Invalid value: "ABC": spec.name in body should match '^[a-z]+$'`}},
		{"maxLength wins over pattern", `{"size":2,"name":"ABCDEFGHIJ"}`, []string{`spec.name: Too long: may not be more than 8 bytes`}},
		{"minLength", `{"size":2,"name":"a"}`, []string{`spec.name: Invalid value: "a": spec.name in body should be at least 2 chars long`}},
		{"exclusiveMaximum of an integer", `{"size":2,"ratio":1}`, []string{
			`spec.ratio: Invalid value: 0: factor MultipleOf declared for spec.ratio must be positive: 0`,
			`spec.ratio: Invalid value: 1: spec.ratio in body should be less than 1`}},
		{"multipleOf", `{"size":2,"ratio":0.3}`, []string{`spec.ratio: Invalid value: 0.3: spec.ratio in body should be a multiple of 0.25`}},
		{"format email", `{"size":2,"email":"not-an-email"}`, []string{`spec.email: Invalid value: "not-an-email": spec.email in body must be of type email: "not-an-email"`}},
		{"format date-time", `{"size":2,"when":"yesterday"}`, []string{`spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"`}},
		{"valid formats", `{"size":2,"email":"a@example.com","when":"2024-01-02T03:04:05Z"}`, nil},
		{"maxItems", `{"size":2,"ports":[{"port":1},{"port":2},{"port":3},{"port":4}]}`, []string{`spec.ports: Too many: 4: must have at most 3 items`}},
		{"maxProperties", `{"size":2,"labels":{"a":"1","b":"2","c":"3"}}`, []string{`spec.labels: Too many: 3: must have at most 2 items`}},
		{"int-or-string", `{"size":2,"port":"http"}`, nil},
		{"int-or-string wrong type", `{"size":2,"port":true}`, []string{`spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"`}},
		{"required in a list item", `{"size":2,"ports":[{"proto":"x"}]}`, []string{`spec.ports[0].port: Required value`}},
		{"required", `{}`, []string{`spec.size: Required value`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range s.Validate(object(t, `{"spec":`+tt.spec+`}`)) {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestValidateListTypes(t *testing.T) {
	s := gadgetSchema(t)
	var got []string
	for _, e := range s.ValidateListTypes(object(t, `{"spec":{"tags":["a","a"],"ports":[{"port":1},{"port":1}]}}`)) {
		got = append(got, e.Error())
	}
	want := []string{`spec.ports[1]: Duplicate value: {"port":1}`, `spec.tags[1]: Duplicate value: "a"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestPruneAndDefault(t *testing.T) {
	s := gadgetSchema(t)
	obj := object(t, `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"g","bogus":1},
		"spec":{"size":2,"bogus":1,"ports":[{"port":80,"extra":true}],"free":{"any":{"thing":1}},"color":null,"opt":null},"extra":{"a":1}}`)
	unknown := s.Prune(obj)
	// the root metadata's first, as kube-apiserver reads it before it
	// prunes the rest
	if diff := cmp.Diff([]string{"metadata.bogus", "extra", "spec.bogus", "spec.ports[0].extra"}, unknown); diff != "" {
		t.Errorf("pruned (-want +got)\n%s", diff)
	}
	s.Default(obj)
	want := object(t, `{"apiVersion":"fid.example.com/v1","kind":"Gadget","metadata":{"name":"g"},
		"spec":{"size":2,"ports":[{"port":80,"proto":"TCP"}],"free":{"any":{"thing":1}},"opt":null,"nested":{"level":"low"}}}`)
	if diff := cmp.Diff(want, obj); diff != "" {
		t.Errorf("defaulted (-want +got)\n%s", diff)
	}
}

func TestFieldType(t *testing.T) {
	var b fieldpath.Builtins
	ft := gadgetSchema(t).FieldType(b.ObjectMeta())
	set := fieldpath.ToSet(object(t, `{"metadata":{"labels":{"a":"b"}},"spec":{"size":2,"ports":[{"port":80,"proto":"TCP"}],"tags":["x"],"free":{"a":{"b":1}}}}`), ft)
	got, _ := set.MarshalJSON()
	want := `{"f:metadata":{"f:labels":{"f:a":{}}},"f:spec":{"f:free":{"f:a":{".":{},"f:b":{}}},"f:ports":{"k:{\"port\":80}":{".":{},"f:port":{},"f:proto":{}}},"f:size":{},"f:tags":{"v:\"x\"":{}}}}`
	if string(got) != want {
		t.Errorf("fields\n got %s\nwant %s", got, want)
	}
}

func TestFieldErrorBody(t *testing.T) {
	tests := []struct {
		err  FieldError
		want string
	}{
		{RulesNotChecked, "<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"},
		{FieldError{Type: Invalid, Field: "spec", BadValue: Omit, Detail: "big gadgets need a color"}, "spec: Invalid value: big gadgets need a color"},
		{FieldError{Type: Required, Field: "spec.x"}, "spec.x: Required value"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// Embedded resources must say what they are, as kube-apiserver checks.
func TestValidateEmbedded(t *testing.T) {
	s, err := New(&apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"thing": {Type: "object", XEmbeddedResource: true, XPreserveUnknownFields: ptrTo(true)},
			"things": {Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{
				Type: "object", XEmbeddedResource: true, XPreserveUnknownFields: ptrTo(true)}}},
		}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{"spec": map[string]any{
		"thing":  map[string]any{"apiVersion": "v1"},
		"things": []any{map[string]any{"apiVersion": "", "kind": "Not_A_Label"}, map[string]any{"apiVersion": "v1", "kind": "Pod"}},
	}}
	var got []string
	for _, e := range s.ValidateEmbedded(obj) {
		got = append(got, e.Error())
	}
	want := []string{
		"spec.thing.kind: Required value",
		`spec.things[0].apiVersion: Invalid value: "": must not be empty`,
	}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || !strings.Contains(got[2], "spec.things[0].kind: Invalid value: \"Not_A_Label\": may have mixed case") {
		t.Errorf("errors:\n%s", strings.Join(got, "\n"))
	}
}

func ptrTo[T any](v T) *T { return &v }

// Pruned fields are named in kube-apiserver's order: the root metadata's,
// then the others sorted, then embedded resources' metadata sorted (it
// reads the metadata, prunes, then coerces embedded metadata). Found by
// TestGeneratedSequences seed 6051: the fake sorted them all together.
func TestPruneOrder(t *testing.T) {
	s, err := New(&apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
		"spec": {Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"template": {Type: "object", XEmbeddedResource: true, XPreserveUnknownFields: ptrTo(true)},
		}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{
		"metadata": map[string]any{"name": "s", "zz": 1},
		"aa":       1,
		"spec": map[string]any{
			"template":  map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "t", "bogus": 1}},
			"unknownXY": "x",
		},
	}
	want := []string{"metadata.zz", "aa", "spec.unknownXY", "spec.template.metadata.bogus"}
	if got := s.Prune(obj); !slices.Equal(got, want) {
		t.Errorf("pruned %q, want %q", got, want)
	}
}
