package storage

import (
	"testing"
	"time"
)

// The window follows kube-apiserver's watch cache ring (cacher
// watch_cache.go v1.36.3): it doubles while its oldest change is fresh,
// up to 100 Ki; it halves when even its newest quarter is stale; a full
// ring that does not grow drops its oldest change.
func TestWatchWindow(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fill := func(w *watchWindow, from, to uint64, at time.Time) {
		for rv := from; rv <= to; rv++ {
			w.add(rv, at)
		}
	}

	w := newWatchWindow()
	fill(w, 1, 200, t0)
	if len(w.ring) != 200 || w.oldestWatchable() != 0 {
		t.Fatalf("200 fresh changes: ring %d, oldest watchable %d; want 200, 0 (grown, nothing dropped)", len(w.ring), w.oldestWatchable())
	}
	w.add(201, t0.Add(76*time.Second))
	if len(w.ring) != 100 || w.end-w.start != 100 || w.oldestWatchable() != 101 {
		t.Errorf("a change 76 s after 200: ring %d holding %d, oldest watchable %d; want 100 holding 100 (halved, then the oldest dropped), 101",
			len(w.ring), w.end-w.start, w.oldestWatchable())
	}

	w = newWatchWindow()
	fill(w, 1, 100, t0)
	fill(w, 101, 200, t0.Add(50*time.Second))
	w.add(201, t0.Add(80*time.Second))
	if len(w.ring) != 200 || w.oldestWatchable() != 1 {
		t.Errorf("a change when the oldest is stale but the newest quarter fresh: ring %d, oldest watchable %d; want 200, 1 (the first change dropped)", len(w.ring), w.oldestWatchable())
	}

	w = newWatchWindow()
	fill(w, 1, watchWindowMax+1, t0)
	if len(w.ring) != watchWindowMax || w.oldestWatchable() != 1 {
		t.Errorf("%d fresh changes: ring %d, oldest watchable %d; want %d, 1 (capped)", watchWindowMax+1, len(w.ring), w.oldestWatchable(), watchWindowMax)
	}

	w.reset()
	if w.oldestWatchable() != 0 {
		t.Errorf("after a reset: oldest watchable %d, want 0", w.oldestWatchable())
	}
}
