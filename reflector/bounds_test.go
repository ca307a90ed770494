package reflector_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/reflector"
)

// A collection larger than the client's MaxResponseBytes syncs: no full
// state is read in one answer the client refuses. The list from the
// watch cache (one answer) falls back to pages at once, and an expired
// continue token restarts the list in pages, not in one unpaged request.
func TestCollectionLargerThanOneAnswer(t *testing.T) {
	tests := []struct {
		name   string
		opts   reflector.Options
		onItem func(e *env, n int)
		// fromCache is how many lists ask for the whole collection in
		// one answer (resourceVersion 0: the watch cache ignores the
		// limit).
		fromCache int
	}{
		{
			name:      "list from the watch cache",
			opts:      reflector.Options{InitialListFromCache: true, PageSize: 5},
			fromCache: 1, // refused, then pages
		},
		{
			name: "continue token expired after the first page",
			opts: reflector.Options{PageSize: 5},
			onItem: func(e *env, n int) {
				if n == 5 {
					e.once.Do(func() { compact(e) })
				}
			},
		},
		{
			name: "streaming list refused, continue token expired",
			opts: reflector.Options{WatchList: true, PageSize: 5},
			onItem: func(e *env, n int) {
				if n == 5 {
					e.once.Do(func() {
						e.s.Faults().SetWatchList(fake.WatchListRefused)
						compact(e)
					})
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 40, fake.Options{})
				if tt.name == "streaming list refused, continue token expired" {
					e.s.Faults().SetWatchList(fake.WatchListRefused)
				}
				// The Reflector's client refuses any answer holding more
				// than about 15 of the 40 ConfigMaps.
				cfg := fakeclient.Config(e.s)
				cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, e.tap
				cfg.MaxResponseBytes = 15 * pageBytes(t, e) / 5
				c, err := client.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				e.res = client.For[*corev1.ConfigMap](c).Namespace("default")
				st := newCheckStore(e.obs)
				if tt.onItem != nil {
					st.onItem = func(n int) { tt.onItem(e, n) }
				}
				opts := tt.opts
				opts.Logger = testLogger(t)
				// The pager's bounds; a streamed list too large for one
				// answer is TestPagesLargerThanOneAnswer's.
				opts.ListInPages = true
				r := newReflector(t, e.res, st, opts)
				stop := start(t, r)
				waitInSync(t, st, e.obs, time.Minute)
				e.changeSome(t)
				waitInSync(t, st, e.obs, time.Minute)
				if err := r.Err(); err != nil {
					t.Errorf("Err() = %v after the sync, want nil", err)
				}
				stop()
				st.verify(t)
				fromCache, unpaged := 0, 0
				for _, l := range e.tap.requests("list") {
					if l.rv == "0" {
						fromCache++
					} else if l.limit != "5" {
						unpaged++
					}
				}
				// Nothing waited: no retry of the refused answer, no backoff.
				lists, watches := e.tap.requests("list"), e.tap.requests("watch")
				if len(watches) == 0 || !watches[0].at.Equal(lists[0].at) {
					t.Errorf("the sync waited before its watch:\n%v", e.tap.requests())
				}
				if fromCache != tt.fromCache || unpaged > 0 {
					t.Errorf("%d lists from the cache (want %d), %d without the page size (want 0):\n%v", fromCache, tt.fromCache, unpaged, e.tap.requests())
				}
			})
		})
	}
}

// pageBytes is the size of a page of 5 ConfigMaps as the server sends it.
func pageBytes(t *testing.T, e *env) int64 {
	t.Helper()
	l, err := e.obs.List(t.Context(), client.ListOptions{Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, o := range l.Items {
		n += int64(o.Size())
	}
	return n + 200 // the list's envelope and metadata
}

// A collection too large for one answer, of objects too large for the
// default page size: the streamed list is refused as soon as its length
// is read, then a page the client refuses makes the Reflector list again
// at once in pages half as long, until one fits, and it syncs without
// backing off; the lists after it are paged.
func TestPagesLargerThanOneAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 40, fake.Options{})
		// The client refuses any answer holding more than about 15 of the
		// 40 ConfigMaps: pages of 500, 250, ..., 31 are refused.
		cfg := fakeclient.Config(e.s)
		cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, e.tap
		cfg.MaxResponseBytes = 15 * pageBytes(t, e) / 5
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		e.res = client.For[*corev1.ConfigMap](c).Namespace("default")
		st := newCheckStore(e.obs)
		r := newReflector(t, e.res, st, reflector.Options{Logger: testLogger(t)})
		stop := start(t, r)
		waitInSync(t, st, e.obs, time.Minute)
		e.changeSome(t)
		waitInSync(t, st, e.obs, time.Minute)
		if err := r.Err(); err != nil {
			t.Errorf("Err() = %v after the sync, want nil", err)
		}
		stop()
		st.verify(t)
		var limits []string
		for _, l := range e.tap.requests("list") {
			limits = append(limits, l.limit)
		}
		want := []string{"", "500", "250", "125", "62", "31", "15", "15", "15"}
		if diff := cmp.Diff(want, limits); diff != "" {
			t.Errorf("list limits (-want +got):\n%s", diff)
		}
		lists, watches := e.tap.requests("list"), e.tap.requests("watch")
		if len(watches) == 0 || !watches[0].at.Equal(lists[0].at) {
			t.Errorf("the sync waited before its watch:\n%v", e.tap.requests())
		}
	})
}
