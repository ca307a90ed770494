package leaderelection_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
)

// fullReads counts the requests of a transport that read a whole
// ConfigMap collection: lists, and watches that start with the current
// state (streaming lists).
type fullReads struct {
	rt http.RoundTripper
	n  atomic.Int64
}

func (f *fullReads) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	if strings.HasSuffix(req.URL.Path, "/configmaps") && req.Method == "GET" &&
		(q.Get("watch") != "true" || q.Get("sendInitialEvents") == "true") {
		f.n.Add(1)
	}
	return f.rt.RoundTrip(req)
}

// replica is a controller replica with a warm cache: its informer runs
// (and synced) before it campaigns; only its worker waits for
// leadership.
type replica struct {
	id    string
	inf   *informer.Informer[*corev1.ConfigMap]
	reads *fullReads
	el    *leaderelection.Elector

	mu      sync.Mutex
	atStart struct {
		synced bool
		cached int
		reads  int64
	} // what the worker found when it started
	started bool
}

// TestWarmStandby: a standby's cache is synced before it wins and follows
// the cluster while it waits, so the new leader's worker starts with a
// complete cache (including what the old leader wrote) and no full read
// of the collection happens on failover.
func TestWarmStandby(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		for i := range 50 {
			cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("cm-%02d", i)}}
			if err := s.Add(cm); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var wg sync.WaitGroup
		var reps []*replica
		leaderCtx := map[string]context.CancelFunc{}
		for _, id := range []string{"r0", "r1"} {
			c, link := memClient(t, s)
			reads := &fullReads{rt: link.rt}
			link.rt = reads
			inf, err := informer.New(client.For[*corev1.ConfigMap](c).Namespace("default"), informer.Options[*corev1.ConfigMap]{})
			if err != nil {
				t.Fatal(err)
			}
			r := &replica{id: id, reads: reads, inf: inf}
			wg.Go(func() { _ = r.inf.Run(ctx) })
			if err := r.inf.WaitForSync(ctx); err != nil {
				t.Fatal(err)
			}
			el, err := leaderelection.New(c, leaderelection.Config{
				Namespace: "default", Name: "le-test", Identity: id,
				LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry,
				Callbacks: leaderelection.Callbacks{OnStartedLeading: func(ctx context.Context) {
					r.mu.Lock()
					r.started = true
					r.atStart.synced, r.atStart.cached, r.atStart.reads = r.inf.HasSynced(), r.inf.Store().Len(), r.reads.n.Load()
					r.mu.Unlock()
					// The worker: leaves a mark the standby's cache must see.
					mark := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "led-by-" + id}}
					_, _ = client.For[*corev1.ConfigMap](c).Create(ctx, mark, client.CreateOptions{})
					<-ctx.Done()
				}},
			})
			if err != nil {
				t.Fatal(err)
			}
			r.el = el
			rctx, rcancel := context.WithCancel(ctx)
			leaderCtx[id] = rcancel
			wg.Go(func() { _ = el.Run(rctx) })
			synctest.Wait()
			reps = append(reps, r)
		}
		if !reps[0].el.IsLeader() {
			t.Fatal("r0 does not lead")
		}
		leaderCtx["r0"]() // graceful hand-over
		synctest.Wait()
		r1 := reps[1]
		r1.mu.Lock()
		got := r1.atStart
		started := r1.started
		r1.mu.Unlock()
		if !started {
			t.Fatal("r1 did not take over")
		}
		if !got.synced || got.cached != 51 {
			t.Errorf("r1's worker started with synced=%v and %d cached ConfigMaps, want a synced cache of 51 (50 and r0's mark)", got.synced, got.cached)
		}
		if got.reads != 1 || r1.reads.n.Load() != 1 {
			t.Errorf("r1 read the whole collection %d times before leading and %d in all, want once (its initial sync)", got.reads, r1.reads.n.Load())
		}
		cancel()
		wg.Wait()
	})
}
