package informer_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// Objects leaving the shard are dropped without a change for handlers;
// an object of the shard that a relist no longer finds is a deletion
// with its state unknown; one entering is an addition.
func TestStoreReshard(t *testing.T) {
	s := newStore[cm](t)
	var got []string
	informer.OnChange(s, func(kind string, o cm, flag bool) {
		if o == nil {
			got = append(got, kind)
			return
		}
		got = append(got, fmt.Sprintf("%s %s %v", kind, informer.Key(o), flag))
	})
	w := informer.Writer(s)
	w.Begin()
	for _, o := range []cm{obj(typedFlavour(), "in", "a", "1", "color", "red"), obj(typedFlavour(), "in", "b", "1"), obj(typedFlavour(), "out", "c", "1", "color", "red")} {
		w.Item(o)
	}
	w.End("1")
	rs, ok := w.(reflector.Resharder[cm])
	if !ok {
		t.Fatal("the informer's writer is not a reflector.Resharder")
	}
	rs.Reshard(func(o cm) bool { return o.Namespace == "in" })
	if s.Len() != 2 || s.Namespaces()[0] != "in" {
		t.Errorf("after Reshard: %v", s.ListKeys())
	}
	if red, err := s.ByIndex("color", "red"); err != nil || len(red) != 1 {
		t.Errorf("the index after Reshard: %d red objects, %v", len(red), err)
	}
	w.Begin()
	w.Item(obj(typedFlavour(), "in", "a", "1"))
	w.Item(obj(typedFlavour(), "in", "d", "2"))
	w.End("2")
	want := []string{"add in/a true", "add in/b true", "add out/c true", "synced", "add in/d false", "delete in/b true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

// A part streams in beside the rest: only its objects not received are
// deleted at its end, its objects arrive as additions that are not part
// of the initial list, and the store's resourceVersion keeps following
// the watch of the rest meanwhile.
func TestStorePart(t *testing.T) {
	s := newStore[cm](t)
	var got []string
	informer.OnChange(s, func(kind string, o cm, flag bool) {
		if o == nil {
			got = append(got, kind)
			return
		}
		got = append(got, fmt.Sprintf("%s %s %v", kind, informer.Key(o), flag))
	})
	w := informer.Writer(s)
	w.Begin()
	w.Item(obj(typedFlavour(), "held", "a", "1"))
	w.Item(obj(typedFlavour(), "held", "b", "2"))
	w.End("2")
	ps, ok := w.(reflector.PartStore[cm])
	if !ok {
		t.Fatal("the informer's writer is not a reflector.PartStore")
	}
	for round, items := range [][]string{{"x", "y"}, {"x"}} {
		ps.BeginPart(func(o cm) bool { return o.Namespace == "gained" })
		if _, whole := s.Snapshot(); whole {
			t.Errorf("round %d: a snapshot while a part streams in is called whole", round)
		}
		for _, name := range items {
			w.Item(obj(typedFlavour(), "gained", name, "3"))
		}
		w.Update(obj(typedFlavour(), "held", "a", fmt.Sprint(4+round)))
		w.End("")
		if rv := s.ResourceVersion(); rv != fmt.Sprint(4+round) {
			t.Errorf("round %d: resourceVersion %q after the part, want the watch's %d", round, rv, 4+round)
		}
		if _, whole := s.Snapshot(); !whole {
			t.Errorf("round %d: no whole snapshot after the part ended", round)
		}
	}
	want := []string{"add held/a true", "add held/b true", "synced",
		"add gained/x false", "add gained/y false", "update held/a false",
		"update held/a false", "delete gained/y true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("changes (-want +got):\n%s", diff)
	}
}

// counter counts what a handler is told, by key.
type counter struct {
	mu                    sync.Mutex
	adds, updates, delete map[string]int
}

func newCounter() *counter {
	return &counter{adds: map[string]int{}, updates: map[string]int{}, delete: map[string]int{}}
}

func (c *counter) OnAdd(o cm, _ bool)    { c.mu.Lock(); c.adds[informer.Key(o)]++; c.mu.Unlock() }
func (c *counter) OnUpdate(_, o cm)      { c.mu.Lock(); c.updates[informer.Key(o)]++; c.mu.Unlock() }
func (c *counter) OnDelete(o cm, _ bool) { c.mu.Lock(); c.delete[informer.Key(o)]++; c.mu.Unlock() }
func (c *counter) addsOf(k string) int   { c.mu.Lock(); defer c.mu.Unlock(); return c.adds[k] }
func (c *counter) deletions() int        { c.mu.Lock(); defer c.mu.Unlock(); return len(c.delete) }
func (c *counter) deletedKeys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.delete))
}

// An informer whose shard moves: the cache follows the selector, on a
// server that shards and on one that ignores the selector, and handlers
// hear of no deletion that did not happen.
func TestInformerSetShard(t *testing.T) {
	q := client.SplitHashSpace(4)
	sel := func(rs ...client.HashRange) client.ShardSelector {
		return client.ShardSelector{Key: client.ShardByUID, Ranges: rs}
	}
	half, quarter, all := sel(q[0], q[1]), sel(q[1]), sel(q...)
	for _, ignore := range []bool{false, true} {
		t.Run(fmt.Sprintf("server ignores the selector: %v", ignore), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, c := newServer(t, 60, fake.Options{IgnoreShardSelector: ignore})
				inf := newInformer(t, client.For[cm](c), informer.Options[cm]{Reflector: reflector.Options{ShardSelector: half}})
				h := newCounter()
				inf.AddHandler(h, informer.HandlerOptions{})
				run(t, inf)
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				if err := inf.WaitForSync(ctx); err != nil {
					t.Fatal(err)
				}
				holds := func(s client.ShardSelector) func() string {
					return func() string {
						if got, ok := inf.SyncedShard(); !ok || !got.Equal(s) {
							return fmt.Sprintf("synced shard %v, want %v", got, s)
						}
						want := map[string]bool{}
						l, err := client.For[cm](c).List(ctx, client.ListOptions{})
						if err != nil {
							return err.Error()
						}
						for _, o := range l.Items {
							if s.Matches(o) {
								want[informer.Key(o)] = true
							}
						}
						got := map[string]bool{}
						for _, k := range inf.Store().ListKeys() {
							got[k] = true
						}
						if !maps.Equal(want, got) {
							return "cache differs from the server's part (-server +cache):\n" + cmp.Diff(want, got)
						}
						return ""
					}
				}
				eventually(t, time.Minute, holds(half))
				if got := inf.ShardedOnServer(); got == ignore {
					t.Errorf("ShardedOnServer = %v", got)
				}
				if err := inf.SetShard(all); err != nil {
					t.Fatal(err)
				}
				eventually(t, time.Minute, holds(all))
				if err := inf.SetShard(quarter); err != nil {
					t.Fatal(err)
				}
				eventually(t, time.Minute, holds(quarter))
				if err := inf.SetShard(half); err != nil {
					t.Fatal(err)
				}
				eventually(t, time.Minute, holds(half))
				if n := h.deletions(); n != 0 {
					t.Errorf("handlers were told %d deletions: %v", n, h.deletedKeys())
				}
				// Growing listed only the ranges gained: one full state, two
				// lists of parts (half to all, quarter to half).
				if n, p := inf.Reflector().Relists(), inf.Reflector().PartLists(); n != 1 || p != 2 {
					t.Errorf("%d full states and %d lists of parts, want 1 and 2", n, p)
				}
				// An object that left and came back is added again.
				for _, k := range inf.Store().ListKeys() {
					o, _ := inf.Store().GetByKey(k)
					if quarter.Matches(o) {
						continue
					}
					eventually(t, time.Minute, func() string {
						if n := h.addsOf(k); n != 2 {
							return fmt.Sprintf("%s added %d times, want 2 (half, then back from a quarter)", k, n)
						}
						return ""
					})
					break
				}
			})
		})
	}
}

// In a sharded Factory an informer holds the whole collection until a
// controller reconciles from it (UseFactoryShard); from then on it holds
// the factory's part, with no Scope.Shard written.
func TestUseFactoryShard(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newServer(t, 40, fake.Options{})
		f := newFactory(t, c, informer.FactoryOptions{Shard: client.ShardByUID})
		primary := informer.Shared[cm](f, informer.Scope{})
		secondary := informer.Shared[cm](f, informer.Scope{Namespace: "default"})
		explicit := informer.Shared[cm](f, informer.Scope{Namespace: "kube-system", Shard: client.ShardByNamespace})
		if k := primary.ShardKey(); k != "" {
			t.Errorf("before UseFactoryShard: ShardKey %q", k)
		}
		if k := primary.UseFactoryShard(); k != client.ShardByUID {
			t.Errorf("UseFactoryShard = %q, want the factory's key", k)
		}
		if k := explicit.UseFactoryShard(); k != client.ShardByNamespace {
			t.Errorf("UseFactoryShard of an informer with a Scope.Shard = %q, want its own", k)
		}
		plain := newInformer(t, client.For[cm](c), informer.Options[cm]{})
		if k := plain.UseFactoryShard(); k != "" {
			t.Errorf("UseFactoryShard of an informer of no factory = %q", k)
		}
		half := client.ShardSelector{Key: client.ShardByUID, Ranges: client.SplitHashSpace(2)[:1]}
		if err := f.SetShard(half); err != nil {
			t.Fatal(err)
		}
		runAll(t, f.Run)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := f.WaitForSync(ctx); err != nil {
			t.Fatal(err)
		}
		l, err := client.For[cm](c).List(ctx, client.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, o := range l.Items {
			if half.Matches(o) {
				want++
			}
		}
		eventually(t, time.Minute, func() string {
			if got, ok := primary.SyncedShard(); !ok || !got.Equal(half) {
				return fmt.Sprintf("the primary holds %v", got)
			}
			if n := primary.Store().Len(); n != want {
				return fmt.Sprintf("the primary holds %d objects, want the %d of its part", n, want)
			}
			return ""
		})
		if n := secondary.Store().Len(); n != len(l.Items) || secondary.ShardKey() != "" {
			t.Errorf("the informer no controller reconciles from holds %d of %d objects, key %q", n, len(l.Items), secondary.ShardKey())
		}
	})
}
