package controller_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
)

// exclusive records which replica reconciles what, and fails on a
// Request reconciled by two replicas at once.
type exclusive struct {
	mu       sync.Mutex
	running  map[controller.Request]string
	by       map[controller.Request]map[string]int
	overlaps []string
	// hold, when set for a Request, blocks its Reconcile until closed
	// (or its ctx ends).
	hold    map[controller.Request]chan struct{}
	started chan controller.Request
}

func newExclusive() *exclusive {
	return &exclusive{running: map[controller.Request]string{}, by: map[controller.Request]map[string]int{},
		hold: map[controller.Request]chan struct{}{}, started: make(chan controller.Request, 100)}
}

func (x *exclusive) reconciler(replica string) controller.Reconciler {
	return controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
		x.mu.Lock()
		if other, ok := x.running[req]; ok {
			x.overlaps = append(x.overlaps, fmt.Sprintf("%s reconciled by %s while %s is", req, replica, other))
		}
		x.running[req] = replica
		if x.by[req] == nil {
			x.by[req] = map[string]int{}
		}
		x.by[req][replica]++
		hold := x.hold[req]
		x.mu.Unlock()
		if hold != nil {
			x.started <- req
			select {
			case <-hold:
			case <-ctx.Done():
			}
		}
		x.mu.Lock()
		delete(x.running, req)
		x.mu.Unlock()
		return controller.Result{}, ctx.Err()
	})
}

func (x *exclusive) reconcilers(req controller.Request) map[string]int {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := map[string]int{}
	for k, v := range x.by[req] {
		out[k] = v
	}
	return out
}

// replica is one sharded controller with its own sharded informer.
type replica struct {
	name string
	inf  *informer.Informer[*corev1.ConfigMap]
	ctl  *controller.Controller[*corev1.ConfigMap]
}

func newReplica(t *testing.T, c *client.Client, name string, x *exclusive) *replica {
	t.Helper()
	f := newFactory(t, c, informer.FactoryOptions{})
	inf := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default", Shard: client.ShardByUID})
	ctl := newController(t, name, inf, x.reconciler(name), controller.Options{Workers: 4, Shard: client.ShardByUID, Queue: fastQueue})
	stopFactory := running(t, f.Run)
	stopCtl := running(t, ctl.Run)
	t.Cleanup(func() {
		if err := stopCtl(); err != nil {
			t.Errorf("%s: controller Run: %v", name, err)
		}
		if err := stopFactory(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: factory Run: %v", name, err)
		}
	})
	return &replica{name: name, inf: inf, ctl: ctl}
}

func (r *replica) setShard(t *testing.T, sel client.ShardSelector) {
	t.Helper()
	if err := r.inf.SetShard(sel); err != nil {
		t.Fatal(err)
	}
	if err := r.ctl.SetShard(sel); err != nil {
		t.Fatal(err)
	}
}

// Two replicas split the ConfigMaps by uid hash: each Request is
// reconciled by the replica owning its half only; a half handed over is
// drained first (Drain waits for the Reconcile in progress, or cancels
// it when its ctx ends); a deleted object is reconciled by its owner.
func TestShardedControllers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		var cms []*corev1.ConfigMap
		for i := range 40 {
			cms = append(cms, configMap("default", fmt.Sprintf("cm-%02d", i), "v0"))
		}
		create(t, e.direct, cms...)
		list, err := client.For[*corev1.ConfigMap](e.direct).Namespace("default").List(t.Context(), client.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		q := client.SplitHashSpace(4)
		sel := func(rs ...client.HashRange) client.ShardSelector {
			return client.ShardSelector{Key: client.ShardByUID, Ranges: rs}
		}
		owner := func(cm *corev1.ConfigMap) string {
			if sel(q[0], q[1]).Matches(cm) {
				return "a"
			}
			return "b"
		}
		x := newExclusive()
		a, b := newReplica(t, e.ctl, "a", x), newReplica(t, e.ctl, "b", x)
		a.setShard(t, sel(q[0], q[1]))
		b.setShard(t, sel(q[2], q[3]))

		wait := func(what string, cond func() bool) {
			t.Helper()
			deadline := time.Now().Add(20 * time.Second)
			for !cond() {
				if time.Now().After(deadline) {
					t.Fatalf("timed out waiting for %s", what)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		for _, cm := range list.Items {
			req := controller.RequestFor(cm)
			wait(fmt.Sprintf("%s to be reconciled", req), func() bool { return len(x.reconcilers(req)) > 0 })
		}
		for _, cm := range list.Items {
			req := controller.RequestFor(cm)
			if got := x.reconcilers(req); len(got) != 1 || got[owner(cm)] == 0 {
				t.Errorf("%s (owner %s) reconciled by %v", req, owner(cm), got)
			}
		}

		// Hand q[1] from a to b. A Reconcile of q[1] in progress holds the
		// handover until it ends.
		var moving *corev1.ConfigMap
		for _, cm := range list.Items {
			if sel(q[1]).Matches(cm) {
				moving = cm
				break
			}
		}
		if moving == nil {
			t.Fatal("no object in the second quarter")
		}
		req := controller.RequestFor(moving)
		release := make(chan struct{})
		x.mu.Lock()
		x.hold[req] = release
		x.mu.Unlock()
		a.ctl.Enqueue(req)
		<-x.started
		a.setShard(t, sel(q[0]))
		drained := make(chan error, 1)
		go func() { drained <- a.ctl.Drain(t.Context()) }()
		select {
		case err := <-drained:
			t.Fatalf("Drain returned %v while a Reconcile of the part given up runs", err)
		case <-time.After(100 * time.Millisecond):
		}
		close(release)
		x.mu.Lock()
		delete(x.hold, req)
		x.mu.Unlock()
		if err := <-drained; err != nil {
			t.Fatalf("Drain: %v", err)
		}
		before := x.reconcilers(req)["a"]
		a.ctl.Enqueue(req) // no longer a's: dropped
		b.setShard(t, sel(q[1], q[2], q[3]))
		wait("b to reconcile the object handed over", func() bool { return x.reconcilers(req)["b"] > 0 })
		if got := x.reconcilers(req)["a"]; got != before {
			t.Errorf("a reconciled %s %d more times after giving it up", req, got-before)
		}

		// Drain's ctx ending cancels the Reconcile calls it waits for.
		var other *corev1.ConfigMap
		for _, cm := range list.Items {
			if sel(q[2]).Matches(cm) {
				other = cm
				break
			}
		}
		if other != nil {
			oreq := controller.RequestFor(other)
			x.mu.Lock()
			x.hold[oreq] = make(chan struct{}) // never released
			x.mu.Unlock()
			b.ctl.Enqueue(oreq)
			for r := range x.started {
				if r == oreq {
					break
				}
			}
			b.setShard(t, sel(q[1], q[3]))
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			err := b.ctl.Drain(ctx)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("Drain with a stuck Reconcile: %v, want DeadlineExceeded", err)
			}
			wait("the cancelled Reconcile to return", func() bool {
				x.mu.Lock()
				defer x.mu.Unlock()
				_, ok := x.running[oreq]
				return !ok
			})
			if err := b.ctl.Drain(t.Context()); err != nil {
				t.Errorf("Drain after the Reconcile returned: %v", err)
			}
			b.setShard(t, sel(q[1], q[2], q[3]))
		}

		// A deleted object is reconciled by its owner, once it is out of
		// the cache.
		var gone *corev1.ConfigMap
		for _, cm := range list.Items {
			if sel(q[3]).Matches(cm) && (other == nil || cm.Name != other.Name) {
				gone = cm
				break
			}
		}
		if gone != nil {
			greq := controller.RequestFor(gone)
			n := x.reconcilers(greq)["b"]
			if err := client.For[*corev1.ConfigMap](e.direct).Namespace("default").Delete(t.Context(), gone.Name, client.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			wait("the deleted object to be reconciled", func() bool { return x.reconcilers(greq)["b"] > n })
			if got := x.reconcilers(greq)["a"]; got != 0 {
				t.Errorf("a reconciled %s, b's", greq)
			}
		}

		x.mu.Lock()
		for _, o := range x.overlaps {
			t.Error(o)
		}
		x.mu.Unlock()
		whole := newInformer(t, client.For[*corev1.ConfigMap](e.ctl).Namespace("default"))
		if err := newController(t, "plain", whole, x.reconciler("p"), controller.Options{}).SetShard(sel(q[0])); !errors.Is(err, controller.ErrNotSharded) {
			t.Errorf("SetShard of an unsharded controller: %v", err)
		}
		// A controller takes its key from its sharded primary informer.
		if !newController(t, "inherits", a.inf, x.reconciler("i"), controller.Options{}).Sharded() {
			t.Error("a controller of a sharded informer is not sharded")
		}
	})
}

// newInformer returns an informer of src caching the whole collection.
func newInformer(t *testing.T, src *client.Resource[*corev1.ConfigMap]) *informer.Informer[*corev1.ConfigMap] {
	t.Helper()
	inf, err := informer.New(src, informer.Options[*corev1.ConfigMap]{})
	if err != nil {
		t.Fatal(err)
	}
	return inf
}

// A controller whose part is taken away and given back while its cache
// keeps every object (as a sharded replica's through a lost membership):
// the objects of the part given back are reconciled again, those
// changed meanwhile at their new state, with no relist of the cache.
func TestShardedControllerPartGivenBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		var cms []*corev1.ConfigMap
		for i := range 20 {
			cms = append(cms, configMap("default", fmt.Sprintf("cm-%02d", i), "v0"))
		}
		create(t, e.direct, cms...)
		all := client.ShardSelector{Key: client.ShardByUID, Ranges: client.SplitHashSpace(1)}
		x := newExclusive()
		r := newReplica(t, e.ctl, "a", x)
		r.setShard(t, all)
		wait := func(what string, cond func() bool) {
			t.Helper()
			deadline := time.Now().Add(20 * time.Second)
			for !cond() {
				if time.Now().After(deadline) {
					t.Fatalf("timed out waiting for %s", what)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		reconciled := func(n int) func() bool {
			return func() bool {
				for _, cm := range cms {
					if x.reconcilers(controller.RequestFor(cm))["a"] < n {
						return false
					}
				}
				return true
			}
		}
		wait("every object reconciled once", reconciled(1))
		if err := r.ctl.SetShard(client.ShardSelector{Key: client.ShardByUID}); err != nil {
			t.Fatal(err)
		}
		api := client.For[*corev1.ConfigMap](e.direct).Namespace("default")
		changed, err := api.Get(t.Context(), cms[0].Name, client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		changed = changed.DeepCopy()
		changed.Data = map[string]string{"v": "v1"}
		if changed, err = api.Update(t.Context(), changed, client.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		wait("the cache to hold the change", func() bool {
			got, ok := r.inf.Store().Get("default", changed.Name)
			return ok && got.ResourceVersion == changed.ResourceVersion
		})
		if err := r.ctl.SetShard(all); err != nil {
			t.Fatal(err)
		}
		wait("every object reconciled again", reconciled(2))
		if n := r.inf.Reflector().Relists(); n != 1 {
			t.Errorf("the cache was listed %d times, want once", n)
		}
	})
}

// Under a sharded Factory the key is said once: the controller and its
// primary informer take it; an owned kind's informer is split too when
// the key is the namespace (an owned object lives in its owner's), and
// stays whole when it is the uid.
func TestShardKeyFromFactory(t *testing.T) {
	e := newEnv(t)
	for _, key := range []client.ShardKey{client.ShardByUID, client.ShardByNamespace} {
		f := newFactory(t, e.ctl, informer.FactoryOptions{Shard: key})
		primary := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
		owned := informer.Shared[*corev1.Secret](f, informer.Scope{Namespace: "default"})
		ctl := newController(t, "c", primary, controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
			return controller.Result{}, nil
		}), controller.Options{})
		controller.Owns(ctl, owned)
		if !ctl.Sharded() || ctl.Shard().Key != key || primary.ShardKey() != key {
			t.Errorf("%s: controller sharded %v by %q, primary informer by %q", key, ctl.Sharded(), ctl.Shard().Key, primary.ShardKey())
		}
		want := client.ShardKey("")
		if key == client.ShardByNamespace {
			want = key
		}
		if got := owned.ShardKey(); got != want {
			t.Errorf("%s: the owned kind's informer is split by %q, want %q", key, got, want)
		}
	}
}

// A controller reconciling a part by one key whose primary cache holds
// the whole collection, or a part by another key, is refused by New with
// an error naming both.
func TestShardKeyMismatch(t *testing.T) {
	e := newEnv(t)
	noop := controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
		return controller.Result{}, nil
	})
	whole := newInformer(t, client.For[*corev1.ConfigMap](e.ctl).Namespace("default"))
	f := newFactory(t, e.ctl, informer.FactoryOptions{})
	byNamespace := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default", Shard: client.ShardByNamespace})
	for name, inf := range map[string]*informer.Informer[*corev1.ConfigMap]{"whole": whole, "by namespace": byNamespace} {
		ctl, err := controller.New(name, inf, noop, controller.Options{Shard: client.ShardByUID})
		if !errors.Is(err, client.ErrInvalidOptions) || ctl != nil {
			t.Errorf("%s: New = %v, %v; want no controller and an error matching client.ErrInvalidOptions", name, ctl, err)
		} else if !strings.Contains(err.Error(), string(client.ShardByUID)) {
			t.Errorf("%s: the error does not name the key: %v", name, err)
		}
	}
	if ctl := newController(t, "same", byNamespace, noop, controller.Options{Shard: client.ShardByNamespace}); ctl.Shard().Key != client.ShardByNamespace {
		t.Errorf("a key the informer holds: the controller reconciles by %q", ctl.Shard().Key)
	}
}
