package reflector_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/reflector"
)

// TransformStore's function reaches every object the store receives:
// list items, streaming-list items, and watch events, deletions
// included.
func TestTransform(t *testing.T) {
	for _, watchList := range []bool{true, false} {
		t.Run(fmt.Sprintf("watch-list=%v", watchList), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 10, fake.Options{})
				st := &transformedStore{mapStore: newMapStore[*corev1.ConfigMap]()}
				calls := 0
				trimmed := reflector.TransformStore(reflector.Store[*corev1.ConfigMap](st), func(cm *corev1.ConfigMap) *corev1.ConfigMap {
					calls++
					cm.Data = nil // the object's own field; the map itself is shared
					cm.Annotations = map[string]string{"transformed": "yes"}
					return cm
				})
				_, stop := e.run(t, trimmed, reflector.Options{WatchList: watchList})
				waitFor := func() {
					t.Helper()
					deadline := time.Now().Add(time.Minute)
					for st.count() != 12 || st.versions() == nil {
						if time.Now().After(deadline) {
							t.Fatalf("store has %d objects, want 12", st.count())
						}
						time.Sleep(100 * time.Millisecond)
					}
				}
				create(t, e.obs, 100)
				create(t, e.obs, 101)
				waitFor()
				e.changeSome(t) // 3 creates, an update, a delete
				deadline := time.Now().Add(time.Minute)
				for st.deletes() == 0 || st.count() != 14 {
					if time.Now().After(deadline) {
						t.Fatalf("store has %d objects and %d deletes, want 14 and 1", st.count(), st.deletes())
					}
					time.Sleep(100 * time.Millisecond)
				}
				stop()
				if bad := st.untransformed(); len(bad) > 0 {
					t.Errorf("objects the store received untransformed: %v", bad)
				}
				if calls < 12+5 {
					t.Errorf("Transform called %d times, want at least 17", calls)
				}
			})
		})
	}
}

// transformedStore is a mapStore that notes every object it receives
// that Transform did not touch.
type transformedStore struct {
	*mapStore[*corev1.ConfigMap]
	mu   sync.Mutex
	bad  []string
	dels int
}

func (s *transformedStore) see(what string, o *corev1.ConfigMap) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o.Annotations["transformed"] != "yes" || o.Data != nil {
		s.bad = append(s.bad, what+" "+key(o))
	}
	if what == "delete" {
		s.dels++
	}
}

func (s *transformedStore) Item(o *corev1.ConfigMap)   { s.see("item", o); s.mapStore.Item(o) }
func (s *transformedStore) Add(o *corev1.ConfigMap)    { s.see("add", o); s.mapStore.Add(o) }
func (s *transformedStore) Update(o *corev1.ConfigMap) { s.see("update", o); s.mapStore.Update(o) }
func (s *transformedStore) Delete(o *corev1.ConfigMap) { s.see("delete", o); s.mapStore.Delete(o) }

func (s *transformedStore) untransformed() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bad
}

func (s *transformedStore) deletes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dels
}

func (s *mapStore[T]) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.objs)
}

// InitialListFromCache asks for resourceVersion "0" only while the store
// has received nothing: the first list, or the list after a refused
// streaming list; a list after a streaming list that delivered items,
// and every relist, are consistent reads.
func TestInitialListFromCache(t *testing.T) {
	tests := []struct {
		name      string
		opts      reflector.Options
		setup     func(*fake.Server)
		wantFirst request // rv and limit of the first list
	}{
		{
			name:      "list-then-watch",
			opts:      reflector.Options{InitialListFromCache: true, PageSize: 5},
			wantFirst: request{rv: "0", limit: "5"},
		},
		{
			name:      "after a refused streaming list",
			opts:      reflector.Options{WatchList: true, InitialListFromCache: true, PageSize: 5},
			setup:     func(s *fake.Server) { s.Faults().SetWatchList(fake.WatchListRefused) },
			wantFirst: request{rv: "0", limit: "5"},
		},
		{
			name:      "after a streaming list given up midway",
			opts:      reflector.Options{WatchList: true, InitialListFromCache: true, PageSize: 5, WatchListTimeout: 5 * time.Second},
			setup:     func(s *fake.Server) { s.Faults().SetWatchList(fake.WatchListNoEndBookmark) },
			wantFirst: request{rv: "none", limit: "5"},
		},
		{
			name:      "off",
			opts:      reflector.Options{PageSize: 5},
			wantFirst: request{rv: "none", limit: "5"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t, 20, fake.Options{})
				if tt.setup != nil {
					tt.setup(e.s)
				}
				st := newCheckStore(e.obs)
				opts := tt.opts
				opts.ListInPages = true // the consistent lists are paged
				r, stop := e.run(t, st, opts)
				waitInSync(t, st, e.obs, time.Minute)
				first := e.tap.requests("list")
				// A 410 relists with a consistent read, in pages.
				compactWhileDropped(t, e)
				waitInSync(t, st, e.obs, time.Minute)
				stop()
				st.verify(t)
				lists := e.tap.requests("list")
				relist := lists[len(first):]
				pages := 4 // 20 objects in pages of 5
				if tt.wantFirst.rv == "0" {
					pages = 1 // the watch cache ignores the limit
				}
				if len(first) != pages || first[0].rv != tt.wantFirst.rv || first[0].limit != tt.wantFirst.limit {
					t.Errorf("first list %v, want %d requests, the first with rv=%s limit=%s", first, pages, tt.wantFirst.rv, tt.wantFirst.limit)
				}
				if len(relist) != 4 || relist[0].rv != "none" {
					t.Errorf("relist %v, want a consistent list in 4 pages", relist)
				}
				if n := r.Relists(); n < 2 {
					t.Errorf("%d relists, want at least 2", n)
				}
			})
		})
	}
}

// Metrics hears of lists, watch events, watch ends and waits, with the
// reason for each full state read.
func TestMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, 20, fake.Options{})
		e.s.Faults().SetWatchList(fake.WatchListRefused)
		st := newCheckStore(e.obs)
		m := &recordingMetrics{}
		_, stop := e.run(t, st, reflector.Options{WatchList: true, Metrics: m})
		waitInSync(t, st, e.obs, time.Minute)
		create(t, e.obs, 100)
		waitInSync(t, st, e.obs, time.Minute)
		// A 429 on the resumed watch, then a 410.
		n := len(e.tap.requests("watch"))
		e.s.Faults().FailNext(1, http.StatusTooManyRequests, 2*time.Second)
		e.s.Faults().DropWatches()
		e.tap.waitRequests(t, n+2, "watch")
		compactWhileDropped(t, e)
		waitInSync(t, st, e.obs, time.Minute)
		stop()

		want := []string{
			"list-started WatchListing initial",
			"list-done WatchListing 0 bad request",
			"list-started Listing watch-list-fallback",
			"list-done Listing 20 <nil>",
			"watch-event ADDED",
			"watch-ended 1 EOF",
			"watch-ended 0 too many requests",
			"backing-off 2s too many requests",
			"watch-ended 0 expired (410 gone)",
			"list-started Listing expired",
			"list-done Listing 21 <nil>",
		}
		got := m.events()
		// Drop what timing decides: whether the compaction ends the open
		// watch with a 410 or the drop ends it first (and the resuming
		// watch gets the 410), a backoff after a watch that ended quickly
		// with nothing delivered, and the end of the last watch.
		var kept []string
		for _, ev := range got {
			if ev == "watch-ended 0 EOF" || strings.HasPrefix(ev, "backing-off") && !strings.Contains(ev, "too many") {
				continue
			}
			kept = append(kept, ev)
		}
		if len(kept) > len(want) {
			kept = kept[:len(want)]
		}
		if diff := cmp.Diff(want, kept); diff != "" {
			t.Errorf("metrics (-want +got):\n%s\nall: %q", diff, got)
		}
	})
}

// recordingMetrics writes each call as a line, errors by the sentinel
// they match.
type recordingMetrics struct {
	mu  sync.Mutex
	evs []string
}

func (m *recordingMetrics) add(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.evs = append(m.evs, fmt.Sprintf(format, args...))
}

func (m *recordingMetrics) events() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.evs...)
}

func errName(err error) string {
	for _, s := range []error{client.ErrBadRequest, client.ErrTooManyRequests, client.ErrExpired, io.EOF} {
		if errors.Is(err, s) {
			return s.Error()
		}
	}
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func (m *recordingMetrics) ListStarted(how reflector.State, why reflector.Reason) {
	m.add("list-started %v %v", how, why)
}

func (m *recordingMetrics) ListDone(how reflector.State, items int, _ time.Duration, err error) {
	m.add("list-done %v %d %s", how, items, errName(err))
}

func (m *recordingMetrics) WatchEvent(typ client.EventType) { m.add("watch-event %s", typ) }

func (m *recordingMetrics) WatchEnded(_ time.Duration, events int, err error) {
	m.add("watch-ended %d %s", events, errName(err))
}

func (m *recordingMetrics) BackingOff(wait time.Duration, cause error) {
	m.add("backing-off %v %s", wait, errName(cause))
}

// New refuses options it cannot run with, so that Run never fails for
// them.
func TestInvalidOptions(t *testing.T) {
	_, res := memServer(t, 0)
	st := newMapStore[*corev1.ConfigMap]()
	tests := []struct {
		name  string
		src   reflector.Source[*corev1.ConfigMap]
		store reflector.Store[*corev1.ConfigMap]
		opts  reflector.Options
	}{
		{"nil source", nil, st, reflector.Options{}},
		{"nil store", res, nil, reflector.Options{}},
		{"label selector with an error", res, st, reflector.Options{LabelSelector: client.LabelSelector{}.Equals("bad key!", "x")}},
		{"field selector with an error", res, st, reflector.Options{FieldSelector: client.FieldSelector{}.Equals("", "x")}},
		{"shard selector of an unknown key", res, st, reflector.Options{ShardSelector: client.ShardSelector{Key: "object.metadata.name", Ranges: []client.HashRange{{}}}}},
		{"empty shard range", res, st, reflector.Options{ShardSelector: client.ShardSelector{Key: client.ShardByUID, Ranges: []client.HashRange{{Start: 5, End: 5}}}}},
		{"negative page size", res, st, reflector.Options{PageSize: -1}},
		{"WatchList with DisableWatchList", res, st, reflector.Options{WatchList: true, DisableWatchList: true}},
		{"negative WatchListTimeout", res, st, reflector.Options{WatchListTimeout: -time.Second}},
		{"negative WatchTimeout", res, st, reflector.Options{WatchTimeout: -time.Second}},
		{"negative InitialBackoff", res, st, reflector.Options{InitialBackoff: -time.Second}},
		{"negative MaxBackoff", res, st, reflector.Options{MaxBackoff: -time.Second}},
		{"negative HealthyPeriod", res, st, reflector.Options{HealthyPeriod: -time.Second}},
		{"negative MaxServerWait", res, st, reflector.Options{MaxServerWait: -time.Second}},
		{"InitialBackoff over the default MaxBackoff", res, st, reflector.Options{InitialBackoff: time.Hour}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := reflector.New(tt.src, tt.store, tt.opts)
			if !errors.Is(err, client.ErrInvalidOptions) || r != nil {
				t.Errorf("New = %v, %v; want nil and an error matching client.ErrInvalidOptions", r, err)
			}
		})
	}
	// Negative IdleTimeout is documented: no idle timeout.
	if _, err := reflector.New(res, st, reflector.Options{IdleTimeout: -1}); err != nil {
		t.Errorf("IdleTimeout -1: %v", err)
	}
}
