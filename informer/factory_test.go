package informer_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
)

// The factory shares one informer per type and scope, runs those made
// before and after Run, and each caches its scope and follows the
// server; a metadata informer caches metadata only.
func TestFactory(t *testing.T) {
	eachFlavour(t, testFactory, testFactory, testFactory)
}

func testFactory[T client.Object](t *testing.T, f flavour[T]) {
	synctest.Test(t, func(t *testing.T) {
		srv, c := newServer(t, 10, fake.Options{Namespaces: []string{"default", "other"}})
		if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "elsewhere", Namespace: "other"}}); err != nil {
			t.Fatal(err)
		}
		fac := newFactory(t, c, informer.FactoryOptions{DropManagedFields: true})
		all := f.shared(fac, informer.Scope{})
		if again := f.shared(fac, informer.Scope{}); again != all {
			t.Error("Shared returned a second informer for the same scope")
		}
		def := f.shared(fac, informer.Scope{Namespace: "default"})
		red := f.shared(fac, informer.Scope{LabelSelector: client.MatchLabels(map[string]string{"color": "red"})})
		if def == all || red == all || red == def {
			t.Error("different scopes share an informer")
		}
		runAll(t, fac.Run)
		later := f.shared(fac, informer.Scope{Namespace: "other"}) // made while the factory runs
		ctx := context.Background()
		if err := fac.WaitForSync(ctx); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			got  int
			want int
		}{
			{"all", all.Store().Len(), 11},
			{"default", def.Store().Len(), 10},
			{"red", red.Store().Len(), 4},
			{"other (made later)", later.Store().Len(), 1},
		} {
			if tc.got != tc.want {
				t.Errorf("%s informer holds %d objects, want %d", tc.name, tc.got, tc.want)
			}
		}
		o, ok := def.Store().Get("default", "cm-00001")
		if !ok {
			t.Fatal("cm-00001 not cached")
		}
		if o.GetLabels()["color"] != "green" || o.GetAnnotations()[valueKey] != "1" {
			t.Errorf("cm-00001 cached with labels %v and annotations %v", o.GetLabels(), o.GetAnnotations())
		}
		switch m := any(o).(type) {
		case pom: // metadata only: the server sent nothing else
			if m.Kind != "PartialObjectMetadata" || m.UnknownFields.Len() != 0 {
				t.Errorf("metadata object = %+v (unknown fields %d)", m, m.UnknownFields.Len())
			}
			if _, has := f.data(o, "i"); has {
				t.Error("metadata object carries data")
			}
		default:
			if v, _ := f.data(o, "i"); v != "1" {
				t.Errorf("cm-00001 cached with data[i] = %q, want 1", v)
			}
		}
		// The informers follow changes, the one made later too.
		res := client.For[cm](c)
		for _, ns := range []string{"default", "other"} {
			if _, err := res.Namespace(ns).Create(ctx, configMap(ns, 77), client.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		eventually(t, 5*time.Second, inSync(t, c, all.Store()))
		eventually(t, 5*time.Second, inSyncIn(t, c, "default", def.Store()))
		eventually(t, 5*time.Second, inSyncIn(t, c, "other", later.Store()))
	})
}

// One factory holds a typed, a metadata-only and a dynamic informer of
// the same collection and scope side by side: distinct informers, each
// shared, each synced.
func TestFactoryHoldsEveryFlavour(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newServer(t, 10, fake.Options{})
		fac := newFactory(t, c, informer.FactoryOptions{})
		scope := informer.Scope{Namespace: "default"}
		typed := typedFlavour().shared(fac, scope)
		meta := metadataFlavour().shared(fac, scope)
		dyn := dynamicFlavour().shared(fac, scope)
		if typedFlavour().shared(fac, scope) != typed || metadataFlavour().shared(fac, scope) != meta || dynamicFlavour().shared(fac, scope) != dyn {
			t.Error("asking again for a flavour's informer gave a new one")
		}
		runAll(t, fac.Run)
		if err := fac.WaitForSync(context.Background()); err != nil {
			t.Fatal(err)
		}
		for name, n := range map[string]int{"typed": typed.Store().Len(), "metadata": meta.Store().Len(), "dynamic": dyn.Store().Len()} {
			if n != 10 {
				t.Errorf("%s informer holds %d objects, want 10", name, n)
			}
		}
	})
}

// FactoryOptions.DropManagedFields and an informer.DropManagedFields
// Transform cache objects without managedFields, whether they came in a
// list or a watch event, and hand none to handlers; an informer without
// either keeps them (the server sends them: the check can fail).
func TestDropManagedFields(t *testing.T) {
	eachFlavour(t, testDropManagedFields, testDropManagedFields, testDropManagedFields)
}

func testDropManagedFields[T client.Object](t *testing.T, f flavour[T]) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, c := newServer(t, 0, fake.Options{})
				ctx := context.Background()
				res := client.For[cm](c).Namespace("default")
				for i := range 5 { // writes through the API record managedFields
					o, err := res.Create(ctx, configMap("default", i), client.CreateOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if len(o.ManagedFields) == 0 {
						t.Fatalf("the server recorded no managedFields for %s", o.Name)
					}
				}
				fac := newFactory(t, c, informer.FactoryOptions{Reflector: mode.opts, DropManagedFields: true})
				shared := f.shared(fac, informer.Scope{})
				dropping := newInformer(t, f.resource(c), informer.Options[T]{Reflector: mode.opts, Transform: informer.DropManagedFields[T]})
				keeping := newInformer(t, f.resource(c), informer.Options[T]{Reflector: mode.opts})
				told := map[string]*countingHandler[T]{"factory": {}, "transform": {}, "control": {}}
				shared.AddHandler(told["factory"], informer.HandlerOptions{})
				dropping.AddHandler(told["transform"], informer.HandlerOptions{})
				keeping.AddHandler(told["control"], informer.HandlerOptions{})
				runAll(t, fac.Run, dropping.Run, keeping.Run)
				for _, inf := range []*informer.Informer[T]{shared, dropping, keeping} {
					if err := inf.WaitForSync(ctx); err != nil {
						t.Fatal(err)
					}
				}
				// Watch events: two creates and an update.
				for i := 5; i < 7; i++ {
					if _, err := res.Create(ctx, configMap("default", i), client.CreateOptions{}); err != nil {
						t.Fatal(err)
					}
				}
				u, err := res.Get(ctx, "cm-00000", client.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				u = u.DeepCopy()
				setValue(u, "updated")
				if _, err := res.Update(ctx, u, client.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
				for name, inf := range map[string]*informer.Informer[T]{"factory": shared, "transform": dropping, "control": keeping} {
					eventually(t, 10*time.Second, inSync(t, c, inf.Store()))
					eventually(t, 10*time.Second, func() string {
						if n := told[name].count(); n != 8 { // 5 initial adds, 2 adds, 1 update
							return fmt.Sprintf("%s handler told %d changes, want 8", name, n)
						}
						return ""
					})
					withFields := 0
					for _, o := range inf.Store().List() {
						if len(o.GetManagedFields()) > 0 {
							withFields++
						}
					}
					wantCached, wantTold := 0, 0
					if name == "control" {
						wantCached, wantTold = 7, 8
					}
					if withFields != wantCached {
						t.Errorf("%s informer caches %d of 7 objects with managedFields, want %d", name, withFields, wantCached)
					}
					if n := told[name].withManagedFields(); n != wantTold {
						t.Errorf("%s handler told %d of 8 objects with managedFields, want %d", name, n, wantTold)
					}
				}
			})
		})
	}
}

// countingHandler counts the objects it is told in adds and updates, and
// those of them that carry managedFields.
type countingHandler[T client.Object] struct {
	mu     sync.Mutex
	told   int
	withMF int
}

func (h *countingHandler[T]) tell(o T) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.told++
	if len(o.GetManagedFields()) > 0 {
		h.withMF++
	}
}

func (h *countingHandler[T]) OnAdd(o T, _ bool) { h.tell(o) }
func (h *countingHandler[T]) OnUpdate(_, o T)   { h.tell(o) }
func (h *countingHandler[T]) OnDelete(T, bool)  {}
func (h *countingHandler[T]) count() int        { h.mu.Lock(); defer h.mu.Unlock(); return h.told }
func (h *countingHandler[T]) withManagedFields() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.withMF
}
