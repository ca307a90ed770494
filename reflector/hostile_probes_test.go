package reflector_test

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// runHostileErr is runHostile that also returns Err as it was just
// before the Reflector stopped.
func runHostileErr(t *testing.T, h *hostile, store reflector.Store[*corev1.ConfigMap], opts reflector.Options, d time.Duration) (*reflector.Reflector[*corev1.ConfigMap], error) {
	t.Helper()
	opts.DisableWatchList = !opts.WatchList
	r := newReflector(t, reflector.Source[*corev1.ConfigMap](h.resource(t)), store, opts)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	time.Sleep(d)
	err := r.Err()
	cancel()
	<-done
	return r, err
}

// An ERROR event mid-watch: a 403 (RBAC changed under a running
// watch) is a refusal the program sees in Err at once, and the next
// request is a list, never the same watch again; a 500 resumes the
// watch from the same version after a growing wait, and is a
// persistent failure after three in a row; a 429 with
// retryAfterSeconds resumes after exactly that wait. Probed: already so.
func TestWatchErrorEvents(t *testing.T) {
	t.Run("403", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := &hostile{
				list:  func(url.Values) string { return fixture(t, "list-rv5.json") },
				watch: func(int, url.Values) (string, bool) { return fixture(t, "watch-forbidden.jsonl"), false },
			}
			st := newMapStore[*corev1.ConfigMap]()
			_, err := runHostileErr(t, h, st, reflector.Options{}, 2*time.Second)
			if !errors.Is(err, client.ErrForbidden) {
				t.Errorf("Err = %v, want ErrForbidden", err)
			}
			w, l := h.watchRequests(), h.listRequests()
			if len(l) < 2 || len(w) < 1 || !l[1].at.After(w[0].at) && len(w) > 1 && w[1].at.Before(l[1].at) {
				t.Errorf("%d watches and %d lists, want a list after the refused watch", len(w), len(l))
			}
			for _, r := range w {
				if r.q.Get("resourceVersion") != "5" {
					t.Errorf("a watch from %s: the refused watch was resumed instead of relisting", r.q.Get("resourceVersion"))
				}
			}
		})
	})
	t.Run("500", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := &hostile{
				list:  func(url.Values) string { return fixture(t, "list-rv5.json") },
				watch: func(int, url.Values) (string, bool) { return fixture(t, "watch-internal-error.jsonl"), false },
			}
			st := newMapStore[*corev1.ConfigMap]()
			_, err := runHostileErr(t, h, st, reflector.Options{MaxBackoff: 4 * time.Second}, time.Minute)
			if !errors.Is(err, client.ErrInternal) {
				t.Errorf("Err = %v, want the 500 as a persistent failure", err)
			}
			w := h.watchRequests()
			if len(w) > 30 {
				t.Errorf("%d watches in a minute, want a backoff", len(w))
			}
			for _, r := range w {
				if r.q.Get("resourceVersion") != "5" {
					t.Errorf("a watch from %q, want each from 5", r.q.Get("resourceVersion"))
				}
			}
		})
	})
	t.Run("429", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := &hostile{
				list: func(url.Values) string { return fixture(t, "list-rv5.json") },
				watch: func(n int, _ url.Values) (string, bool) {
					if n == 0 {
						return fixture(t, "watch-too-many-requests.jsonl"), false
					}
					return "", true
				},
			}
			st := newMapStore[*corev1.ConfigMap]()
			_, err := runHostileErr(t, h, st, reflector.Options{}, time.Minute)
			if err != nil {
				t.Errorf("Err = %v after one 429", err)
			}
			w := h.watchRequests()
			if len(w) != 2 || w[1].at.Sub(w[0].at) != 3*time.Second || w[1].q.Get("resourceVersion") != "5" {
				t.Errorf("watches %v, want the second from 5, 3 s after the first", w)
			}
		})
	})
}

// Watch events that lie about their object are not applied: the watch
// ends as malformed and resumes from the version before them. An object
// of another kind was refused already; one of another namespace than
// the watch's was stored (a cache of default held kube-system's
// object), and a bookmark whose resourceVersion is not a number after
// numbers was the next watch's version.
func TestWatchEventsLyingAboutTheirObject(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		stray   string
	}{
		{"watch-other-kind.jsonl", "default/s"},
		{"watch-other-namespace.jsonl", "kube-system/x"},
		{"watch-bookmark-not-a-number.jsonl", ""},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := &hostile{
					list: func(url.Values) string { return fixture(t, "list-rv5.json") },
					watch: func(n int, _ url.Values) (string, bool) {
						if n == 0 {
							return fixture(t, tc.fixture), false
						}
						return "", true
					},
				}
				st := newMapStore[*corev1.ConfigMap]()
				runHostile(t, h, st, reflector.Options{}, time.Minute)
				if v := st.versions(); len(v) != 1 || v["default/a"] != "4" {
					t.Errorf("store %v, want only default/a at 4", v)
				}
				w := h.watchRequests()
				if len(w) != 2 || w[1].q.Get("resourceVersion") != "5" {
					t.Errorf("%d watches, the second from %q; want two, the second from 5", len(w), w[len(w)-1].q.Get("resourceVersion"))
				}
			})
		})
	}
}

// A streaming list whose end bookmark never comes is given up after
// WatchListTimeout for list-then-watch, and the store syncs from the
// list; one whose end bookmark comes first (an empty collection) syncs
// an empty store at once, and a second end bookmark later is a plain
// bookmark. Probed: already so.
func TestStreamingListEndBookmark(t *testing.T) {
	t.Run("never", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := &hostile{
				list: func(url.Values) string { return fixture(t, "list-rv5.json") },
				watch: func(n int, _ url.Values) (string, bool) {
					if n == 0 {
						return fixture(t, "watchlist-no-end.jsonl"), true
					}
					return "", true
				},
			}
			st := newMapStore[*corev1.ConfigMap]()
			r, err := runHostileErr(t, h, st, reflector.Options{WatchList: true, WatchListTimeout: 20 * time.Second}, time.Minute)
			if err != nil {
				t.Errorf("Err = %v, want none: list-then-watch works", err)
			}
			w, l := h.watchRequests(), h.listRequests()
			if len(l) != 1 || l[0].at.Sub(w[0].at) != 20*time.Second {
				t.Fatalf("lists %v after the streaming list at %v, want one 20 s after", l, w[0].at)
			}
			if v := st.versions(); v["default/a"] != "4" || r.Relists() != 2 {
				t.Errorf("store %v after %d full states, want a at 4 after two", v, r.Relists())
			}
		})
	})
	t.Run("first", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			h := &hostile{
				list: func(url.Values) string { return fixture(t, "list-rv5.json") },
				watch: func(n int, _ url.Values) (string, bool) {
					if n == 0 {
						return fixture(t, "watchlist-end-first.jsonl"), true
					}
					return "", true
				},
			}
			st := newMapStore[*corev1.ConfigMap]()
			r, err := runHostileErr(t, h, st, reflector.Options{WatchList: true}, time.Minute)
			if err != nil {
				t.Errorf("Err = %v", err)
			}
			if v := st.versions(); len(v) != 1 || v["default/a"] != "6" || r.Relists() != 1 || len(h.watchRequests()) != 1 {
				t.Errorf("store %v after %d full states and %d watches, want a at 6 after one of each", v, r.Relists(), len(h.watchRequests()))
			}
		})
	})
}

// A watch answered 200 that then sends nothing at all, not a byte, is
// ended after Options.IdleTimeout (default three minutes;
// kube-apiserver sends a bookmark about once a minute) and resumed at
// once from the same version. Before, the resume waited up to 250 ms
// more.
func TestWatchSilentForever(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list:  func(url.Values) string { return fixture(t, "list-rv5.json") },
			watch: func(int, url.Values) (string, bool) { return "", true },
		}
		st := newMapStore[*corev1.ConfigMap]()
		_, err := runHostileErr(t, h, st, reflector.Options{}, 10*time.Minute)
		if err != nil {
			t.Errorf("Err = %v", err)
		}
		w := h.watchRequests()
		if len(w) != 4 {
			t.Fatalf("%d watches in ten minutes, want 4", len(w))
		}
		for i, g := range requestGaps(w) {
			if g != reflector.DefaultIdleTimeout || w[i+1].q.Get("resourceVersion") != "5" {
				t.Errorf("watch %d from %q, %v after the one before; want from 5, %v after", i+1, w[i+1].q.Get("resourceVersion"), g, reflector.DefaultIdleTimeout)
			}
		}
	})
}

// A bookmark larger than Config.MaxWatchEventBytes (a bookmark is
// metadata; this one carries a megabyte of annotations) ends its watch
// as malformed without being read whole; a server that sends it on
// every watch is asked again after a growing wait from the same
// version, and is a persistent failure the program sees in Err. A large
// bookmark within the limit is a bookmark. Probed: already so.
func TestHugeBookmark(t *testing.T) {
	huge := `{"type":"BOOKMARK","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion":"7","annotations":{"x":"` + strings.Repeat("x", 1<<20) + `"}}}}` + "\n"
	for _, tc := range []struct {
		name  string
		limit int
	}{{"over the limit", 512 << 10}, {"within the limit", 2 << 20}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := &hostile{
					list: func(url.Values) string { return fixture(t, "list-rv5.json") },
					watch: func(n int, _ url.Values) (string, bool) {
						return huge, n > 0 && tc.limit > 1<<20
					},
				}
				c, err := client.New(client.Config{Host: "http://hostile", QPS: -1, Transport: h, MaxWatchEventBytes: tc.limit})
				if err != nil {
					t.Fatal(err)
				}
				st := &bookmarkStore{mapStore: newMapStore[*corev1.ConfigMap]()}
				r := newReflector(t, reflector.Source[*corev1.ConfigMap](client.For[*corev1.ConfigMap](c).Namespace("default")), st, reflector.Options{DisableWatchList: true, MaxBackoff: 5 * time.Second})
				ctx, cancel := context.WithCancel(t.Context())
				done := make(chan error, 1)
				go func() { done <- r.Run(ctx) }()
				time.Sleep(time.Minute)
				err = r.Err()
				cancel()
				<-done
				w := h.watchRequests()
				if tc.limit > 1<<20 {
					if err != nil || len(w) != 2 || w[1].q.Get("resourceVersion") != "7" {
						t.Errorf("Err %v, %d watches, the last from %s; want none, 2, from 7", err, len(w), w[len(w)-1].q.Get("resourceVersion"))
					}
					return
				}
				if !errors.Is(err, client.ErrMalformed) || len(w) > 30 {
					t.Errorf("Err %v after %d watches, want ErrMalformed after a backoff", err, len(w))
				}
				for _, r := range w {
					if r.q.Get("resourceVersion") != "5" {
						t.Errorf("a watch from %s, want each from 5", r.q.Get("resourceVersion"))
					}
				}
			})
		})
	}
}

// A paged list whose server answers every page with the same continue
// token is not followed forever: the pager ends it, the store keeps
// what it had (Abort), the list is read again after a growing wait,
// and the program sees a persistent failure in Err. Probed: already so.
func TestPagedListContinueTokenRepeats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list:  func(url.Values) string { return fixture(t, "list-page-loop.json") },
			watch: func(int, url.Values) (string, bool) { return "", true },
		}
		st := newMapStore[*corev1.ConfigMap]()
		_, err := runHostileErr(t, h, st, reflector.Options{ListInPages: true, MaxBackoff: 5 * time.Second}, time.Minute)
		if err == nil {
			t.Error("Err = nil, want the looping list as a persistent failure")
		}
		if l := h.listRequests(); len(l) > 60 {
			t.Errorf("%d list requests in a minute, want a backoff", len(l))
		}
		if n := len(h.watchRequests()); n != 0 {
			t.Errorf("%d watches after lists that never ended", n)
		}
	})
}
