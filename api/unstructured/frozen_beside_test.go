package unstructured

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// nestedPolicy is a free-form object some levels deep, as a policy
// engine's patterns are: depth levels of fanout maps, with a list of
// small maps at each leaf.
func nestedPolicy(depth, fanout int) map[string]any {
	if depth == 0 {
		return map[string]any{"list": []any{map[string]any{"key": "app.kubernetes.io/name", "operator": "In"}, "?*"}, "n": int64(depth)}
	}
	m := make(map[string]any, fanout)
	for i := range fanout {
		m[fmt.Sprint("field", i)] = nestedPolicy(depth-1, fanout)
	}
	return m
}

// ThawBeside gives the old version back exactly, and shares with the
// new one every subtree the two have in common, wherever a change lies:
// changed, added, removed and retyped entries at several depths.
func TestThawBesideChanges(t *testing.T) {
	base := func() *Unstructured {
		return &Unstructured{Object: map[string]any{
			"metadata": map[string]any{"name": "p", "resourceVersion": "1", "labels": map[string]any{"a": "b"}},
			"spec":     nestedPolicy(3, 3),
			"list":     []any{int64(1), "two", map[string]any{"three": 3.0}},
		}}
	}
	changes := map[string]func(u *Unstructured){
		"none": func(*Unstructured) {},
		"deep value": func(u *Unstructured) {
			u.Object["spec"].(map[string]any)["field1"].(map[string]any)["field2"].(map[string]any)["n"] = int64(9)
		},
		"deep added":    func(u *Unstructured) { u.Object["spec"].(map[string]any)["field2"].(map[string]any)["new"] = "x" },
		"deep removed":  func(u *Unstructured) { delete(u.Object["spec"].(map[string]any)["field0"].(map[string]any), "field1") },
		"retyped":       func(u *Unstructured) { u.Object["spec"].(map[string]any)["field0"] = []any{"x"} },
		"label":         func(u *Unstructured) { u.SetLabels(map[string]string{"a": "c"}) },
		"list longer":   func(u *Unstructured) { u.Object["list"] = append(u.Object["list"].([]any), nil) },
		"list shorter":  func(u *Unstructured) { u.Object["list"] = u.Object["list"].([]any)[:1] },
		"list elem":     func(u *Unstructured) { u.Object["list"].([]any)[2] = map[string]any{"three": 4.0} },
		"null for key":  func(u *Unstructured) { delete(u.Object, "list"); u.Object["other"] = nil },
		"nil map":       func(u *Unstructured) { u.Object["spec"] = map[string]any(nil) },
		"object is nil": func(u *Unstructured) { u.Object = nil },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			old := base()
			f, _, ok := Freeze(old, nil)
			if !ok {
				t.Fatal("Freeze refused")
			}
			next := base()
			change(next)
			got := f.ThawBeside(next)
			if diff := cmp.Diff(old.Object, got.Object); diff != "" {
				t.Fatalf("ThawBeside differs from the old version (-want +got):\n%s", diff)
			}
			// What is equal in next is next's own; what differs is not
			// (metadata itself is always built: an update's differs).
			gotMeta, _ := got.Object["metadata"].(map[string]any)
			nextMeta, _ := next.Object["metadata"].(map[string]any)
			pairs := [][3]any{
				{"spec", got.Object["spec"], next.Object["spec"]},
				{"list", got.Object["list"], next.Object["list"]},
				{"labels", gotMeta["labels"], nextMeta["labels"]},
			}
			for _, p := range pairs {
				if p[2] == nil || mapPointerOK(p[1]) == 0 {
					continue
				}
				shared := mapPointerOK(p[1]) == mapPointerOK(p[2])
				if equal := cmp.Equal(p[1], p[2]); equal != shared {
					t.Errorf("%s: equal %v, shared %v", p[0], equal, shared)
				}
			}
		})
	}
}

func mapPointerOK(v any) uintptr {
	switch v.(type) {
	case map[string]any, []any:
		return mapPointer(v)
	}
	return 0
}

// FuzzThawBeside freezes one object and thaws it beside another: the
// result is always the first, whatever the second holds.
func FuzzThawBeside(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,{"c":"d"}],"e":null},"f":"g"}`), []byte(`{"a":{"b":[1,{"c":"x"}],"e":null},"f":"g"}`))
	f.Add([]byte(`{"a":[1,2,3]}`), []byte(`{"a":[1,2]}`))
	f.Add([]byte(`{"a":{}}`), []byte(`{"a":{"b":null}}`))
	f.Add([]byte(`{"a":{"b":null}}`), []byte(`{"a":{}}`))
	f.Add([]byte(`{"a":[null]}`), []byte(`{"a":[]}`))
	f.Fuzz(func(t *testing.T, oldJSON, nextJSON []byte) {
		var old, next Unstructured
		if json.Unmarshal(oldJSON, &old) != nil || json.Unmarshal(nextJSON, &next) != nil {
			return
		}
		fr, _, ok := Freeze(&old, nil)
		if !ok {
			t.Fatal("Freeze refused a decoded object")
		}
		if diff := cmp.Diff(old.Object, fr.ThawBeside(&next).Object); diff != "" {
			t.Fatalf("ThawBeside differs from the old version (-want +got):\n%s", diff)
		}
	})
}

// BenchmarkThawBesideNested builds the old version of a free-form object
// five levels deep whose labels and resourceVersion changed.
func BenchmarkThawBesideNested(b *testing.B) {
	old := &Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "p", "resourceVersion": "1", "labels": map[string]any{"a": "b"}},
		"spec":     nestedPolicy(5, 4),
	}}
	f, _, _ := Freeze(old, nil)
	next := old.DeepCopy()
	next.SetResourceVersion("2")
	next.SetLabels(map[string]string{"a": "c"})
	b.ReportAllocs()
	for b.Loop() {
		f.ThawBeside(next)
	}
}
