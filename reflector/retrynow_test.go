package reflector_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/reflector"
)

// downSource fails every request, as a server that is not there, while
// down is set, and counts the attempts.
type downSource struct {
	*client.Resource[*corev1.ConfigMap]
	mu       sync.Mutex
	down     bool
	attempts []time.Time
}

var errRefused = errors.New("dial tcp 127.0.0.1:6443: connect: connection refused")

func (d *downSource) note() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.attempts = append(d.attempts, time.Now())
	return d.down
}

func (d *downSource) set(down bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.down = down
}

func (d *downSource) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.attempts)
}

func (d *downSource) List(ctx context.Context, opts client.ListOptions) (*client.List[*corev1.ConfigMap], error) {
	if d.note() {
		return nil, errRefused
	}
	return d.Resource.List(ctx, opts)
}

func (d *downSource) Watch(ctx context.Context, opts client.WatchOptions) (*client.Watcher[*corev1.ConfigMap], error) {
	if d.note() {
		return nil, errRefused
	}
	return d.Resource.Watch(ctx, opts)
}

// After a long outage the backoff has grown to MaxBackoff; RetryNow
// makes the Reflector try again at once, resuming its watch.
func TestRetryNowAfterOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 5, fake.Options{})
		src := &downSource{Resource: e.res}
		st := newCheckStore(e.obs)
		r := newReflector(t, src, st, reflector.Options{})
		defer start(t, r)()
		if err := r.WaitForSync(t.Context()); err != nil {
			t.Fatal(err)
		}
		// A change seen through the watch: the server holds the watch
		// that DropWatches below drops (the list alone syncs the store).
		create(t, e.obs, 1000)
		waitInSync(t, st, e.obs, time.Minute)
		src.set(true)
		e.s.Faults().DropWatches()
		time.Sleep(3 * time.Minute) // the backoff reaches MaxBackoff
		src.set(false)
		e.changeSome(t)
		n := src.count()
		r.RetryNow()
		synctest.Wait()
		if src.count() == n {
			t.Fatal("no attempt right after RetryNow")
		}
		waitInSync(t, st, e.obs, time.Second)
		if got := r.Relists(); got != 1 {
			t.Errorf("%d full states, want the first only (the watch resumes)", got)
		}
		st.verify(t)
	})
}

// RetryNow does not cut short a wait the server asked for.
func TestRetryNowKeepsServerWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 5, fake.Options{})
		st := newCheckStore(e.obs)
		r, stop := e.run(t, st, reflector.Options{})
		defer stop()
		if err := r.WaitForSync(t.Context()); err != nil {
			t.Fatal(err)
		}
		// A change seen through the watch: the server holds the watch
		// that DropWatches below drops (the list alone syncs the store).
		create(t, e.obs, 1000)
		waitInSync(t, st, e.obs, time.Minute)
		watches := len(e.tap.requests("watch"))
		e.s.Faults().FailNext(1, http.StatusTooManyRequests, 5*time.Second)
		e.s.Faults().DropWatches()
		reqs := e.tap.waitRequests(t, watches+1, "watch")
		refused := reqs[len(reqs)-1]
		time.Sleep(time.Second)
		r.RetryNow()
		reqs = e.tap.waitRequests(t, watches+2, "watch")
		if gap := reqs[len(reqs)-1].at.Sub(refused.at); gap < 5*time.Second {
			t.Errorf("the watch was tried again %v after a 429 asking for 5s", gap)
		}
	})
}
