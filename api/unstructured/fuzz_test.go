package unstructured

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/wire"
)

func FuzzUnstructured(f *testing.F) {
	for _, pattern := range []string{"objects/*.json.body", "lists/*.json.body", "objects/widget-w1-fallback.body"} {
		names, _ := filepath.Glob(filepath.Join(fixtures, pattern))
		for _, n := range names {
			rel, _ := filepath.Rel(fixtures, n)
			f.Add(readFixture(f, rel))
		}
	}
	for _, s := range []string{`{"n":9223372036854775808,"f":1.0,"z":-0,"e":1e400}`, `{"a":[{"b":null}],"c":"\u00e9"}`, `null`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var u Unstructured
		err := json.Unmarshal(data, &u)
		var ref any
		refErr := json.Unmarshal(data, &ref)
		if err != nil {
			if refErr == nil && !errors.Is(err, wire.ErrMalformed) {
				t.Fatalf("error %v does not match wire.ErrMalformed", err)
			}
			return
		}
		if refErr != nil {
			t.Fatalf("accepted what encoding/json rejects: %v", refErr)
		}
		// Encoding is stable after one decode: floats that hold integers
		// turn into int64 the first time, then stay.
		first, err := json.Marshal(&u)
		if err != nil {
			t.Fatal(err)
		}
		var u2 Unstructured
		if err := json.Unmarshal(first, &u2); err != nil {
			t.Fatalf("own output does not decode: %v", err)
		}
		second, err := json.Marshal(&u2)
		if err != nil {
			t.Fatal(err)
		}
		if string(first) != string(second) {
			t.Fatalf("encoding not stable:\n%s\n%s", first, second)
		}
		// A deep copy is equal and independent.
		c := u.DeepCopy()
		if diff := cmp.Diff(u.Object, c.Object); diff != "" {
			t.Fatalf("DeepCopy differs:\n%s", diff)
		}
		c.SetName("changed-by-fuzz")
		c.SetLabels(map[string]string{"x": "y"})
		if u.GetName() == "changed-by-fuzz" {
			t.Fatal("DeepCopy shares metadata")
		}
		// Accessors never panic, whatever the shapes.
		u.GroupVersionKind()
		u.GetLabels()
		u.GetAnnotations()
		u.GetOwnerReferences()
		u.GetFinalizers()
		u.GetGeneration()
		NestedSlice(u.Object, "items")
		NestedMap(u.Object, "metadata")
		NestedInt64(u.Object, "spec", "size")
		var l UnstructuredList
		if err := json.Unmarshal(data, &l); err == nil {
			if _, err := json.Marshal(&l); err != nil {
				t.Fatal(err)
			}
			l.DeepCopy()
		}
	})
}
