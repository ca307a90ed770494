package informer_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// A dynamic informer's cache is compact by default: every read builds a
// new object, the caller's to modify, and what the informer read from
// the server comes back unchanged.

var gizmoGVR = client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gizmos"}

func TestDynamicReadsAreCallersOwn(t *testing.T) {
	c := gizmoServer(t)
	inf := newInformer(t, client.Dynamic(c, gizmoGVR).Namespace("default"), informer.Options[*unstructured.Unstructured]{
		Indexes: map[string]informer.IndexFunc[*unstructured.Unstructured]{"tier": func(o *unstructured.Unstructured) []string {
			return []string{o.GetLabels()["tier"]}
		}},
	})
	syncInformer(t, inf)
	want, err := client.Dynamic(c, gizmoGVR).Namespace("default").Get(t.Context(), "g-0015", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := inf.Store()
	spoil := func(o *unstructured.Unstructured) {
		o.SetLabels(map[string]string{"tier": "spoiled"})
		o.Object["spec"].(map[string]any)["color"] = "spoiled"
		o.Object["spec"].(map[string]any)["ports"].([]any)[0] = "spoiled"
	}
	reads := map[string]func() []*unstructured.Unstructured{
		"Get": func() []*unstructured.Unstructured {
			o, _ := s.Get("default", "g-0015")
			return []*unstructured.Unstructured{o}
		},
		"List": func() []*unstructured.Unstructured { return s.List() },
		"ByIndex": func() []*unstructured.Unstructured {
			o, _ := s.ByIndex("tier", want.GetLabels()["tier"])
			return o
		},
		"namespace": func() []*unstructured.Unstructured { o, _ := s.ByIndex(informer.NamespaceIndex, "default"); return o },
		"Snapshot":  func() []*unstructured.Unstructured { snap, _ := s.Snapshot(); return snap.Items },
		"Lister": func() []*unstructured.Unstructured {
			o, _ := inf.Lister().Namespace("default").List(client.MatchLabels(map[string]string{"tier": want.GetLabels()["tier"]}))
			return o
		},
	}
	for name, read := range reads {
		got := read()
		if len(got) == 0 {
			t.Fatalf("%s read nothing", name)
		}
		for _, o := range got {
			spoil(o)
		}
	}
	got, ok := s.Get("default", "g-0015")
	if !ok {
		t.Fatal("g-0015 not cached")
	}
	if diff := cmp.Diff(want.Object, got.Object); diff != "" {
		t.Errorf("after every read's object was modified, Get differs from the server (-want +got):\n%s", diff)
	}
	a, _ := s.Get("default", "g-0015")
	if a == got {
		t.Error("two Gets returned the same object")
	}
	if n, _ := s.IndexCount("tier", "spoiled"); n != 0 {
		t.Errorf("%d objects indexed under a value only a caller's copy had", n)
	}
	if len(s.List()) != gizmos {
		t.Errorf("List: %d objects, want %d", len(s.List()), gizmos)
	}
}

// KeepDecoded keeps today's shared objects: two reads give the same one.
func TestDynamicKeepDecodedShares(t *testing.T) {
	c := gizmoServer(t)
	inf := newInformer(t, client.Dynamic(c, gizmoGVR), informer.Options[*unstructured.Unstructured]{KeepDecoded: true})
	syncInformer(t, inf)
	a, _ := inf.Store().Get("default", "g-0001")
	b, _ := inf.Store().Get("default", "g-0001")
	if a != b {
		t.Error("KeepDecoded: two Gets returned different objects")
	}
}

func TestKeepDecodedOnlyForDynamic(t *testing.T) {
	_, c := newServer(t, 0, fake.Options{})
	_, err := informer.New(client.For[*corev1.ConfigMap](c), informer.Options[*corev1.ConfigMap]{KeepDecoded: true})
	if !errors.Is(err, client.ErrInvalidOptions) {
		t.Fatalf("KeepDecoded on a typed informer: %v, want ErrInvalidOptions", err)
	}
}

// A compact store writes, updates, deletes and re-indexes as a decoded
// one does, tells handlers the replaced object (rebuilt) on an update,
// and keeps an object holding a value no decoder produces as it is.
func TestFrozenStoreWrites(t *testing.T) {
	s := newStore[*unstructured.Unstructured](t)
	w := informer.Writer(s)
	type seen struct{ kind, key, rv, color string }
	var got []seen
	informer.OnChange(s, func(kind string, o *unstructured.Unstructured, _ bool) {
		if o == nil {
			got = append(got, seen{kind: kind})
			return
		}
		got = append(got, seen{kind, informer.Key(o), o.GetResourceVersion(), o.GetLabels()["color"]})
	})
	f := dynamicFlavour()
	w.Begin()
	w.Item(obj(f, "a", "x", "1", "color", "red"))
	odd := obj(f, "a", "odd", "1", "color", "red")
	odd.Object["spec"] = map[string]any{"hosts": []string{"h1"}} // what a Transform may store
	w.Item(odd)
	w.End("1")
	w.Update(obj(f, "a", "x", "2", "color", "blue"))
	w.Delete(obj(f, "a", "odd", "3"))
	want := []seen{
		{"add", "a/x", "1", "red"}, {"add", "a/odd", "1", "red"}, {"synced", "", "", ""},
		{"update", "a/x", "2", "blue"}, {"delete", "a/odd", "3", ""},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b seen) bool { return a == b })); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
	if keys := sortedKeys(s.IndexKeys("color", "blue")); !slices.Equal(keys, []string{"a/x"}) {
		t.Errorf("color=blue: %v", keys)
	}
	if keys := sortedKeys(s.IndexKeys("color", "red")); len(keys) != 0 {
		t.Errorf("color=red: %v", keys)
	}
	w.Begin()
	w.Item(odd)
	w.End("4")
	o, ok := s.Get("a", "odd")
	if !ok || !slices.Equal(o.Object["spec"].(map[string]any)["hosts"].([]string), []string{"h1"}) {
		t.Fatalf("an object with a []string: %v, %v", ok, o)
	}
	o.Object["spec"].(map[string]any)["hosts"].([]string)[0] = "spoiled"
	if o, _ := s.Get("a", "odd"); o.Object["spec"].(map[string]any)["hosts"].([]string)[0] != "h1" {
		t.Error("a read of a kept object shares its slices")
	}
	if keys := sortedKeys(s.ListKeys(), nil); !slices.Equal(keys, []string{"a/odd"}) {
		t.Errorf("after relist: %v", keys)
	}
}

// An update handler's old object is rebuilt from the cache; a program
// that needs none of it can still count on it being the state replaced.
func TestDynamicUpdateOldObject(t *testing.T) {
	c := gizmoServer(t)
	res := client.Dynamic(c, gizmoGVR).Namespace("default")
	inf := newInformer(t, res, informer.Options[*unstructured.Unstructured]{Reflector: reflector.Options{}})
	type pair struct{ old, new string }
	updates := make(chan pair, 1)
	inf.AddHandler(informer.HandlerFuncs[*unstructured.Unstructured]{
		Update: func(old, o *unstructured.Unstructured) {
			color, _, _ := unstructured.NestedString(old.Object, "spec", "color")
			updates <- pair{color, o.GetResourceVersion()}
		},
	}, informer.HandlerOptions{})
	syncInformer(t, inf)
	o, _ := inf.Store().Get("default", "g-0002")
	before, _, _ := unstructured.NestedString(o.Object, "spec", "color")
	_ = unstructured.SetNestedField(o.Object, "changed", "spec", "color")
	up, err := res.Update(t.Context(), o, client.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if p := <-updates; p.old != before || p.new != up.GetResourceVersion() {
		t.Errorf("update: old color %q (want %q), new rv %s (want %s)", p.old, before, p.new, up.GetResourceVersion())
	}
}

// FactoryOptions.KeepDecoded reaches the Factory's dynamic informers.
func TestFactoryKeepDecoded(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprint("KeepDecoded=", keep), func(t *testing.T) { testFactoryKeepDecoded(t, keep) })
	}
}

func testFactoryKeepDecoded(t *testing.T, keep bool) {
	c := gizmoServer(t)
	f := newFactory(t, c, informer.FactoryOptions{KeepDecoded: keep})
	inf := informer.SharedDynamic(f, gizmoGVR, informer.Scope{})
	runAll(t, f.Run)
	if err := inf.WaitForSync(t.Context()); err != nil {
		t.Fatal(err)
	}
	a, _ := inf.Store().Get("default", "g-0001")
	b, _ := inf.Store().Get("default", "g-0001")
	if shared := a == b; shared != keep {
		t.Errorf("KeepDecoded %v: two Gets return the same object: %v", keep, shared)
	}
}
