package controller_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
)

// A Reconcile that counts in an annotation, reading the count from the
// cache and writing count+1 with the cached resourceVersion, and that is
// queued again while it runs (as when another event arrives). With
// ReadYourWrites every Reconcile reads its previous write from the cache:
// no stale read, no conflict, whether the write is a plain Update with
// the Reconcile's ctx or one made otherwise and recorded with Wrote.
// Without it, the next Reconcile starts before the informer has seen the
// write.
func TestReadYourWrites(t *testing.T) {
	for _, tc := range []struct {
		ryw   bool
		wrote bool // write with another ctx, and record it with Wrote
	}{{true, false}, {true, true}, {false, false}} {
		ryw := tc.ryw
		t.Run(fmt.Sprintf("ReadYourWrites=%v,Wrote=%v", tc.ryw, tc.wrote), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const keys, rounds = 20, 5
				e := newEnv(t)
				e.faults.delayWatches(5 * time.Millisecond)
				for i := range keys {
					create(t, e.direct, configMap("default", fmt.Sprintf("cm-%02d", i), ""))
				}
				f := newFactory(t, e.ctl, informer.FactoryOptions{})
				cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
				api := client.For[*corev1.ConfigMap](e.ctl)

				var mu sync.Mutex
				written := map[controller.Request]string{}
				var stale, conflicts int
				finished := make(chan controller.Request, keys)
				var ctl *controller.Controller[*corev1.ConfigMap]
				r := controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
					cm, ok := cms.Lister().Get(req.Namespace, req.Name)
					if !ok {
						return controller.Result{}, nil
					}
					have, _ := strconv.ParseUint(cm.ResourceVersion, 10, 64)
					mu.Lock()
					want, _ := strconv.ParseUint(written[req], 10, 64)
					if have < want {
						stale++
					}
					mu.Unlock()
					n, _ := strconv.Atoi(cm.Annotations["n"])
					if n >= rounds {
						return controller.Result{}, nil
					}
					next := cm.DeepCopy()
					next.Annotations = map[string]string{"n": strconv.Itoa(n + 1)}
					wctx := ctx
					if tc.wrote {
						wctx = context.WithoutCancel(context.Background())
					}
					got, err := api.Update(wctx, next, client.UpdateOptions{})
					if errors.Is(err, client.ErrConflict) {
						mu.Lock()
						conflicts++
						mu.Unlock()
					}
					if err != nil {
						return controller.Result{}, err
					}
					if tc.wrote {
						controller.Wrote(ctx, got)
					}
					mu.Lock()
					written[req] = got.ResourceVersion
					mu.Unlock()
					if n+1 == rounds {
						finished <- req
					} else {
						ctl.Enqueue(req) // an event arriving meanwhile
					}
					return controller.Result{}, nil
				})
				m := &countingMetrics{}
				ctl = newController(t, "counter", cms, r, controller.Options{Workers: 4, Queue: fastQueue, ReadYourWrites: ryw, Metrics: m})
				running(t, f.Run)
				running(t, ctl.Run)
				for range keys {
					select {
					case <-finished:
					case <-time.After(20 * time.Second):
						t.Fatal("the counters did not reach their end")
					}
				}
				mu.Lock()
				defer mu.Unlock()
				t.Logf("%d keys x %d writes: %d stale reads, %d conflicts, %d waits for writes (%d timed out)",
					keys, rounds, stale, conflicts, m.waits.Load(), m.timeouts.Load())
				if ryw && (stale != 0 || conflicts != 0 || m.timeouts.Load() != 0) {
					t.Errorf("with read-your-writes: %d stale reads, %d conflicts, %d timeouts; want none", stale, conflicts, m.timeouts.Load())
				}
				// Every change reaches the cache 5ms late: without the
				// wait, the Reconcile queued again reads the old count.
				if !ryw && stale == 0 {
					t.Error("without read-your-writes: no stale read; the test shows nothing")
				}
			})
		})
	}
}

// WaitForCache returns once the informer holds a write, and with ctx's
// error when it never will.
func TestWaitForCache(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
		running(t, f.Run)
		if err := f.WaitForSync(t.Context()); err != nil {
			t.Fatal(err)
		}
		got, err := client.For[*corev1.ConfigMap](e.direct).Create(t.Context(), configMap("default", "fresh", "1"), client.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := controller.WaitForCache(t.Context(), cms, got); err != nil {
			t.Fatal(err)
		}
		if cached, ok := cms.Lister().Get("default", "fresh"); !ok || cached.ResourceVersion != got.ResourceVersion {
			t.Errorf("after WaitForCache the cache holds %v", cached)
		}
		future := got.DeepCopy()
		future.ResourceVersion = "999999999"
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		defer cancel()
		if err := controller.WaitForCache(ctx, cms, future); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("WaitForCache of a version never written = %v", err)
		}
	})
}

// A write the caches never observe (here a resourceVersion from the
// future) holds the worker for ReadYourWritesTimeout only; the wait is
// reported to Metrics as timed out, and the controller goes on.
func TestReadYourWritesTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		create(t, e.direct, configMap("default", "a", ""), configMap("default", "b", ""))
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
		done := make(chan string, 2)
		r := controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			if req.Name == "a" {
				future := configMap("default", "a", "")
				future.ResourceVersion = "999999999"
				controller.Wrote(ctx, future)
			}
			done <- req.Name
			return controller.Result{}, nil
		})
		m := &countingMetrics{}
		ctl := newController(t, "timeout", cms, r, controller.Options{ReadYourWrites: true, ReadYourWritesTimeout: 50 * time.Millisecond, Metrics: m})
		running(t, f.Run)
		stop := running(t, ctl.Run)
		for range 2 {
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("not every ConfigMap was reconciled")
			}
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if m.timeouts.Load() != 1 || m.waits.Load() != 1 {
			t.Errorf("%d waits, %d timed out; want 1 and 1 (b wrote nothing)", m.waits.Load(), m.timeouts.Load())
		}
	})
}

// A Reconcile writing objects of its cache's kind outside the part the
// cache holds (a mirror copying labelled ConfigMaps of one namespace
// into another, unlabelled) is not held up: the cache never sees those
// writes, so the worker does not wait for them (it used to wait the
// whole ReadYourWritesTimeout per Reconcile, 10 s by default). A write
// taking an object the cache holds out of its part (removing the label)
// is still waited for, until the cache dropped it.
func TestReadYourWritesOutsideScope(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		e.faults.delayWatches(5 * time.Millisecond)
		src := configMap("default", "src", "1")
		src.Labels = map[string]string{"mirror": "yes"}
		leaving := configMap("default", "leaving", "1")
		leaving.Labels = map[string]string{"mirror": "yes"}
		create(t, e.direct, src, leaving)
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default", LabelSelector: client.MatchLabels(map[string]string{"mirror": "yes"})})
		api := client.For[*corev1.ConfigMap](e.ctl)
		done := make(chan string, 2)
		var stale sync.Map
		var ctl *controller.Controller[*corev1.ConfigMap]
		r := controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			if _, ok := stale.Load(req.Name); ok {
				if _, held := cms.Lister().Get(req.Namespace, req.Name); held {
					t.Errorf("%s reconciled again while the cache still holds it, after the write that took it out", req.Name)
				}
				done <- req.Name
				return controller.Result{}, nil
			}
			if req.Name == "leaving" {
				cm, _ := cms.Lister().Get(req.Namespace, req.Name)
				out := cm.DeepCopy()
				out.Labels = nil
				if _, err := api.Update(ctx, out, client.UpdateOptions{}); err != nil {
					return controller.Result{}, err
				}
				stale.Store(req.Name, true)
				ctl.Enqueue(req) // an event arriving meanwhile
				return controller.Result{}, nil
			}
			for _, copy := range []*corev1.ConfigMap{configMap("kube-system", req.Name, "1"), configMap("default", req.Name+"-copy", "1")} {
				if _, err := api.Create(ctx, copy, client.CreateOptions{}); err != nil {
					t.Errorf("create %s/%s: %v", copy.Namespace, copy.Name, err)
					return controller.Result{}, err
				}
			}
			done <- req.Name
			return controller.Result{}, nil
		})
		m := &countingMetrics{}
		ctl = newController(t, "mirror", cms, r, controller.Options{ReadYourWrites: true, Metrics: m})
		running(t, f.Run)
		stop := running(t, ctl.Run)
		start := time.Now()
		for range 2 {
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatal("not every ConfigMap was reconciled")
			}
		}
		if err := stop(); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took >= controller.DefaultReadYourWritesTimeout {
			t.Errorf("two Reconciles took %v: the worker waited for writes its cache never sees", took)
		}
		if m.timeouts.Load() != 0 || m.waits.Load() != 2 {
			t.Errorf("%d waits for writes, %d timed out; want 2 (the Reconciles that wrote), none timed out", m.waits.Load(), m.timeouts.Load())
		}
	})
}
