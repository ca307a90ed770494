package workqueue

import (
	"context"
	"sync"
	"testing"
	"time"
)

// lockCheck is a Metrics that is not a ConcurrentMetrics: it counts the
// calls made while the queue's lock was free (its TryLock succeeds).
type lockCheck struct {
	q      *Queue[string]
	calls  int // plain ints: -race reports calls that are not serialized
	unheld int
}

func (m *lockCheck) call() {
	m.calls++
	if m.q.mu.TryLock() {
		m.unheld++
		m.q.mu.Unlock()
	}
}
func (m *lockCheck) Add()                       { m.call() }
func (m *lockCheck) Depth(int)                  { m.call() }
func (m *lockCheck) QueueLatency(time.Duration) { m.call() }
func (m *lockCheck) WorkDuration(time.Duration) { m.call() }
func (m *lockCheck) Retry()                     { m.call() }

// TestMetricsNotConcurrentCalledUnderLock: a Metrics that does not say
// it is safe for concurrent use is called with the queue's lock held
// only, so a user's plain struct of counters needs no lock of its own.
func TestMetricsNotConcurrentCalledUnderLock(t *testing.T) {
	m := &lockCheck{}
	q, err := New[string](Options{Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	m.q = q
	if !q.noHandoff {
		t.Fatal("the hand-off is on with a Metrics that is not a ConcurrentMetrics")
	}
	// Serial: Gets would claim offered keys without the lock, and the
	// depth would be told after unlocking.
	keys := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for _, k := range keys {
		q.Add(k)
	}
	ctx := context.Background()
	for range keys {
		k, err := q.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		q.Done(k)
	}
	// Concurrent: producers, workers, and Dones that find the lock busy.
	var producers, workers sync.WaitGroup
	for p := range 4 {
		producers.Go(func() {
			for i := range 500 {
				q.Add(string(rune('A'+p)) + string(rune('a'+i%26)))
			}
		})
	}
	for range 4 {
		workers.Go(func() {
			for {
				k, err := q.Get(ctx)
				if err != nil {
					return // shut down and drained
				}
				q.Done(k)
			}
		})
	}
	producers.Wait()
	if err := q.ShutDownWithDrain(ctx); err != nil {
		t.Fatal(err)
	}
	workers.Wait()
	q.lock()
	calls, unheld := m.calls, m.unheld
	q.unlock()
	if calls == 0 {
		t.Fatal("no metrics call recorded")
	}
	if unheld != 0 {
		t.Fatalf("%d of %d metrics calls were made without the queue's lock", unheld, calls)
	}
}

// TestConcurrentMetricsKeepsHandoff: a Metrics with ConcurrentSafe
// gets the hand-off.
func TestConcurrentMetricsKeepsHandoff(t *testing.T) {
	q, err := New[string](Options{Metrics: &recorder{}})
	if err != nil {
		t.Fatal(err)
	}
	if q.noHandoff || q.lockedMetrics {
		t.Fatal("a ConcurrentMetrics turned the hand-off off")
	}
}
