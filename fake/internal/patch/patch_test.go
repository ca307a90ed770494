package patch

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	policyv1 "github.com/kubewire/kubewire/api/policy/v1"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"

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
		// kube-apiserver's JSON patch (evanphx/json-patch v4) replaces
		// a missing key of an existing object as add does.
		{`{"a":{"x":1}}`, `[{"op":"replace","path":"/a/y","value":2}]`, `{"a":{"x":1,"y":2}}`},
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
	for _, bad := range []string{`{}`, `[{"op":"remove","path":"/nope"}]`, `[{"op":"test","path":"/a","value":2}]`, `[{"op":"replace","path":"/b/c","value":1}]`, `[{"op":"replace","path":"/a/1","value":1}]`, `[{"op":"add","path":"/a/5","value":1}]`, `[{"op":"jump","path":"/a"}]`, `[{"op":"add","path":"a","value":1}]`} {
		if _, err := JSONPatch(js(t, `{"a":[1]}`), []byte(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: error %v, want ErrInvalid", bad, err)
		}
	}
}

// schemaOf is the strategic merge patch schema of a built-in kind.
func schemaOf[T any](apiVersion, kind string) Schema {
	return Schema{Type: reflect.TypeFor[T](), Meta: (&fieldpath.Builtins{}).PatchMeta(apiVersion, kind)}
}

func obj(t *testing.T, s string) map[string]any {
	t.Helper()
	m, ok := js(t, s).(map[string]any)
	if !ok {
		t.Fatalf("%s: not an object", s)
	}
	return m
}

func TestStrategic(t *testing.T) {
	pod := schemaOf[corev1.Pod]("v1", "Pod")
	cm := schemaOf[corev1.ConfigMap]("v1", "ConfigMap")
	deploy := schemaOf[appsv1.Deployment]("apps/v1", "Deployment")
	tests := []struct {
		name       string
		s          Schema
		doc, patch string
		want       string // the result, or the error
	}{
		{"containers merge by name", pod,
			`{"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]}}`,
			`{"spec":{"containers":[{"name":"b","image":"b:2"},{"name":"c","image":"c:1"}]}}`,
			`{"spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:2"},{"name":"c","image":"c:1"}]}}`},
		{"delete directive", pod,
			`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
			`{"spec":{"containers":[{"name":"a","$patch":"delete"}]}}`,
			`{"spec":{"containers":[{"name":"b"}]}}`},
		{"replace directive on a list", pod,
			`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
			`{"spec":{"containers":[{"$patch":"replace"},{"name":"z"}]}}`,
			`{"spec":{"containers":[{"name":"z"}]}}`},
		{"replace directive on a map", cm,
			`{"data":{"a":"1","b":"2"}}`,
			`{"data":{"$patch":"replace","c":"3"}}`,
			`{"data":{"c":"3"}}`},
		{"delete directive on a map", cm,
			`{"data":{"a":"1"},"binaryData":{"b":"Yg=="}}`,
			`{"data":{"$patch":"delete"}}`,
			`{"data":{},"binaryData":{"b":"Yg=="}}`},
		{"finalizers are a set", cm,
			`{"metadata":{"finalizers":["a","b"]}}`,
			`{"metadata":{"finalizers":["b","c"]}}`,
			`{"metadata":{"finalizers":["a","b","c"]}}`},
		{"delete from primitive list", cm,
			`{"metadata":{"finalizers":["a","b"]}}`,
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"]}}`,
			`{"metadata":{"finalizers":["b"]}}`},
		{"lists without a strategy are replaced", pod,
			`{"spec":{"containers":[{"name":"a","args":["a","b"]}]}}`,
			`{"spec":{"containers":[{"name":"a","args":["c"]}]}}`,
			`{"spec":{"containers":[{"name":"a","args":["c"]}]}}`},
		{"conditions merge by type", pod,
			`{"status":{"conditions":[{"type":"Ready","status":"False"},{"type":"Initialized","status":"True"}]}}`,
			`{"status":{"conditions":[{"type":"Ready","status":"True"}]}}`,
			`{"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"Initialized","status":"True"}]}}`},
		{"null deletes", cm, `{"data":{"a":"1","b":"2"}}`, `{"data":{"a":null}}`, `{"data":{"b":"2"}}`},
		{"set element order", pod,
			`{"spec":{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"c"},{"name":"a"},{"name":"b"}]}}`,
			`{"spec":{"containers":[{"name":"c"},{"name":"a"},{"name":"b"}]}}`},
		{"set element order with a new item", pod,
			`{"spec":{"containers":[{"name":"a"},{"name":"b"}]}}`,
			`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"n"},{"name":"a"}],"containers":[{"name":"n","image":"n"}]}}`,
			`{"spec":{"containers":[{"name":"b"},{"name":"n","image":"n"},{"name":"a"}]}}`},
		{"retain keys", deploy,
			`{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}}`,
			`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
			`{"spec":{"strategy":{"type":"Recreate"}}}`},
		{"retain keys the patch breaks", deploy,
			`{"spec":{"strategy":{"type":"RollingUpdate"}}}`,
			`{"spec":{"strategy":{"$retainKeys":["type"],"rollingUpdate":{"maxSurge":1}}}}`,
			`error: invalid patch format of retainKeys`},
		{"unknown patch type", cm, `{"data":{"a":"1"}}`, `{"data":{"$patch":"bogus"}}`,
			`error: unknown patch type: bogus in map: map[$patch:bogus]`},
		{"merge directive in a list", pod, `{"spec":{"containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"name":"a","$patch":"merge"}]}}`,
			`error: merging lists cannot yet be specified in the patch`},
		{"item without its merge key", pod, `{"spec":{"containers":[{"name":"a"}]}}`, `{"spec":{"containers":[{"image":"x"}]}}`,
			`error: map: map[image:x] does not contain declared merge key: name`},
		{"delete from a list that is not one", cm, `{"metadata":{}}`, `{"metadata":{"$deleteFromPrimitiveListfinalizers":["a"]}}`,
			`error: invalid patch format of primitive list`},
		{"replace strategy", schemaOf[policyv1.PodDisruptionBudget]("policy/v1", "PodDisruptionBudget"),
			`{"spec":{"selector":{"matchLabels":{"a":"1"}}}}`,
			`{"spec":{"selector":{"matchLabels":{"b":"2"}}}}`,
			`{"spec":{"selector":{"matchLabels":{"b":"2"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Strategic(obj(t, tt.doc), obj(t, tt.patch), tt.s)
			if want, ok := strings.CutPrefix(tt.want, "error: "); ok {
				if err == nil || err.Error() != want {
					t.Fatalf("error %v, want %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(js(t, tt.want), any(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
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
		}
		dm, _ := d.(map[string]any)
		var pm map[string]any
		if json.Unmarshal(ops, &pm) == nil {
			_, _ = Strategic(dm, pm, schemaOf[corev1.Pod]("v1", "Pod"))
		}
	})
}
