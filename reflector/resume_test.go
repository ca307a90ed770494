package reflector_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/reflector"
)

// runHostile runs a Reflector of h's ConfigMaps into store for d of the
// bubble's time, then stops it.
func runHostile(t *testing.T, h *hostile, store reflector.Store[*corev1.ConfigMap], opts reflector.Options, d time.Duration) *reflector.Reflector[*corev1.ConfigMap] {
	t.Helper()
	opts.DisableWatchList = !opts.WatchList
	r := newReflector(t, reflector.Source[*corev1.ConfigMap](h.resource(t)), store, opts)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	time.Sleep(d)
	cancel()
	<-done
	return r
}

func modified(name, rv string) string {
	return fmt.Sprintf(`{"type":"MODIFIED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":"default","resourceVersion":%q},"data":{"v":%q}}}`+"\n", name, rv, rv)
}

// A watch that delivered a newer resourceVersion and ended is resumed
// at once from it, as client-go does: a server (or proxy) that ends
// watches often adds no latency to the events after. Before, each
// resume waited up to 250 ms.
func TestWatchEndedAfterProgressResumesAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list: func(url.Values) string { return fixture(t, "list-rv5.json") },
			watch: func(n int, _ url.Values) (string, bool) {
				if n >= 20 {
					return "", true
				}
				return modified("a", fmt.Sprint(6+n)), false
			},
		}
		st := newMapStore[*corev1.ConfigMap]()
		runHostile(t, h, st, reflector.Options{}, time.Minute)
		w := h.watchRequests()
		if len(w) != 21 {
			t.Fatalf("%d watches, want 21", len(w))
		}
		for i, r := range w {
			if want := fmt.Sprint(5 + i); r.q.Get("resourceVersion") != want {
				t.Errorf("watch %d from %q, want %s", i, r.q.Get("resourceVersion"), want)
			}
		}
		for i, g := range requestGaps(w) {
			if g != 0 {
				t.Errorf("watch %d resumed %v after the one before ended, want at once", i+1, g)
			}
		}
	})
}

// A server that ends every watch after an event that does not move the
// resourceVersion on (here the object at the list's version, again) is
// not asked again and again in a hot loop: with no progress, the
// resumes back off, growing to MaxBackoff. Before, it was asked every
// 250 ms at most, forever.
func TestWatchEndedWithoutProgressBacksOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list:  func(url.Values) string { return fixture(t, "list-rv5.json") },
			watch: func(int, url.Values) (string, bool) { return modified("a", "5"), false },
		}
		st := newMapStore[*corev1.ConfigMap]()
		runHostile(t, h, st, reflector.Options{MaxBackoff: 10 * time.Second}, 5*time.Minute)
		w := h.watchRequests()
		// 0.4-1.2 s growing to 10 s: about 35 in five minutes.
		if len(w) > 60 {
			t.Errorf("%d watches in five minutes from a server that ends each with no progress, want a backoff", len(w))
		}
		gs := requestGaps(w)
		for i, g := range gs {
			if g > 10*time.Second+time.Millisecond {
				t.Errorf("resume %d waited %v, more than MaxBackoff", i+1, g)
			}
		}
		if len(gs) > 10 && gs[len(gs)-1] < 2*time.Second {
			t.Errorf("the last resume waited %v; the backoff did not grow", gs[len(gs)-1])
		}
	})
}

// A server that ends every watch at once with nothing sent is asked
// again after a growing backoff, not in a hot loop (probed: already so).
func TestWatchEndedAtOnceBacksOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list:  func(url.Values) string { return fixture(t, "list-rv5.json") },
			watch: func(int, url.Values) (string, bool) { return "", false },
		}
		st := newMapStore[*corev1.ConfigMap]()
		r := runHostile(t, h, st, reflector.Options{MaxBackoff: 10 * time.Second}, 5*time.Minute)
		if n := len(h.watchRequests()); n > 60 {
			t.Errorf("%d watches in five minutes from a server that ends each at once, want a backoff", n)
		}
		_ = r
	})
}

// A server that sends one bookmark with a newer resourceVersion and
// closes each watch is not asked again at once, in a loop as fast as
// it answers: bookmarks alone are not events to hurry for, and the
// resumes back off. Before, each bookmark's watch was resumed at once
// (500 watches at the bubble's first instant here).
func TestWatchEndedAfterBookmarkOnlyBacksOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list: func(url.Values) string { return fixture(t, "list-rv5.json") },
			watch: func(n int, _ url.Values) (string, bool) {
				if n >= 500 {
					return "", true
				}
				return fmt.Sprintf(`{"type":"BOOKMARK","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion":"%d"}}}`+"\n", 6+n), false
			},
		}
		st := newMapStore[*corev1.ConfigMap]()
		runHostile(t, h, st, reflector.Options{MaxBackoff: 10 * time.Second}, 5*time.Minute)
		w := h.watchRequests()
		if len(w) > 60 {
			t.Errorf("%d watches in five minutes from a server that sends a bookmark and closes, want a backoff", len(w))
		}
		for i, r := range w {
			if want := fmt.Sprint(5 + i); r.q.Get("resourceVersion") != want {
				t.Errorf("watch %d from %s, want %s: each from the last bookmark", i, r.q.Get("resourceVersion"), want)
				break
			}
		}
	})
}
