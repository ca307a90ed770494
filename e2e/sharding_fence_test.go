package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"
)

// fence records the Reconcile calls of every replica process, which
// report them synchronously (enter before the work, leave after it), and
// fails on a Widget reconciled by two replicas at once. A takeover is
// timed with track.
type fence struct {
	mu         sync.Mutex
	running    map[string]string // Widget → replica reconciling it
	reconciles map[string]int    // replica → Reconcile calls
	overlaps   []string
	tracking   *takeover
}

// takeover records when each of a set of Widgets was first reconciled
// (the Reconcile returned) by one of a set of replicas.
type takeover struct {
	by    map[string]bool
	first map[string]time.Time // Widget → first Reconcile done
}

func newFence() *fence {
	return &fence{running: map[string]string{}, reconciles: map[string]int{}}
}

// track starts recording, for every Widget, when one of replicas first
// finishes reconciling it.
func (f *fence) track(replicas ...string) {
	tk := &takeover{by: map[string]bool{}, first: map[string]time.Time{}}
	for _, id := range replicas {
		tk.by[id] = true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tracking = tk
}

// reconciled returns, of keys, those the tracked replicas did not
// reconcile yet, and when the last of the others was.
func (f *fence) reconciled(keys []string) (missing []string, last time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, k := range keys {
		at, ok := f.tracking.first[k]
		switch {
		case !ok:
			missing = append(missing, k)
		case at.After(last):
			last = at
		}
	}
	return missing, last
}

// serve starts the fence's HTTP endpoint: POST /enter and /leave with
// form values key and id.
func (f *fence) serve(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /enter", func(w http.ResponseWriter, r *http.Request) {
		f.enter(r.FormValue("key"), r.FormValue("id"))
	})
	mux.HandleFunc("POST /leave", func(w http.ResponseWriter, r *http.Request) {
		f.leave(r.FormValue("key"), r.FormValue("id"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func (f *fence) enter(key, id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if other, ok := f.running[key]; ok && other != id {
		f.overlaps = append(f.overlaps, fmt.Sprintf("%s reconciled by %s while %s reconciles it", key, id, other))
	}
	f.running[key] = id
	f.reconciles[id]++
}

func (f *fence) leave(key, id string) {
	now := time.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running[key] == id {
		delete(f.running, key)
	}
	if tk := f.tracking; tk != nil && tk.by[id] {
		if _, ok := tk.first[key]; !ok {
			tk.first[key] = now
		}
	}
}

// dead forgets the Reconcile calls of a replica that was killed: they
// ended with its process.
func (f *fence) dead(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for key, r := range f.running {
		if r == id {
			delete(f.running, key)
		}
	}
}

func (f *fence) counts() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.reconciles {
		out[k] = v
	}
	return out
}

func (f *fence) check(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	sort.Strings(f.overlaps)
	for i, o := range f.overlaps {
		if i == 20 {
			t.Errorf("... and %d more", len(f.overlaps)-20)
			break
		}
		t.Error(o)
	}
}
