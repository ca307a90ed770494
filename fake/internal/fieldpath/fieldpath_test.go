package fieldpath

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func fieldsJSON(t *testing.T, s *Set) string {
	t.Helper()
	b, err := s.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestToSet(t *testing.T) {
	var b Builtins
	tests := []struct {
		name, apiVersion, kind, obj, want string
	}{
		{"map entries", "v1", "ConfigMap", `{"data":{"a":"1","b":"2"},"metadata":{"labels":{"x":"y"}}}`,
			`{"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{"f:x":{}}}}`},
		{"list map by key", "apps/v1", "Deployment", `{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x"}]}}}}`,
			`{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"a\"}":{".":{},"f:image":{},"f:name":{}}}}}}}`},
		{"atomic selector", "apps/v1", "Deployment", `{"spec":{"selector":{"matchLabels":{"a":"b"}}}}`,
			`{"f:spec":{"f:selector":{}}}`},
		{"set list", "v1", "ConfigMap", `{"metadata":{"finalizers":["a","b"]}}`,
			`{"f:metadata":{"f:finalizers":{"v:\"a\"":{},"v:\"b\"":{}}}}`},
		{"empty object", "v1", "ConfigMap", `{"data":{}}`, `{"f:data":{}}`},
		{"untyped", "v1", "ConfigMap", `{"extra":{"a":{"b":1}}}`, `{"f:extra":{".":{},"f:a":{".":{},"f:b":{}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := fieldsJSON(t, ToSet(decode(t, tt.obj), b.Kind(tt.apiVersion, tt.kind)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	var b Builtins
	cm := b.Kind("v1", "ConfigMap")
	c := Compare(decode(t, `{"metadata":{"creationTimestamp":null}}`),
		decode(t, `{"metadata":{"name":"a","labels":{"x":"y"}},"data":{"k":"v"}}`), cm)
	if got, want := fieldsJSON(t, c.Added), `{"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:x":{}},"f:name":{}}}`; got != want {
		t.Errorf("added %s, want %s", got, want)
	}
	if got, want := fieldsJSON(t, c.Removed), `{"f:metadata":{"f:creationTimestamp":{}}}`; got != want {
		t.Errorf("removed %s, want %s", got, want)
	}
	c = Compare(decode(t, `{"data":{"k":"v","gone":"x"}}`), decode(t, `{"data":{"k":"w"}}`), cm)
	if got, want := fieldsJSON(t, c.Modified), `{"f:data":{"f:k":{}}}`; got != want {
		t.Errorf("modified %s, want %s", got, want)
	}
	if got, want := fieldsJSON(t, c.Removed), `{"f:data":{"f:gone":{}}}`; got != want {
		t.Errorf("removed %s, want %s", got, want)
	}
}

func TestFieldsV1RoundTrip(t *testing.T) {
	in := `{"f:metadata":{"f:labels":{".":{},"f:a":{}}},"f:spec":{"f:ports":{"k:{\"port\":80,\"protocol\":\"TCP\"}":{".":{},"f:port":{}}},"f:tags":{"v:\"x\"":{}}}}`
	s := NewSet()
	if err := s.UnmarshalJSON([]byte(in)); err != nil {
		t.Fatal(err)
	}
	if got := fieldsJSON(t, s); got != in {
		t.Errorf("round trip\n got %s\nwant %s", got, in)
	}
	if !s.Has(Path{Field("spec"), Field("ports"), Key(map[string]any{"port": int64(80), "protocol": "TCP"})}) {
		t.Error("the list item is not a member")
	}
	if got, want := s.Paths()[1].String(), ".metadata.labels.a"; got != want {
		t.Errorf("path %q, want %q", got, want)
	}
}

func TestMergeKeyedList(t *testing.T) {
	var b Builtins
	d := b.Kind("apps/v1", "Deployment")
	live := decode(t, `{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"1"},{"name":"b","image":"1"}]}}}}`)
	applied := decode(t, `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"2"},{"name":"a","image":"2"}]}}}}`)
	got := Merge(live, applied, d)
	want := decode(t, `{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"2"},{"name":"a","image":"2"},{"name":"b","image":"1"}]}}}}`)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestRemoveItems(t *testing.T) {
	var b Builtins
	cm := b.Kind("v1", "ConfigMap")
	obj := decode(t, `{"data":{"a":"1","b":"2"},"metadata":{"name":"x"}}`)
	got := RemoveItems(obj, NewSet(Path{Field("data"), Field("a")}), cm)
	if diff := cmp.Diff(decode(t, `{"data":{"b":"2"},"metadata":{"name":"x"}}`), got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	got = RemoveItems(obj, NewSet(Path{Field("data"), Field("a")}, Path{Field("data"), Field("b")}), cm)
	if diff := cmp.Diff(map[string]any{"data": nil, "metadata": map[string]any{"name": "x"}}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestPatchMeta(t *testing.T) {
	var b Builtins
	tests := []struct {
		path               []string
		strategy, mergeKey string
	}{
		{[]string{"spec", "template", "spec", "containers"}, "merge", "name"},
		{[]string{"spec", "template", "spec", "containers", "env"}, "merge", "name"},
		{[]string{"spec", "template", "spec", "volumes"}, "merge,retainKeys", "name"},
		{[]string{"metadata", "finalizers"}, "merge", ""},
		{[]string{"metadata", "labels", "app"}, "", ""},
		{[]string{"spec", "template", "spec", "containers", "args"}, "", ""},
		{[]string{"spec", "strategy"}, "retainKeys", ""},
		{[]string{"spec", "bogus"}, "", ""},
	}
	for _, tt := range tests {
		m := b.PatchMeta("apps/v1", "Deployment")
		var strategy, key string
		for _, f := range tt.path {
			m, strategy, key = m.Field(f)
		}
		if strategy != tt.strategy || key != tt.mergeKey {
			t.Errorf("%v: strategy %q key %q, want %q %q", tt.path, strategy, key, tt.strategy, tt.mergeKey)
		}
	}
}
