package reflector_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/reflector"
)

// A relist streams the new state into the store, which keeps its
// objects whose resourceVersion did not change: live heap during a
// forced relist stays well below two copies of the collection. The store
// samples live heap (after a GC) every few hundred items of the relist
// and at its end; the figures are the heap above what the process held
// before the Reflector started (the fake server's own data included
// there), so steady is what the store holds and peak is that plus what
// the relist adds.
func TestRelistPeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("lists 20,000 ConfigMaps several times")
	}
	n := 20000
	if raceEnabled {
		n = 5000 // the race detector makes every allocation slower and larger
	}
	for _, tt := range []struct {
		name string
		opts reflector.Options
	}{
		{"watch-list", reflector.Options{WatchList: true}},
		{"list-then-watch", reflector.Options{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := fake.New(fake.Options{})
			defer s.Close()
			objs := make([]any, n)
			for i := range objs {
				objs[i] = &corev1.ConfigMap{
					ObjectMeta: metav1.ObjectMeta{Name: "cm-" + itoa(i), Namespace: "default", Labels: map[string]string{"app": "web"}},
					Data:       map[string]string{"key": "value-" + itoa(i)},
				}
			}
			if err := s.Add(objs...); err != nil {
				t.Fatal(err)
			}
			objs = nil
			s.Compact() // the seed's history would otherwise be freed mid-test
			cfg := fakeclient.Config(s)
			cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, s.RoundTripper()
			c, err := client.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			st := newHeapStore(n / 40)
			r := newReflector(t, client.For[*corev1.ConfigMap](c).Namespace("default"), st, tt.opts)

			base := liveHeap()
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			defer func() { cancel(); <-done }()
			st.waitEnds(t, 1)
			steady := liveHeap() - base

			// Force a relist: a 410 for the resuming watch.
			st.sample(true)
			if err := s.Add(configMap("kube-system", 1)); err != nil {
				t.Fatal(err)
			}
			s.Compact()
			s.Faults().DropWatches()
			st.waitEnds(t, 2)
			peak := st.peak - base
			after := liveHeap() - base
			if got := r.Relists(); got != 2 {
				t.Fatalf("%d relists, want 2", got)
			}
			if got := st.count(); got != n {
				t.Fatalf("store holds %d objects, want %d", got, n)
			}
			ratio := float64(peak) / float64(steady)
			t.Logf("%d ConfigMaps: steady %.1f MB, relist peak %.1f MB (%d samples), after %.1f MB: peak/steady %.2f",
				n, mb(steady), mb(peak), st.samples, mb(after), ratio)
			if st.samples < 10 {
				t.Errorf("%d heap samples during the relist, want at least 10", st.samples)
			}
			if ratio > 1.5 {
				t.Errorf("relist peak/steady live heap %.2f, want at most 1.5", ratio)
			}
		})
	}
}

func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func mb(b int64) float64 { return float64(b) / (1 << 20) }

// heapStore is a Store frugal with memory during a relist, as a cache
// should be: instead of a set of the keys seen since Begin, each entry
// notes the number of the last stream that saw it, so a relist of
// unchanged objects allocates nothing in the store. While sampling, it
// measures live heap every so many items of a stream and at its end.
type heapStore struct {
	every int

	mu       sync.Mutex
	objs     map[string]*heapEntry
	stream   int // number of the current (or last) stream
	sampling bool
	items    int
	samples  int
	peak     int64
	ends     int
	ended    chan struct{} // a token at every End
}

type heapEntry struct {
	obj  *corev1.ConfigMap
	seen int // the last stream that delivered it
}

func newHeapStore(every int) *heapStore {
	return &heapStore{every: every, objs: map[string]*heapEntry{}, ended: make(chan struct{}, 16)}
}

func (h *heapStore) sample(on bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.sampling = on
}

// measure samples live heap while sampling; h.mu is held.
func (h *heapStore) measure() {
	if !h.sampling {
		return
	}
	h.samples++
	h.peak = max(h.peak, liveHeap())
}

func (h *heapStore) Begin() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stream++
	h.items = 0
}

func (h *heapStore) Item(o *corev1.ConfigMap) {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := o.Name // one namespace
	if e, ok := h.objs[k]; ok {
		e.seen = h.stream
		if e.obj.ResourceVersion != o.ResourceVersion {
			e.obj = o
		}
	} else {
		h.objs[k] = &heapEntry{obj: o, seen: h.stream}
	}
	if h.items++; h.items%h.every == 0 {
		h.measure()
	}
}

func (h *heapStore) End(string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.measure()
	for k, e := range h.objs {
		if e.seen != h.stream {
			delete(h.objs, k)
		}
	}
	h.measure()
	h.ends++
	select {
	case h.ended <- struct{}{}:
	default:
	}
}

func (h *heapStore) Abort() {}

func (h *heapStore) Add(o *corev1.ConfigMap) { h.put(o) }

func (h *heapStore) Update(o *corev1.ConfigMap) { h.put(o) }

func (h *heapStore) put(o *corev1.ConfigMap) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.objs[o.Name] = &heapEntry{obj: o, seen: h.stream}
}

func (h *heapStore) Delete(o *corev1.ConfigMap) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.objs, o.Name)
}

func (h *heapStore) Bookmark(string) {}

func (h *heapStore) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.objs)
}

// waitEnds waits for the nth End.
func (h *heapStore) waitEnds(t *testing.T, n int) {
	t.Helper()
	guard := time.NewTimer(time.Minute) // a hang fails; nothing is timed
	defer guard.Stop()
	for {
		h.mu.Lock()
		ends := h.ends
		h.mu.Unlock()
		if ends >= n {
			return
		}
		select {
		case <-h.ended:
		case <-guard.C:
			t.Fatalf("%d full states after a minute, want %d", ends, n)
		}
	}
}
