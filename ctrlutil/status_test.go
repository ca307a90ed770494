package ctrlutil_test

import (
	"errors"
	"testing"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/fake"
)

// gadget is a kind whose definition has no status subresource: its
// status is written with the object, as any other field.
type gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Size int `json:"size"`
	} `json:"spec"`
	Status struct {
		Seen int `json:"seen,omitempty"`
	} `json:"status,omitempty"`
}

func (*gadget) KindInfo() registry.Kind {
	return registry.Kind{Group: "example.com", Version: "v1", Kind: "Gadget", ListKind: "GadgetList", Resource: "gadgets", Namespaced: true, Subresources: []string{}}
}

// sprocket is a kind written by hand as a user may: its KindInfo leaves
// Subresources out, which says nothing of the status; its definition
// has the status subresource.
type sprocket gadget

func (*sprocket) KindInfo() registry.Kind {
	return registry.Kind{Group: "example.com", Version: "v1", Kind: "Sprocket", ListKind: "SprocketList", Resource: "sprockets", Namespaced: true}
}

func (s *sprocket) DeepCopy() *sprocket {
	c := *s
	c.ObjectMeta = *s.ObjectMeta.DeepCopy()
	return &c
}

// A KindInfo without Subresources does not make Patch send the status
// with the object, which a kind with the status subresource ignores: it
// goes to /status and is written.
func TestPatchStatusOfAKindWithUnknownSubresources(t *testing.T) {
	srv, c := newClient(t)
	ctx := t.Context()
	if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Sprocket", Resource: "sprockets", Namespaced: true, Status: true}); err != nil {
		t.Fatal(err)
	}
	typed := client.For[*sprocket](c)
	sp, err := typed.Create(ctx, &sprocket{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "s"}}, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, op, err := ctrlutil.Patch(ctx, typed, sp, func(s *sprocket) error {
		s.Spec.Size, s.Status.Seen = 5, 7
		return nil
	})
	if err != nil || op != ctrlutil.UpdatedWithStatus {
		t.Fatalf("Patch: %v, %v; want %v", op, err, ctrlutil.UpdatedWithStatus)
	}
	stored, err := typed.Namespace("default").Get(ctx, "s", client.GetOptions{})
	if err != nil || stored.Spec.Size != 5 || stored.Status.Seen != 7 {
		t.Fatalf("stored %+v %+v, %v; want size 5, seen 7", stored.Spec, stored.Status, err)
	}
}

func (g *gadget) DeepCopy() *gadget {
	c := *g
	c.ObjectMeta = *g.ObjectMeta.DeepCopy()
	return &c
}

// Patch writes the status of a kind without a status subresource with
// the object, typed (its KindInfo says so) or dynamic (the /status path
// answers 404); before, both failed with a 404 for an object that
// exists.
func TestPatchStatusWithoutSubresource(t *testing.T) {
	srv, c := newClient(t)
	ctx := t.Context()
	if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Gadget", Resource: "gadgets", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	typed := client.For[*gadget](c)
	g := &gadget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "g"}}
	g.Spec.Size = 1
	g, err := typed.Create(ctx, g, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		size, seen int
		want       ctrlutil.Operation
	}{{1, 1, ctrlutil.StatusUpdated}, {2, 2, ctrlutil.UpdatedWithStatus}} {
		before := srv.CurrentResourceVersion()
		got, op, err := ctrlutil.Patch(ctx, typed, g, func(g *gadget) error {
			g.Spec.Size, g.Status.Seen = step.size, step.seen
			return nil
		})
		if err != nil || op != step.want {
			t.Fatalf("typed Patch to size %d, seen %d: %v, %v; want %v", step.size, step.seen, op, err, step.want)
		}
		if got.Spec.Size != step.size || got.Status.Seen != step.seen {
			t.Errorf("typed Patch answered size %d, seen %d; want %d, %d", got.Spec.Size, got.Status.Seen, step.size, step.seen)
		}
		if after := srv.CurrentResourceVersion(); after == before {
			t.Error("nothing was written")
		}
		g = got
	}
	stored, err := typed.Namespace("default").Get(ctx, "g", client.GetOptions{})
	if err != nil || stored.Status.Seen != 2 || stored.Spec.Size != 2 {
		t.Fatalf("stored %+v %+v, %v", stored.Spec, stored.Status, err)
	}

	dynamic := client.Dynamic(c, client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"})
	u, err := dynamic.Namespace("default").Get(ctx, "g", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, op, err := ctrlutil.Patch(ctx, dynamic, u, func(u *unstructured.Unstructured) error {
		u.Object["status"] = map[string]any{"seen": int64(3)}
		return nil
	})
	if err != nil || op != ctrlutil.StatusUpdated {
		t.Fatalf("dynamic Patch: %v, %v", op, err)
	}
	if st, _ := got.Object["status"].(map[string]any); st["seen"] != int64(3) && st["seen"] != float64(3) {
		t.Errorf("dynamic Patch answered status %v", got.Object["status"])
	}
	// A deleted object is still not found.
	if err := dynamic.Namespace("default").Delete(ctx, "g", client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ctrlutil.Patch(ctx, dynamic, got, func(u *unstructured.Unstructured) error {
		u.Object["status"] = map[string]any{"seen": int64(4)}
		return nil
	}); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("Patch of a deleted object: %v, want ErrNotFound", err)
	}
}
