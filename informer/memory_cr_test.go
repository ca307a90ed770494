package informer_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/kubewire/kubewire/api/jsonwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// Custom resources arrive as JSON only. Their caches must share what
// repeats across objects as the protobuf caches do: strings, label maps,
// and for Unstructured every repeated object or array (conditions,
// ports); and reading a cached Unstructured must not allocate.

var gizmoKind = registry.Kind{Group: "example.com", Version: "v1", Kind: "Gizmo", ListKind: "GizmoList",
	Resource: "gizmos", SingularResource: "gizmo", Namespaced: true}

// gizmo is a custom resource type as a user writes it, with the decoder
// internal/codegen/jsoncodec emits for it (kubewire-gen's output).
type gizmo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              gizmoSpec `json:"spec,omitempty"`
}

type gizmoSpec struct {
	Color string `json:"color,omitempty"`
	Size  int64  `json:"size,omitempty"`
}

func (*gizmo) KindInfo() registry.Kind { return gizmoKind }

func (m *gizmo) DecodeJSON(d *jsonwire.Decoder) error {
	if !d.OpenObject("gizmo") {
		return d.Err()
	}
	for i := 0; d.NextField(i); i++ {
		switch string(d.Key()) {
		case "apiVersion":
			jsonwire.String(d, &m.APIVersion)
		case "kind":
			jsonwire.String(d, &m.Kind)
		case "metadata":
			m.ObjectMeta.DecodeJSON(d)
		case "spec":
			m.Spec.DecodeJSON(d)
		default:
			d.Skip()
		}
	}
	return d.Err()
}

func (m *gizmoSpec) DecodeJSON(d *jsonwire.Decoder) error {
	if !d.OpenObject("gizmoSpec") {
		return d.Err()
	}
	for i := 0; d.NextField(i); i++ {
		switch string(d.Key()) {
		case "color":
			jsonwire.String(d, &m.Color)
		case "size":
			jsonwire.Int(d, &m.Size)
		default:
			d.Skip()
		}
	}
	return d.Err()
}

const gizmos = 300

func gizmoServer(t *testing.T) *client.Client {
	t.Helper()
	s, c := newServer(t, 0, fake.Options{Namespaces: []string{"default"}})
	if err := s.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Gizmo", Resource: "gizmos", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	for i := range gizmos {
		obj := map[string]any{
			"apiVersion": "example.com/v1", "kind": "Gizmo",
			"metadata": map[string]any{"name": fmt.Sprintf("g-%04d", i), "namespace": "default",
				"labels": map[string]any{"app": "shop", "tier": colors[i%len(colors)]}},
			"spec": map[string]any{"color": colors[i%len(colors)], "size": int64(i % 4),
				"ports": []any{map[string]any{"name": "http", "port": int64(8080)}}},
			"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True", "reason": "Reconciled"}}},
		}
		if err := s.Add(&unstructured.Unstructured{Object: obj}); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func syncInformer[T client.Object](t *testing.T, inf *informer.Informer[T]) {
	t.Helper()
	run(t, inf)
	if err := inf.WaitForSync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := inf.Store().Len(); n != gizmos {
		t.Fatalf("cache holds %d objects, want %d", n, gizmos)
	}
}

func mapPointer(m any) uintptr { return reflect.ValueOf(m).Pointer() }

func TestDynamicCRCacheShares(t *testing.T) {
	for _, mode := range []struct {
		name string
		list bool
	}{{"watch-list", false}, {"list", true}} {
		t.Run(mode.name, func(t *testing.T) {
			c := gizmoServer(t)
			inf := newInformer(t, client.Dynamic(c, client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gizmos"}),
				informer.Options[*unstructured.Unstructured]{Reflector: reflector.Options{DisableWatchList: mode.list}, KeepDecoded: true})
			syncInformer(t, inf)
			// g-0003, g-0015, g-0027 have equal labels, spec and status: a
			// value is shared from its second sighting on.
			a, _ := inf.Store().Get("default", "g-0015")
			b, _ := inf.Store().Get("default", "g-0027")
			for _, path := range [][]string{{"metadata", "labels"}, {"spec"}, {"status", "conditions"}, {"spec", "ports"}} {
				va, _, _ := unstructured.NestedFieldNoCopy(a.Object, path...)
				vb, _, _ := unstructured.NestedFieldNoCopy(b.Object, path...)
				if va == nil || mapPointer(va) != mapPointer(vb) {
					t.Errorf("%v of two objects with equal content is not shared", path)
				}
			}
			if mapPointer(a.Object) == mapPointer(b.Object) {
				t.Error("two objects share their top-level map")
			}
			if a.GetName() != "g-0015" || b.GetName() != "g-0027" {
				t.Errorf("names %q, %q", a.GetName(), b.GetName())
			}
			// Reads from the cache allocate nothing.
			allocs := testing.AllocsPerRun(100, func() {
				s, _, _ := unstructured.NestedString(a.Object, "spec", "color")
				n, _, _ := unstructured.NestedInt64(a.Object, "spec", "size")
				_, _ = s, n
				_ = a.GetNamespace()
				_ = a.GetResourceVersion()
			})
			if allocs != 0 {
				t.Errorf("Nested* string and int64 reads on a cached object allocate %.1f times, want 0", allocs)
			}
		})
	}
}

func TestTypedCRCacheShares(t *testing.T) {
	c := gizmoServer(t)
	inf := newInformer(t, client.For[*gizmo](c), informer.Options[*gizmo]{})
	syncInformer(t, inf)
	a, _ := inf.Store().Get("default", "g-0015")
	b, _ := inf.Store().Get("default", "g-0027")
	if a.Spec.Color != "red" || a.Spec.Size != 3 || a.Labels["tier"] != "red" {
		t.Fatalf("decoded %+v", a)
	}
	if mapPointer(a.Labels) != mapPointer(b.Labels) {
		t.Error("equal label maps of two cached objects are not shared")
	}
	if reflect.ValueOf(a.Spec.Color).Pointer() != reflect.ValueOf(b.Spec.Color).Pointer() {
		t.Error("equal strings of two cached objects are not shared")
	}
}

// BenchmarkNestedReadFromCache shows that reading a cached Unstructured
// allocates nothing for strings and int64s.
func BenchmarkNestedReadFromCache(b *testing.B) {
	u := new(unstructured.Unstructured)
	if err := u.UnmarshalJSON([]byte(`{"metadata":{"name":"a","namespace":"ns"},"spec":{"color":"red","size":3,"ports":[{"port":80}]}}`)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, _, _ := unstructured.NestedString(u.Object, "spec", "color")
		n, _, _ := unstructured.NestedInt64(u.Object, "spec", "size")
		if s != "red" || n != 3 {
			b.Fatal(s, n)
		}
	}
}
