package informer_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// A handler that blocks delays neither the cache nor the other handlers,
// and once unblocked it catches up with everything, in order.
func TestBlockedHandlerDelaysNobody(t *testing.T) {
	eachFlavour(t, testBlockedHandlerDelaysNobody, testBlockedHandlerDelaysNobody, testBlockedHandlerDelaysNobody)
}

func testBlockedHandlerDelaysNobody[T client.Object](t *testing.T, f flavour[T]) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newServer(t, 10, fake.Options{})
		inf := newInformer(t, f.resource(c), informer.Options[T]{})
		release := make(chan struct{})
		var blockedCalls atomic.Int32
		slow := newRecorder[T]()
		inf.AddHandler(informer.HandlerFuncs[T]{
			Add: func(o T, initial bool) {
				if blockedCalls.Add(1) == 1 {
					<-release
				}
				slow.OnAdd(o, initial)
			},
			Update: slow.OnUpdate,
			Delete: slow.OnDelete,
		}, informer.HandlerOptions{})
		fast := newRecorder[T]()
		fastReg := inf.AddHandler(fast, informer.HandlerOptions{})
		stop := run(t, inf)
		defer close(release)

		ctx := context.Background()
		if err := fastReg.WaitForSync(ctx); err != nil {
			t.Fatal(err)
		}
		res := client.For[cm](c).Namespace("default")
		for i := range 50 {
			if _, err := res.Create(ctx, configMap("default", 100+i), client.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		eventually(t, 10*time.Second, inSync(t, c, inf.Store()))
		eventually(t, 10*time.Second, fast.sees(t, c))
		if n := blockedCalls.Load(); n != 1 {
			t.Fatalf("blocked handler made %d calls, want 1 (still blocked)", n)
		}
		release <- struct{}{}
		eventually(t, 10*time.Second, slow.sees(t, c))
		slow.check(t)
		fast.check(t)
		stop() // Run returns although nothing is queued: no goroutine left
	})
}

// A handler added after the sync is first told the cache's contents, as
// initial adds, then changes; a removed handler is told nothing more.
func TestLateHandlerAndRemove(t *testing.T) {
	eachFlavour(t, testLateHandlerAndRemove, testLateHandlerAndRemove, testLateHandlerAndRemove)
}

func testLateHandlerAndRemove[T client.Object](t *testing.T, f flavour[T]) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newServer(t, 20, fake.Options{})
		inf := newInformer(t, f.resource(c), informer.Options[T]{})
		run(t, inf)
		ctx := context.Background()
		if err := inf.WaitForSync(ctx); err != nil {
			t.Fatal(err)
		}
		late := newRecorder[T]()
		reg := inf.AddHandler(late, informer.HandlerOptions{})
		if err := reg.WaitForSync(ctx); err != nil {
			t.Fatal(err)
		}
		if late.initial != 20 {
			t.Errorf("replayed %d objects as initial, want 20", late.initial)
		}
		res := client.For[cm](c).Namespace("default")
		if _, err := res.Create(ctx, configMap("default", 500), client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, 5*time.Second, late.sees(t, c))
		late.check(t)

		reg.Remove()
		if err := reg.WaitForSync(ctx); !errors.Is(err, informer.ErrStopped) && err != nil {
			t.Errorf("WaitForSync after Remove = %v", err)
		}
		before := late.states()
		if _, err := res.Create(ctx, configMap("default", 501), client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, 5*time.Second, inSync(t, c, inf.Store()))
		time.Sleep(50 * time.Millisecond)
		if after := late.states(); len(after) != len(before) {
			t.Errorf("removed handler still called: %d objects, had %d", len(after), len(before))
		}
	})
}

// Resync calls OnUpdate(obj, obj) for every cached object periodically.
func TestResync(t *testing.T) {
	eachFlavour(t, testResync, testResync, testResync)
}

func testResync[T client.Object](t *testing.T, f flavour[T]) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newServer(t, 5, fake.Options{})
		inf := newInformer(t, f.resource(c), informer.Options[T]{})
		var mu sync.Mutex
		resynced := map[string]int{}
		inf.AddHandler(informer.HandlerFuncs[T]{Update: func(old, o T) {
			if any(old) != any(o) {
				t.Errorf("update of %s without a change", o.GetName())
			}
			mu.Lock()
			resynced[o.GetName()]++
			mu.Unlock()
		}}, informer.HandlerOptions{ResyncPeriod: 20 * time.Millisecond})
		run(t, inf)
		eventually(t, 5*time.Second, func() string {
			mu.Lock()
			defer mu.Unlock()
			if len(resynced) < 5 {
				return "not every object resynced"
			}
			for name, n := range resynced {
				if n < 2 {
					return name + " resynced once only"
				}
			}
			return ""
		})
	})
}

// Transform runs before objects are cached and handed to handlers, for
// the initial list and for watch events.
func TestTransform(t *testing.T) {
	eachFlavour(t, testTransform, testTransform, testTransform)
}

func testTransform[T client.Object](t *testing.T, f flavour[T]) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newServer(t, 5, fake.Options{})
		inf := newInformer(t, f.resource(c), informer.Options[T]{Transform: func(o T) T {
			o.SetAnnotations(nil)
			return o
		}})
		var seen, annotated atomic.Int32
		inf.AddHandler(informer.HandlerFuncs[T]{Add: func(o T, _ bool) {
			seen.Add(1)
			if o.GetAnnotations() != nil {
				annotated.Add(1)
			}
		}}, informer.HandlerOptions{})
		run(t, inf)
		if err := inf.WaitForSync(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := client.For[cm](c).Namespace("default").Create(context.Background(), configMap("default", 5), client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		eventually(t, 5*time.Second, func() string {
			if n := seen.Load(); n != 6 {
				return fmt.Sprintf("handler told %d adds, want 6", n)
			}
			return ""
		})
		for _, o := range inf.Store().List() {
			if o.GetAnnotations() != nil {
				t.Errorf("%s cached with its annotations", o.GetName())
			}
		}
		if n := annotated.Load(); n != 0 {
			t.Errorf("%d objects reached the handler untransformed", n)
		}
	})
}

// A typed Transform reads and sets the kind's own fields.
func TestTransformTypedFields(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, c := newServer(t, 5, fake.Options{})
		inf := newInformer(t, client.For[cm](c), informer.Options[cm]{Transform: func(o cm) cm {
			o.Data = nil
			return o
		}})
		var withData atomic.Int32
		inf.AddHandler(informer.HandlerFuncs[cm]{Add: func(o cm, _ bool) {
			if o.Data != nil {
				withData.Add(1)
			}
		}}, informer.HandlerOptions{})
		run(t, inf)
		if err := inf.WaitForSync(context.Background()); err != nil {
			t.Fatal(err)
		}
		for _, o := range inf.Store().List() {
			if o.Data != nil {
				t.Errorf("%s cached with its data", o.Name)
			}
		}
		if n := withData.Load(); n != 0 {
			t.Errorf("%d objects reached the handler untransformed", n)
		}
	})
}

// WaitForSync gives up with ErrStopped when Run ends before the sync, and
// with ctx's error when ctx ends first.
func TestWaitForSyncErrors(t *testing.T) {
	eachFlavour(t, testWaitForSyncErrors, testWaitForSyncErrors, testWaitForSyncErrors)
}

func testWaitForSyncErrors[T client.Object](t *testing.T, f flavour[T]) {
	synctest.Test(t, func(t *testing.T) {
		// A client of a server that is not there never syncs.
		bad, err := client.New(client.Config{Host: "http://127.0.0.1:1", QPS: -1})
		if err != nil {
			t.Fatal(err)
		}
		inf := newInformer(t, f.resource(bad), informer.Options[T]{})
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		if err := inf.WaitForSync(ctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("WaitForSync = %v, want context.DeadlineExceeded", err)
		}
		reg := inf.AddHandler(informer.HandlerFuncs[T]{}, informer.HandlerOptions{})
		stop := run(t, inf)
		stop()
		if err := inf.WaitForSync(context.Background()); !errors.Is(err, informer.ErrStopped) {
			t.Errorf("WaitForSync after Run = %v, want ErrStopped", err)
		}
		if err := reg.WaitForSync(context.Background()); !errors.Is(err, informer.ErrStopped) {
			t.Errorf("handler WaitForSync after Run = %v, want ErrStopped", err)
		}
		if err := inf.Run(context.Background()); err == nil {
			t.Error("a second Run did not fail")
		}
	})
}

// idleSource never answers: the test writes to the store itself.
type idleSource[T client.Object] struct{}

func (idleSource[T]) List(ctx context.Context, _ client.ListOptions) (*client.List[T], error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func (idleSource[T]) Watch(ctx context.Context, _ client.WatchOptions) (*client.Watcher[T], error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// Handlers registered before the first sync and in the middle of a
// relist are each told a history consistent with what they were told
// before, including the relist's deletions (state unknown) and a
// recreated object (same name, new UID: delete then add).
func TestHandlerRegisteredDuringRelist(t *testing.T) {
	eachFlavour(t, testHandlerRegisteredDuringRelist, testHandlerRegisteredDuringRelist, testHandlerRegisteredDuringRelist)
}

func testHandlerRegisteredDuringRelist[T client.Object](t *testing.T, f flavour[T]) {
	synctest.Test(t, func(t *testing.T) {
		// Streaming lists: the reflector begins no full state before the
		// watch answers, so the test is the store's only writer (a paged
		// list begins one before its first page).
		inf := newInformer[T](t, idleSource[T]{}, informer.Options[T]{Reflector: reflector.Options{WatchList: true}})
		s := inf.Store()
		w := informer.Writer(s)
		early := &logHandler[T]{}
		inf.AddHandler(early, informer.HandlerOptions{})
		run(t, inf)

		w.Begin()
		w.Item(obj(f, "ns", "a", "1"))
		w.Item(obj(f, "ns", "b", "1"))
		w.Item(obj(f, "ns", "r", "1"))
		w.End("1")
		w.Update(obj(f, "ns", "a", "2"))

		w.Begin()
		w.Item(obj(f, "ns", "a", "3"))
		late := &logHandler[T]{}
		lateReg := inf.AddHandler(late, informer.HandlerOptions{})
		recreated := obj(f, "ns", "r", "3")
		recreated.SetUID("new-uid")
		w.Item(recreated)
		w.Item(obj(f, "ns", "c", "3"))
		w.End("3")

		ctx := context.Background()
		if err := lateReg.WaitForSync(ctx); err != nil {
			t.Fatal(err)
		}
		wantEarly := []string{
			"add a@1 initial=true", "add b@1 initial=true", "add r@1 initial=true",
			"update a@1->2",
			"update a@2->3",
			"delete r@1 unknown=true", "add r@3 initial=false",
			"add c@3 initial=false",
			"delete b@1 unknown=true",
		}
		eventually(t, 5*time.Second, func() string {
			if got := early.get(); len(got) < len(wantEarly) {
				return fmt.Sprintf("early handler told %d changes, want %d", len(got), len(wantEarly))
			}
			return ""
		})
		if diff := cmp.Diff(wantEarly, early.get()); diff != "" {
			t.Errorf("early handler (-want +got):\n%s", diff)
		}
		// The late handler is first told the cache as it is mid-relist (in
		// map order), then the rest of the relist.
		got := late.get()
		if len(got) < 3 {
			t.Fatalf("late handler: %q", got)
		}
		replay := slices.Sorted(slices.Values(got[:3]))
		wantReplay := []string{"add a@3 initial=true", "add b@1 initial=true", "add r@1 initial=true"}
		if diff := cmp.Diff(wantReplay, replay); diff != "" {
			t.Errorf("late handler's replay (-want +got):\n%s", diff)
		}
		wantRest := []string{"delete r@1 unknown=true", "add r@3 initial=false", "add c@3 initial=false", "delete b@1 unknown=true"}
		eventually(t, 5*time.Second, func() string {
			if len(late.get()) < 3+len(wantRest) {
				return "late handler has not caught up"
			}
			return ""
		})
		if diff := cmp.Diff(wantRest, late.get()[3:]); diff != "" {
			t.Errorf("late handler after its replay (-want +got):\n%s", diff)
		}
	})
}
