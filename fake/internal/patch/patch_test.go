package patch

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func js(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestMerge(t *testing.T) {
	tests := []struct{ doc, patch, want string }{
		{`{"a":1,"b":{"c":2,"d":3}}`, `{"b":{"c":null,"e":4}}`, `{"a":1,"b":{"d":3,"e":4}}`},
		{`{"a":[1,2]}`, `{"a":[3]}`, `{"a":[3]}`},
		{`{"a":1}`, `{"a":{"b":2}}`, `{"a":{"b":2}}`},
	}
	for _, tt := range tests {
		t.Run(tt.patch, func(t *testing.T) {
			doc := js(t, tt.doc)
			got := Merge(doc, js(t, tt.patch))
			if diff := cmp.Diff(js(t, tt.want), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(js(t, tt.doc), doc); diff != "" {
				t.Errorf("input modified:\n%s", diff)
			}
		})
	}
}

func TestJSONPatch(t *testing.T) {
	tests := []struct{ doc, ops, want string }{
		{`{"a":{"b":1}}`, `[{"op":"add","path":"/a/c","value":2}]`, `{"a":{"b":1,"c":2}}`},
		{`{"a":[1,2]}`, `[{"op":"add","path":"/a/1","value":9}]`, `{"a":[1,9,2]}`},
		{`{"a":[1,2]}`, `[{"op":"add","path":"/a/-","value":9}]`, `{"a":[1,2,9]}`},
		{`{"a":[1,2]}`, `[{"op":"remove","path":"/a/0"}]`, `{"a":[2]}`},
		{`{"a":1}`, `[{"op":"replace","path":"/a","value":2}]`, `{"a":2}`},
		{`{"a":1}`, `[{"op":"move","from":"/a","path":"/b"}]`, `{"b":1}`},
		{`{"a":{"x":1}}`, `[{"op":"copy","from":"/a","path":"/b"}]`, `{"a":{"x":1},"b":{"x":1}}`},
		{`{"a":1}`, `[{"op":"test","path":"/a","value":1},{"op":"add","path":"/b","value":2}]`, `{"a":1,"b":2}`},
		{`{"a/b":1}`, `[{"op":"remove","path":"/a~1b"}]`, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.ops, func(t *testing.T) {
			doc := js(t, tt.doc)
			got, err := JSONPatch(doc, []byte(tt.ops))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(js(t, tt.want), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(js(t, tt.doc), doc); diff != "" {
				t.Errorf("input modified:\n%s", diff)
			}
		})
	}
	for _, bad := range []string{`{}`, `[{"op":"remove","path":"/nope"}]`, `[{"op":"test","path":"/a","value":2}]`, `[{"op":"replace","path":"/b","value":1}]`, `[{"op":"add","path":"/a/5","value":1}]`, `[{"op":"jump","path":"/a"}]`, `[{"op":"add","path":"a","value":1}]`} {
		if _, err := JSONPatch(js(t, `{"a":[1]}`), []byte(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: error %v, want ErrInvalid", bad, err)
		}
	}
}

func TestStrategic(t *testing.T) {
	tests := []struct{ name, doc, patch, want string }{
		{"containers merge by name",
			`{"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]}}`,
			`{"spec":{"containers":[{"name":"b","image":"b:2"},{"name":"c","image":"c:1"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:2"},{"name":"c","image":"c:1"}]}}`},
		{"delete directive",
			`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
			`{"spec":{"containers":[{"name":"a","$patch":"delete"}]}}`,
			`{"spec":{"containers":[{"name":"b"}]}}`},
		{"replace directive on a map",
			`{"data":{"a":"1","b":"2"}}`,
			`{"data":{"$patch":"replace","c":"3"}}`,
			`{"data":{"c":"3"}}`},
		{"finalizers are a set",
			`{"metadata":{"finalizers":["a","b"]}}`,
			`{"metadata":{"finalizers":["b","c"]}}`,
			`{"metadata":{"finalizers":["a","b","c"]}}`},
		{"delete from primitive list",
			`{"metadata":{"finalizers":["a","b"]}}`,
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}`,
			`{"metadata":{"finalizers":["b"]}}`},
		{"lists without a key are replaced",
			`{"spec":{"args":["a","b"]}}`,
			`{"spec":{"args":["c"]}}`,
			`{"spec":{"args":["c"]}}`},
		{"conditions merge by type",
			`{"status":{"conditions":[{"type":"Ready","status":"False"}]}}`,
			`{"status":{"conditions":[{"type":"Ready","status":"True"}]}}`,
			`{"status":{"conditions":[{"type":"Ready","status":"True"}]}}`},
		{"null deletes", `{"a":1,"b":2}`, `{"a":null}`, `{"b":2}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Strategic(js(t, tt.doc), js(t, tt.patch), BuiltinMergeKey)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(js(t, tt.want), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := Strategic(js(t, `{}`), js(t, `{"spec":{"containers":[{"image":"x"}]}}`), BuiltinMergeKey); !errors.Is(err, ErrInvalid) {
		t.Errorf("item without merge key: %v", err)
	}
}

func FuzzJSONPatch(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":2}]}`), []byte(`[{"op":"add","path":"/a/1/c","value":3},{"op":"move","from":"/a/0","path":"/x"}]`))
	f.Fuzz(func(t *testing.T, doc, ops []byte) {
		var d any
		if json.Unmarshal(doc, &d) != nil {
			return
		}
		_, _ = JSONPatch(d, ops)
		var p any
		if json.Unmarshal(ops, &p) == nil {
			_ = Merge(d, p)
			_, _ = Strategic(d, p, BuiltinMergeKey)
		}
	})
}
