package workqueue

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// mustNew is New for options the test knows are valid.
func mustNew[K comparable](t testing.TB, opts Options) *Queue[K] {
	t.Helper()
	q, err := New[K](opts)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// tryGet returns the key Get hands out, or false if none is queued. It
// is for tests where no other goroutine takes keys.
func tryGet[K comparable](t *testing.T, q *Queue[K]) (K, bool) {
	t.Helper()
	var zero K
	if q.Len() == 0 {
		return zero, false
	}
	k, err := q.Get(context.Background())
	if err != nil {
		t.Fatalf("Get with %d queued: %v", q.Len(), err)
	}
	return k, true
}

// drain takes every queued key, calling Done on each, and returns them
// in the order Get handed them out.
func drain[K comparable](t *testing.T, q *Queue[K]) []K {
	t.Helper()
	var got []K
	for {
		k, ok := tryGet(t, q)
		if !ok {
			return got
		}
		got = append(got, k)
		q.Done(k)
	}
}

// handed is a key and when (since the test's start) Get handed it out.
type handed struct {
	Key string
	At  time.Duration
}

// worker runs a worker loop in a goroutine: it records each key with the
// virtual time Get returned it, sleeps work, then calls Done. It stops
// when Get fails; stop waits for it.
func worker(q *Queue[string], work time.Duration) (got func() []handed, stop func()) {
	start := time.Now()
	var mu sync.Mutex
	var keys []handed
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			k, err := q.Get(context.Background())
			if err != nil {
				return
			}
			mu.Lock()
			keys = append(keys, handed{k, time.Since(start)})
			mu.Unlock()
			time.Sleep(work)
			q.Done(k)
		}
	})
	return func() []handed {
			mu.Lock()
			defer mu.Unlock()
			return append([]handed(nil), keys...)
		}, func() {
			q.ShutDown()
			wg.Wait()
		}
}

// recorder is a Metrics that records what it is told. The queue calls it
// from several goroutines, as it would a Prometheus collector.
type recorder struct {
	mu sync.Mutex
	r  recorded
}

// recorded is what a recorder was told.
type recorded struct {
	Adds, Retries int
	Depths        []int
	Latencies     []time.Duration
	Works         []time.Duration
}

func (r *recorder) Add()        { r.do(func(c *recorded) { c.Adds++ }) }
func (r *recorder) Depth(n int) { r.do(func(c *recorded) { c.Depths = append(c.Depths, n) }) }
func (r *recorder) QueueLatency(d time.Duration) {
	r.do(func(c *recorded) { c.Latencies = append(c.Latencies, d) })
}
func (r *recorder) WorkDuration(d time.Duration) {
	r.do(func(c *recorded) { c.Works = append(c.Works, d) })
}
func (r *recorder) Retry() { r.do(func(c *recorded) { c.Retries++ }) }

// ConcurrentSafe: a recorder locks its own mutex (ConcurrentMetrics).
func (r *recorder) ConcurrentSafe() {}

func (r *recorder) do(f func(*recorded)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f(&r.r)
}

// get returns a copy of what r was told so far.
func (r *recorder) get() recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.r
	c.Depths = slices.Clone(c.Depths)
	c.Latencies = slices.Clone(c.Latencies)
	c.Works = slices.Clone(c.Works)
	return c
}
