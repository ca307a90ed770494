package storage

import "time"

// kube-apiserver's watch cache (k8s.io/apiserver cacher, v1.36.3) keeps
// each resource's recent changes in a ring whose size follows the rate
// of changes: it starts at 100, doubles when full while its oldest
// change is younger than the event-fresh duration (75 s: the bookmark
// period plus 15 s), halves when full and even its newest quarter
// reaches back further, and caps at 100 Ki. A full ring that does not
// grow drops its oldest change; from then on a watch from a version
// before the oldest kept change, less one, is "too old". So a watch
// from an old version is served for at least 75 s of history and then
// refused once the resource has had enough changes.
const (
	watchWindowMin   = 100
	watchWindowMax   = 100 * 1024
	watchWindowFresh = 75 * time.Second
)

// watchWindow is the part of the resource's history its watch cache
// would still hold: the version and time of each recent change.
type watchWindow struct {
	ring       []windowEntry
	start, end int  // logical indexes of the oldest kept and the next change
	dropped    bool // a change left the ring since the cache started
}

type windowEntry struct {
	rv uint64
	at int64 // Unix nanoseconds
}

func newWatchWindow() *watchWindow {
	return &watchWindow{ring: make([]windowEntry, watchWindowMin)}
}

func (w *watchWindow) full() bool { return w.end-w.start == len(w.ring) }

func (w *watchWindow) at(i int) windowEntry { return w.ring[i%len(w.ring)] }

// add records a change of the resource at time now.
func (w *watchWindow) add(rv uint64, now time.Time) {
	at := now.UnixNano()
	if w.full() {
		switch size := len(w.ring); {
		case at-w.at(w.start).at < int64(watchWindowFresh):
			w.resize(min(2*size, watchWindowMax))
		case at-w.at(w.end-size/4).at > int64(watchWindowFresh):
			w.resize(max(size/2, watchWindowMin))
		}
	}
	if w.full() {
		w.start++
		w.dropped = true
	}
	w.ring[w.end%len(w.ring)] = windowEntry{rv: rv, at: at}
	w.end++
}

// resize moves the kept changes into a ring of the given size, keeping
// the newest when it shrinks.
func (w *watchWindow) resize(size int) {
	if size == len(w.ring) {
		return
	}
	if size < len(w.ring) {
		w.start = w.end - size
	}
	ring := make([]windowEntry, size)
	for i := w.start; i < w.end; i++ {
		ring[i%size] = w.at(i)
	}
	w.ring = ring
}

// oldestWatchable is the oldest version a watch may start from, or 0
// when the window has dropped nothing (the cache's start bounds it).
func (w *watchWindow) oldestWatchable() uint64 {
	if !w.dropped || w.end == w.start {
		return 0
	}
	return w.at(w.start).rv - 1
}

// reset empties the window, as a restarted cache's relist does.
func (w *watchWindow) reset() {
	w.start = w.end
	w.dropped = false
}
