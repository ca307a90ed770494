package reflector_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/reflector"
)

// historyStore is a mapStore that records every resourceVersion it was
// given, for objects and for itself, and what went back.
type historyStore struct {
	*mapStore[*corev1.ConfigMap]
	mu      sync.Mutex
	objRV   map[string]uint64
	storeRV uint64
	back    []string
}

func newHistoryStore() *historyStore {
	return &historyStore{mapStore: newMapStore[*corev1.ConfigMap](), objRV: map[string]uint64{}}
}

func (h *historyStore) object(what string, o *corev1.ConfigMap) {
	rv, _ := strconv.ParseUint(o.ResourceVersion, 10, 64)
	h.mu.Lock()
	defer h.mu.Unlock()
	if prev := h.objRV[key(o)]; rv < prev {
		h.back = append(h.back, fmt.Sprintf("%s %s at %d after %d", what, key(o), rv, prev))
	}
	h.objRV[key(o)] = max(h.objRV[key(o)], rv)
}

func (h *historyStore) version(what, v string) {
	rv, _ := strconv.ParseUint(v, 10, 64)
	h.mu.Lock()
	defer h.mu.Unlock()
	if rv < h.storeRV {
		h.back = append(h.back, fmt.Sprintf("%s at %d after %d", what, rv, h.storeRV))
	}
	h.storeRV = max(h.storeRV, rv)
}

// Item keeps a stored object newer than o, as Store asks: the items of
// a list come before the list's own resourceVersion says it is older.
func (h *historyStore) Item(o *corev1.ConfigMap) {
	h.mu.Lock()
	rv, _ := strconv.ParseUint(o.ResourceVersion, 10, 64)
	older := rv < h.objRV[key(o)]
	h.mu.Unlock()
	if older {
		h.mapStore.mu.Lock()
		h.mapStore.seen[key(o)] = true
		h.mapStore.mu.Unlock()
		return
	}
	h.object("item", o)
	h.mapStore.Item(o)
}

func (h *historyStore) Add(o *corev1.ConfigMap)    { h.object("add", o); h.mapStore.Add(o) }
func (h *historyStore) Update(o *corev1.ConfigMap) { h.object("update", o); h.mapStore.Update(o) }
func (h *historyStore) Delete(o *corev1.ConfigMap) { h.object("delete", o); h.mapStore.Delete(o) }
func (h *historyStore) End(rv string)              { h.version("end", rv); h.mapStore.End(rv) }
func (h *historyStore) Bookmark(rv string)         { h.version("bookmark", rv); h.mapStore.Bookmark(rv) }

func (h *historyStore) wentBack() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.back...)
}

func watchedFrom(reqs []hostileRequest) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.q.Get("resourceVersion"))
	}
	return out
}

// A resourceVersion that goes back inside a watch (a proxy that
// switched to a lagging apiserver) is not applied: the watch ends, and
// the next one starts from the newest version seen, not from the older
// one. Before, the object went back to its older state, and a watch
// from the older version followed.
func TestWatchResourceVersionGoesBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list: func(url.Values) string { return fixture(t, "list-rv5.json") },
			watch: func(n int, _ url.Values) (string, bool) {
				if n == 0 {
					return fixture(t, "watch-goes-back.jsonl"), true
				}
				return modified("b", "8"), true
			},
		}
		st := newHistoryStore()
		r := runHostile(t, h, st, reflector.Options{}, time.Minute)
		if back := st.wentBack(); len(back) > 0 {
			t.Errorf("the store went back: %v", back)
		}
		if got := watchedFrom(h.watchRequests()); len(got) != 2 || got[0] != "5" || got[1] != "7" {
			t.Errorf("watches from %v, want [5 7]: the second from the newest version seen", got)
		}
		if v := st.versions(); v["default/a"] != "7" || v["default/b"] != "8" {
			t.Errorf("store %v, want a at 7 and b at 8", v)
		}
		if err := r.Err(); err != nil {
			t.Errorf("Err = %v after one lagging watch, want none", err)
		}
	})
}

// A full state older than what the store was given (a relist answered
// by a lagging apiserver) is refused: the store keeps its newer state
// (it sees Abort), and the list is read again after a wait. Before, the
// store went back to the older state and watched from its version.
func TestListOlderThanStoreRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			list: func(url.Values) string { return "" },
			watch: func(n int, _ url.Values) (string, bool) {
				if n == 0 {
					return fixture(t, "watch-gone.jsonl"), false
				}
				return "", true
			},
		}
		lists := 0
		h.list = func(url.Values) string {
			lists++
			switch lists {
			case 1:
				return fixture(t, "list-rv10.json")
			case 2:
				return fixture(t, "list-rv5.json")
			}
			return fixture(t, "list-rv12.json")
		}
		st := newHistoryStore()
		runHostile(t, h, st, reflector.Options{}, time.Minute)
		if back := st.wentBack(); len(back) > 0 {
			t.Errorf("the store went back: %v", back)
		}
		if got := watchedFrom(h.watchRequests()); len(got) != 2 || got[1] != "12" {
			t.Errorf("watches from %v, want [10 12]", got)
		}
		if v := st.versions(); v["default/a"] != "11" {
			t.Errorf("store %v, want a at 11", v)
		}
	})
}

// A server whose every full state stays older than the store (etcd
// restored from a backup) is a persistent failure the program sees in
// Err, matching ErrResourceVersionWentBack: waiting does not fix it.
func TestListAlwaysOlderIsPersistent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := &hostile{
			watch: func(n int, _ url.Values) (string, bool) { return fixture(t, "watch-gone.jsonl"), false },
		}
		lists := 0
		h.list = func(url.Values) string {
			lists++
			if lists == 1 {
				return fixture(t, "list-rv10.json")
			}
			return fixture(t, "list-rv5.json")
		}
		st := newHistoryStore()
		opts := reflector.Options{MaxBackoff: 5 * time.Second, DisableWatchList: true}
		r := newReflector(t, reflector.Source[*corev1.ConfigMap](h.resource(t)), st, opts)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- r.Run(ctx) }()
		time.Sleep(time.Minute)
		err := r.Err()
		cancel()
		<-done
		if !errors.Is(err, reflector.ErrResourceVersionWentBack) {
			t.Errorf("Err = %v, want ErrResourceVersionWentBack", err)
		}
		if back := st.wentBack(); len(back) > 0 {
			t.Errorf("the store went back: %v", back)
		}
	})
}
