package informer_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
)

// gatedSource holds new watches while its gate is shut.
type gatedSource[T client.Object] struct {
	*client.Resource[T]
	mu      sync.Mutex
	open    chan struct{}
	waiting int // watches held at the gate
}

func (g *gatedSource[T]) shut() { g.mu.Lock(); g.open = make(chan struct{}); g.mu.Unlock() }
func (g *gatedSource[T]) reopen() {
	g.mu.Lock()
	close(g.open)
	g.mu.Unlock()
}

func (g *gatedSource[T]) Watch(ctx context.Context, opts client.WatchOptions) (*client.Watcher[T], error) {
	g.mu.Lock()
	open := g.open
	g.mu.Unlock()
	if open != nil {
		g.mu.Lock()
		g.waiting++
		g.mu.Unlock()
		select {
		case <-open:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return g.Resource.Watch(ctx, opts)
}

// historyHandler records, per object name, what a handler is told, with
// the object's UID: "add rv uid initial=…", "update rv->rv uid",
// "delete rv uid unknown=…".
type historyHandler[T client.Object] struct {
	mu     sync.Mutex
	byName map[string][]string
}

func (h *historyHandler[T]) record(name, format string, args ...any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byName == nil {
		h.byName = map[string][]string{}
	}
	h.byName[name] = append(h.byName[name], fmt.Sprintf(format, args...))
}

func (h *historyHandler[T]) OnAdd(o T, initial bool) {
	h.record(o.GetName(), "add %s %s initial=%v", o.GetResourceVersion(), o.GetUID(), initial)
}

func (h *historyHandler[T]) OnUpdate(old, o T) {
	h.record(o.GetName(), "update %s->%s %s", old.GetResourceVersion(), o.GetResourceVersion(), o.GetUID())
}

func (h *historyHandler[T]) OnDelete(o T, unknown bool) {
	h.record(o.GetName(), "delete %s %s unknown=%v", o.GetResourceVersion(), o.GetUID(), unknown)
}

func (h *historyHandler[T]) get() map[string][]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := map[string][]string{}
	for k, v := range h.byName {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// Changes made while the watch was down reach handlers through the
// relist: an update as an update; a deletion as OnDelete with its state
// unknown and the last state the cache held; an object deleted and
// created again under the same name (a new UID) as the deletion of the
// old object, state unknown, then an add of the new one, never as an
// update between two different objects.
func TestDeletionFoundByRelist(t *testing.T) {
	eachFlavour(t, testDeletionFoundByRelist, testDeletionFoundByRelist, testDeletionFoundByRelist)
}

func testDeletionFoundByRelist[T client.Object](t *testing.T, f flavour[T]) {
	for _, mode := range modes {
		t.Run(mode.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s, c := newServer(t, 5, fake.Options{})
				src := &gatedSource[T]{Resource: f.resource(c)}
				ropts := mode.opts
				ropts.InitialBackoff, ropts.MaxBackoff = 10*time.Millisecond, 20*time.Millisecond
				inf := newInformer[T](t, src, informer.Options[T]{Reflector: ropts})
				h := &historyHandler[T]{}
				inf.AddHandler(h, informer.HandlerOptions{})
				run(t, inf)
				ctx := context.Background()
				if err := inf.WaitForSync(ctx); err != nil {
					t.Fatal(err)
				}
				want := map[string][]string{}
				for _, o := range inf.Store().List() {
					want[o.GetName()] = []string{fmt.Sprintf("add %s %s initial=true", o.GetResourceVersion(), o.GetUID())}
				}
				if len(want) != 5 {
					t.Fatalf("cache holds %d objects, want 5", len(want))
				}
				res := client.For[cm](c).Namespace("default")
				// A change seen through the watch proves the watch is open, so
				// that DropWatches ends it.
				added, err := res.Create(ctx, configMap("default", 99), client.CreateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				want[added.Name] = []string{fmt.Sprintf("add %s %s initial=false", added.ResourceVersion, added.UID)}
				eventually(t, 5*time.Second, inSync(t, c, inf.Store()))
				src.shut()
				s.Faults().DropWatches()
				eventually(t, 5*time.Second, func() string { // the old watch has ended
					src.mu.Lock()
					defer src.mu.Unlock()
					if src.waiting == 0 {
						return "no watch waiting at the gate"
					}
					return ""
				})

				// While no watch is open: update cm-00001, delete cm-00003,
				// delete cm-00002 and create it again.
				updated, err := res.Get(ctx, "cm-00001", client.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				updated = updated.DeepCopy()
				setValue(updated, "updated")
				oldRV := updated.ResourceVersion
				if updated, err = res.Update(ctx, updated, client.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
				want["cm-00001"] = append(want["cm-00001"], fmt.Sprintf("update %s->%s %s", oldRV, updated.ResourceVersion, updated.UID))
				if err := res.Delete(ctx, "cm-00003", client.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
				victim, _ := inf.Store().Get("default", "cm-00003")
				want["cm-00003"] = append(want["cm-00003"], fmt.Sprintf("delete %s %s unknown=true", victim.GetResourceVersion(), victim.GetUID()))
				if err := res.Delete(ctx, "cm-00002", client.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
				recreated, err := res.Create(ctx, configMap("default", 2), client.CreateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				old, _ := inf.Store().Get("default", "cm-00002")
				if recreated.UID == old.GetUID() || recreated.UID == "" {
					t.Fatalf("recreated cm-00002 has UID %q, the old one %q: want a new UID", recreated.UID, old.GetUID())
				}
				want["cm-00002"] = append(want["cm-00002"],
					fmt.Sprintf("delete %s %s unknown=true", old.GetResourceVersion(), old.GetUID()),
					fmt.Sprintf("add %s %s initial=false", recreated.ResourceVersion, recreated.UID))
				s.Compact()
				src.reopen()

				eventually(t, 10*time.Second, inSync(t, c, inf.Store()))
				if o, _ := inf.Store().Get("default", "cm-00002"); o.GetUID() != recreated.UID {
					t.Errorf("cache holds cm-00002 with UID %q, want the new %q", o.GetUID(), recreated.UID)
				}
				eventually(t, 10*time.Second, func() string {
					if diff := cmp.Diff(want, h.get()); diff != "" {
						return "handler history by name (-want +got):\n" + diff
					}
					return ""
				})
				if inf.Reflector().Relists() < 2 {
					t.Errorf("relists: %d, want a relist after the 410", inf.Reflector().Relists())
				}
			})
		})
	}
}
