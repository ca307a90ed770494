package crgen

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/api/unstructured"
)

// TestFreezeShapes: every shape's objects, as the informer decodes them
// from JSON, come back from the dynamic cache's compact form exactly.
func TestFreezeShapes(t *testing.T) {
	for _, shape := range Shapes {
		for _, i := range []int{0, 1, 7, 4999} {
			data, err := json.Marshal(Object(shape, i))
			if err != nil {
				t.Fatal(err)
			}
			var u unstructured.Unstructured
			if err := u.UnmarshalJSON(data); err != nil {
				t.Fatalf("%s %d: %v", shape, i, err)
			}
			f, _, ok := unstructured.Freeze(&u, nil)
			if !ok {
				t.Fatalf("%s %d: Freeze refused it", shape, i)
			}
			if diff := cmp.Diff(u.Object, f.Thaw().Object); diff != "" {
				t.Fatalf("%s %d: Thaw(Freeze(x)) differs (-want +got):\n%s", shape, i, diff)
			}
			if f.Name() != u.GetName() || f.ResourceVersion() != u.GetResourceVersion() {
				t.Fatalf("%s %d: header %q %q", shape, i, f.Name(), f.ResourceVersion())
			}
			if i == 0 {
				t.Logf("%-12s JSON %6d B, frozen %6d B", shape, len(data), f.Size())
			}
		}
	}
}
