package reflector_test

import (
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/reflector"
)

// thirtyOneYears is a wait a server (or a proxy) may ask for.
const thirtyOneYears = 1_000_000_000 * time.Second

// refuseNextWatches answers the next n plain watches with st.
func refuseNextWatches(n int, st func() *metav1.Status) func(request) *metav1.Status {
	var left atomic.Int64
	left.Store(int64(n))
	return func(r request) *metav1.Status {
		if r.kind == "watch" && left.Add(-1) >= 0 {
			return st()
		}
		return nil
	}
}

// Every wait the server asks for is bounded by MaxServerWait: a 429's
// Retry-After (header, or only retryAfterSeconds in the Status), and
// "too large resource version"'s. A Retry-After of 0 is the usual
// backoff.
func TestServerWaitsAreBounded(t *testing.T) {
	tooLarge := func(secs int32) func() *metav1.Status {
		return func() *metav1.Status {
			return &metav1.Status{Code: http.StatusGatewayTimeout, Reason: "Timeout", Message: "Too large resource version",
				Details: &metav1.StatusDetails{RetryAfterSeconds: secs, Causes: []metav1.StatusCause{{Type: "ResourceVersionTooLarge", Message: "Too large resource version"}}}}
		}
	}
	tooMany := func(secs int32) func() *metav1.Status {
		return func() *metav1.Status {
			return &metav1.Status{Code: http.StatusTooManyRequests, Reason: "TooManyRequests", Message: "slow down",
				Details: &metav1.StatusDetails{RetryAfterSeconds: secs}}
		}
	}
	tests := []struct {
		name     string
		opts     reflector.Options
		inject   func(e *env)
		min, max time.Duration // the wait before the next watch
	}{
		{"429 with Retry-After of 31 years", reflector.Options{},
			func(e *env) { e.s.Faults().FailNext(1, http.StatusTooManyRequests, thirtyOneYears) },
			time.Minute, time.Minute},
		{"429 with Retry-After of 31 years, MaxServerWait 5s", reflector.Options{MaxServerWait: 5 * time.Second},
			func(e *env) { e.s.Faults().FailNext(1, http.StatusTooManyRequests, thirtyOneYears) },
			5 * time.Second, 5 * time.Second},
		{"retryAfterSeconds of 31 years in the Status only", reflector.Options{},
			func(e *env) { e.tap.setRefuse(refuseNextWatches(1, tooMany(1_000_000_000))) },
			time.Minute, time.Minute},
		{"too large resource version asking 31 years", reflector.Options{},
			func(e *env) { e.tap.setRefuse(refuseNextWatches(1, tooLarge(1_000_000_000))) },
			time.Minute, time.Minute},
		{"Retry-After 0 is the usual backoff", reflector.Options{},
			func(e *env) { e.tap.setRefuse(refuseNextWatches(1, tooMany(0))) },
			400 * time.Millisecond, 1200 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 5, fake.Options{})
				st := newCheckStore(e.obs)
				opts := tt.opts
				opts.Logger = testLogger(t)
				_, stop := e.run(t, st, opts)
				waitInSync(t, st, e.obs, time.Minute)
				create(t, e.obs, 50) // the watch delivers: its end is not a failure
				waitInSync(t, st, e.obs, time.Minute)
				n := len(e.tap.requests("watch"))
				tt.inject(e)
				e.s.Faults().DropWatches()
				w := e.tap.waitRequests(t, n+2, "watch")
				stop()
				if w[n].code == http.StatusOK {
					t.Fatalf("watches %v: the fault did not hit the resumed watch", w[n:])
				}
				if d := w[n+1].at.Sub(w[n].at); d < tt.min || d > tt.max {
					t.Errorf("waited %v after the server asked, want within [%v, %v]", d, tt.min, tt.max)
				}
			})
		})
	}
}

// No wait after a failure is longer than MaxBackoff, jitter included,
// and waits at the top still differ.
func TestBackoffNeverPassesMax(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 5, fake.Options{})
		st := newCheckStore(e.obs)
		_, stop := e.run(t, st, reflector.Options{MaxBackoff: 30 * time.Second})
		waitInSync(t, st, e.obs, time.Minute)
		// A change seen through the watch: the server holds the watch
		// that DropWatches below drops (the list alone syncs the store).
		create(t, e.obs, 1000)
		waitInSync(t, st, e.obs, time.Minute)
		n := len(e.tap.requests("watch"))
		const failures = 30
		e.tap.setRefuse(refuseNextWatches(failures, func() *metav1.Status {
			return &metav1.Status{Code: http.StatusServiceUnavailable, Reason: "ServiceUnavailable", Message: "busy"}
		}))
		e.s.Faults().DropWatches()
		deadline := time.Now().Add(time.Hour)
		for len(e.tap.requests("watch")) < n+failures+1 && time.Now().Before(deadline) {
			time.Sleep(time.Second)
		}
		stop()
		g := gaps(e.tap.requests("watch")[n : n+failures+1])
		var top []time.Duration
		for i, d := range g {
			if d > 30*time.Second {
				t.Errorf("wait %d: %v, longer than MaxBackoff (30s); all: %v", i, d, g)
			}
			if i >= 10 {
				top = append(top, d)
			}
		}
		spread := false
		for _, d := range top {
			spread = spread || d != top[0]
		}
		if !spread || top[0] < 10*time.Second {
			t.Errorf("waits at the top %v: want jittered waits within [10s, 30s]", top)
		}
	})
}

// A watch that ends the way healthy watches end (the server closed it,
// a graceful GOAWAY, a connection lost) after delivering events resumes
// at once, however often it happens: no backoff builds up.
func TestCleanEndsResumeAtOnce(t *testing.T) {
	goaway := errors.New(`http2: server sent GOAWAY and closed the connection; LastStreamID=5, ErrCode=NO_ERROR, debug=""`)
	tests := []struct {
		name string
		end  func(e *env)
	}{
		{"connection lost", func(e *env) { e.tap.breakOpenWatches(io.ErrUnexpectedEOF) }},
		{"graceful GOAWAY", func(e *env) { e.tap.breakOpenWatches(goaway) }},
		{"server closed it", func(e *env) { e.s.Faults().DropWatches() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 5, fake.Options{})
				st := newCheckStore(e.obs)
				_, stop := e.run(t, st, reflector.Options{})
				waitInSync(t, st, e.obs, time.Minute)
				for i := range 3 { // three rolling restarts
					create(t, e.obs, 200+i)
					waitInSync(t, st, e.obs, time.Minute) // the watch delivered
					n := len(e.tap.requests("watch"))
					ended := time.Now()
					tt.end(e)
					w := e.tap.waitRequests(t, n+1, "watch")
					if d := w[n].at.Sub(ended); d > 250*time.Millisecond {
						t.Errorf("end %d: the watch resumed %v later, want within 250ms", i+1, d)
					}
				}
				stop()
				st.verify(t)
				resumedFromVersion(t, e, nil)
			})
		})
	}
}

// A watch that delivered events resets the backoff: the next failure
// waits the first wait again, not the next of an earlier run of
// failures.
func TestBackoffResetsAfterDelivery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 5, fake.Options{})
		st := newCheckStore(e.obs)
		_, stop := e.run(t, st, reflector.Options{})
		waitInSync(t, st, e.obs, time.Minute)
		// A change seen through the watch: the server holds the watch
		// DropWatches drops (the list alone syncs the store).
		create(t, e.obs, 299)
		waitInSync(t, st, e.obs, time.Minute)
		busy := func() *metav1.Status {
			return &metav1.Status{Code: http.StatusServiceUnavailable, Reason: "ServiceUnavailable", Message: "busy"}
		}
		n := len(e.tap.requests("watch"))
		e.tap.setRefuse(refuseNextWatches(4, busy)) // waits grow to about 6.4s
		e.s.Faults().DropWatches()
		e.tap.waitRequests(t, n+5, "watch")
		create(t, e.obs, 300)
		waitInSync(t, st, e.obs, time.Minute) // the fifth watch delivered
		n = len(e.tap.requests("watch"))
		e.tap.setRefuse(refuseNextWatches(1, busy))
		e.tap.breakOpenWatches(io.ErrUnexpectedEOF) // resumed at once, refused
		w := e.tap.waitRequests(t, n+2, "watch")
		stop()
		if d := w[n+1].at.Sub(w[n].at); d > 1200*time.Millisecond {
			t.Errorf("waited %v after a failure following a watch that delivered, want the first wait (at most 1.2s)", d)
		}
	})
}

// With default options every stall ends: a watch request the server
// never answers, and a watch that stops delivering, are each given up
// after DefaultIdleTimeout and resumed.
func TestDefaultIdleTimeout(t *testing.T) {
	tests := []struct {
		name  string
		stall func(e *env)
		after time.Duration // the longest wait after the idle timeout
	}{
		// A request without an answer failed: the first backoff follows.
		{"no answer", func(e *env) {
			e.tap.hangWatches(1)
			e.tap.breakOpenWatches(io.ErrUnexpectedEOF)
		}, 1200 * time.Millisecond},
		// A watch that went quiet ended: it resumes at once.
		{"no bytes", func(e *env) { e.tap.stallOpenWatches() }, 250 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Bookmarks every 10 minutes: none comes to a stalled watch
			// before the idle timeout.
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 5, fake.Options{BookmarkInterval: 10 * time.Minute})
				st := newCheckStore(e.obs)
				_, stop := e.run(t, st, reflector.Options{})
				waitInSync(t, st, e.obs, time.Minute)
				create(t, e.obs, 50) // the watch delivers: its end is not a failure
				waitInSync(t, st, e.obs, time.Minute)
				n := len(e.tap.requests("watch", "watch-list"))
				tt.stall(e)
				// The idle timer starts at the watch's last event, not
				// when this goroutine saw the store in sync (up to one
				// poll later): measure from the last bytes delivered.
				stalled := e.tap.lastDelivery()
				if tt.name == "no answer" {
					stalled = e.tap.waitRequests(t, n+1, "watch", "watch-list")[n].at
					n++
				}
				deadline := time.Now().Add(10 * time.Minute)
				for len(e.tap.requests("watch", "watch-list")) < n+1 && time.Now().Before(deadline) {
					time.Sleep(time.Second)
				}
				reqs := e.tap.requests("watch", "watch-list")
				if len(reqs) < n+1 {
					t.Fatalf("no watch after the stall within 10 minutes:\n%v", reqs)
				}
				if d := reqs[n].at.Sub(stalled); d < reflector.DefaultIdleTimeout || d > reflector.DefaultIdleTimeout+tt.after {
					t.Errorf("the stalled watch was given up %v after the stall, want DefaultIdleTimeout (%v) and at most %v", d, reflector.DefaultIdleTimeout, tt.after)
				}
				create(t, e.obs, 400)
				waitInSync(t, st, e.obs, time.Minute)
				stop()
				st.verify(t)
			})
		})
	}
}
