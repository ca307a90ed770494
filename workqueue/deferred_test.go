package workqueue

import (
	"context"
	"slices"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// heldCheck is a ConcurrentMetrics that counts its calls by kind, and
// those made while the queue's lock was held (its TryLock fails).
type heldCheck struct {
	q                               *Queue[string]
	adds, latencies, works, retries atomic.Int32
	held                            atomic.Int32
}

func (m *heldCheck) call(n *atomic.Int32) {
	n.Add(1)
	if !m.q.mu.TryLock() {
		m.held.Add(1)
		return
	}
	m.q.mu.Unlock()
}
func (m *heldCheck) Add()                       { m.call(&m.adds) }
func (m *heldCheck) Depth(int)                  {}
func (m *heldCheck) QueueLatency(time.Duration) { m.call(&m.latencies) }
func (m *heldCheck) WorkDuration(time.Duration) { m.call(&m.works) }
func (m *heldCheck) Retry()                     { m.call(&m.retries) }
func (m *heldCheck) ConcurrentSafe()            {}

func newHeldCheck(t *testing.T) (*Queue[string], *heldCheck) {
	t.Helper()
	m := &heldCheck{}
	q, err := New[string](Options{Metrics: m, BaseDelay: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	m.q = q
	return q, m
}

// TestConcurrentMetricsToldAfterUnlock: a ConcurrentMetrics is told what
// a call observed once the call has released the queue's lock, so that
// the other workers do not wait for a histogram observation, and every
// observation is told, one per event.
func TestConcurrentMetricsToldAfterUnlock(t *testing.T) {
	q, m := newHeldCheck(t)
	ctx := context.Background()
	get := func() string {
		t.Helper()
		k, err := q.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	q.Add("a")
	q.Add("b")
	q.Add("a") // queued already: no add counted
	k := get()
	q.Add(k) // processing: queued again after Done, counted once
	q.Add(k)
	q.Done(k) // queued again
	q.Done(get())
	k = get()
	q.AddRateLimited(k) // a retry while processing
	q.Done(k)
	deadline := time.Now().Add(10 * time.Second)
	for q.Len() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // the retry's backoff (1 ns, or a timer)
	}
	q.Done(get())
	if n := q.Len(); n != 0 {
		t.Fatalf("Len = %d after every key was handed out", n)
	}
	for name, c := range map[string]struct{ got, want int32 }{
		"Add":          {m.adds.Load(), 4},
		"QueueLatency": {m.latencies.Load(), 4},
		"WorkDuration": {m.works.Load(), 4},
		"Retry":        {m.retries.Load(), 1},
	} {
		if c.got != c.want {
			t.Errorf("%s told %d times, want %d", name, c.got, c.want)
		}
	}
	if n := m.held.Load(); n != 0 {
		t.Errorf("%d metrics calls were made with the queue's lock held", n)
	}
}

// TestConcurrentMetricsDeferredOverflow: a lock holder that applies more
// Dones left by doneLater than it defers tells the rest with the lock
// held, and loses none.
func TestConcurrentMetricsDeferredOverflow(t *testing.T) {
	q, m := newHeldCheck(t)
	ctx := context.Background()
	const n = 3 * maxDeferred
	var keys []string
	for i := range n {
		q.Add(string(rune('a' + i)))
	}
	for range n {
		k, err := q.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	q.lock()
	for _, k := range keys {
		q.doneLater(k, q.t.hash(k), q.now()) // the lock is busy: left for its holder
	}
	q.unlock() // applies them
	if got := m.works.Load(); got != n {
		t.Fatalf("WorkDuration told %d times for %d Dones", got, n)
	}
	if got, want := m.held.Load(), int32(n-maxDeferred); got != want {
		t.Fatalf("%d metrics calls with the lock held, want %d (the WorkDurations past maxDeferred)", got, want)
	}
	if l, p := q.Len(), q.processing; l != 0 || p != 0 {
		t.Fatalf("after the Dones: Len %d, processing %d", l, p)
	}
}

// TestRequeueQueuedAtDone: a key added while processing is queued again
// at its Done's time, even when that Done found the lock busy and its
// holder applied it later: its queue latency runs from the Done.
func TestRequeueQueuedAtDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &recorder{}
		q, err := New[string](Options{Metrics: m})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		q.Add("a")
		k, err := q.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		q.Add(k) // queued again after Done
		time.Sleep(time.Second)
		q.lock()
		q.Done(k) // finds the lock busy: left for its holder
		time.Sleep(2 * time.Second)
		q.unlock() // applies it, 2s after the Done
		time.Sleep(3 * time.Second)
		if k, err = q.Get(ctx); err != nil || k != "a" {
			t.Fatalf("Get = %q, %v", k, err)
		}
		q.Done(k)
		got := m.get()
		if want := []time.Duration{time.Second, 0}; !slices.Equal(got.Works, want) {
			t.Fatalf("work durations %v, want %v", got.Works, want)
		}
		if want := []time.Duration{0, 5 * time.Second}; !slices.Equal(got.Latencies, want) {
			t.Fatalf("queue latencies %v, want %v (the second from the Done)", got.Latencies, want)
		}
	})
}
