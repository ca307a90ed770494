package reflector_test

import (
	"context"
	"errors"
	"runtime/pprof"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// start runs r until the test ends (or stop is called) and checks that
// Run returns ctx's error.
func start(t *testing.T, r *reflector.Reflector[*corev1.ConfigMap]) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run returned %v, want context.Canceled", err)
		}
		if s := r.State(); s != reflector.Stopped {
			t.Errorf("state after Run: %v, want Stopped", s)
		}
	}
	t.Cleanup(stop)
	return stop
}

func create(t *testing.T, res *client.Resource[*corev1.ConfigMap], i int) {
	t.Helper()
	if _, err := res.Create(context.Background(), configMap("default", i), client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestInitialSyncWatchList(t *testing.T) {
	_, res := netServer(t, 25)
	src := &countingSource{Resource: res}
	st := newMapStore[*corev1.ConfigMap]()
	r := newReflector(t, src, st, reflector.Options{WatchList: true})
	start(t, r)
	waitInSync(t, st, res, 10*time.Second)
	create(t, res, 100)
	waitInSync(t, st, res, 10*time.Second)
	if wl, w := src.counts(); wl != 1 || len(w) != 0 {
		t.Errorf("%d streaming lists and watches %q, want one streaming list and no other watch", wl, w)
	}
	if n := r.Relists(); n != 1 {
		t.Errorf("%d relists, want 1", n)
	}
}

// After Run returns, none of the goroutines it started is left.
func TestRunLeavesNoGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, res := memServer(t, 5)
		st := newMapStore[*corev1.ConfigMap]()
		r := newReflector(t, res, st, reflector.Options{})
		stop := start(t, r)
		waitInSync(t, st, res, time.Minute)
		s.Faults().DropWatches()
		time.Sleep(time.Second)
		stop()
		synctest.Wait()
		var b strings.Builder
		if err := pprof.Lookup("goroutine").WriteTo(&b, 1); err != nil {
			t.Fatal(err)
		}
		for _, pkg := range []string{"kubewire/reflector.", "kubewire/pager.", "kubewire/client."} {
			if strings.Contains(b.String(), pkg) {
				t.Errorf("goroutine in %s left after Run returned:\n%s", pkg, b.String())
			}
		}
	})
}
