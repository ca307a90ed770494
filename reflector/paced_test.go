package reflector_test

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/reflector"
)

// A server that keeps answering 429 with a Retry-After (as
// kube-apiserver does while its watch cache initializes after a
// restart) is asked again after exactly that wait, each time: the
// exponential backoff does not grow on top of it, so the Reflector is
// back within a second of the server.
func TestPacedByServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 5, fake.Options{})
		st := newCheckStore(e.obs)
		_, stop := e.run(t, st, reflector.Options{})
		waitInSync(t, st, e.obs, time.Minute)
		create(t, e.obs, 1000)
		waitInSync(t, st, e.obs, time.Minute)
		n := len(e.tap.requests("watch"))
		const answers = 8
		e.tap.setRefuse(refuseNextWatches(answers, func() *metav1.Status {
			return &metav1.Status{Code: http.StatusTooManyRequests, Reason: "TooManyRequests", Message: "storage is (re)initializing",
				Details: &metav1.StatusDetails{RetryAfterSeconds: 1}}
		}))
		e.s.Faults().DropWatches()
		w := e.tap.waitRequests(t, n+answers+1, "watch")
		stop()
		for i, g := range gaps(w[n : n+answers+1]) {
			if g < time.Second || g > 1100*time.Millisecond {
				t.Errorf("wait %d after a 429 asking for 1s: %v", i, g)
			}
		}
	})
}

// The waits a server paces do not grow the backoff: the failure after a
// run of them waits the first step of it.
func TestPacedWaitsDoNotGrowBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 5, fake.Options{})
		st := newCheckStore(e.obs)
		_, stop := e.run(t, st, reflector.Options{})
		waitInSync(t, st, e.obs, time.Minute)
		create(t, e.obs, 1000)
		waitInSync(t, st, e.obs, time.Minute)
		n := len(e.tap.requests("watch"))
		const paced = 6
		answers := 0
		e.tap.setRefuse(func(r request) *metav1.Status {
			if r.kind != "watch" || answers > paced {
				return nil
			}
			answers++
			if answers <= paced {
				return &metav1.Status{Code: http.StatusTooManyRequests, Reason: "TooManyRequests", Message: "storage is (re)initializing",
					Details: &metav1.StatusDetails{RetryAfterSeconds: 1}}
			}
			return &metav1.Status{Code: http.StatusServiceUnavailable, Reason: "ServiceUnavailable", Message: "busy"}
		})
		e.s.Faults().DropWatches()
		w := e.tap.waitRequests(t, n+paced+2, "watch")
		stop()
		if g := w[n+paced+1].at.Sub(w[n+paced].at); g > 1200*time.Millisecond {
			t.Errorf("waited %v after a 503 that followed %d paced 429s, want the first step of the backoff", g, paced)
		}
	})
}

// A streaming list the server ends midway (kube-apiserver closes the
// watcher of one that falls behind) is read again at once as a
// paginated list; the next full state streams again.
func TestBrokenStreamingListListedInPages(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 50, fake.Options{})
		st := newCheckStore(e.obs)
		e.s.Faults().DropWatchesAfter(10)
		r, stop := e.run(t, st, reflector.Options{WatchList: true})
		defer stop()
		if err := r.WaitForSync(t.Context()); err != nil {
			t.Fatal(err)
		}
		e.s.Faults().DropWatchesAfter(0)
		reqs := e.tap.requests("watch-list", "list")
		if len(reqs) < 2 || reqs[0].kind != "watch-list" || reqs[1].kind != "list" {
			t.Fatalf("full state reads %v, want a streaming list, then a list", reqs)
		}
		if g := reqs[1].at.Sub(reqs[0].at); g > 100*time.Millisecond {
			t.Errorf("the list came %v after the broken stream, want at once", g)
		}
		waitInSync(t, st, e.obs, time.Minute)
		compactWhileDropped(t, e)
		waitInSync(t, st, e.obs, time.Minute)
		if last := e.tap.requests("watch-list", "list"); last[len(last)-1].kind != "watch-list" {
			t.Errorf("the relist after a 410 was a %s, want a streaming list again", last[len(last)-1].kind)
		}
		st.verify(t)
	})
}
