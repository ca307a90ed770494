package workqueue

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestWakesOnTheirWayAreBounded: keys queued at once for parked Gets wake
// at most wakeLimit of them; each woken Get that takes a key wakes the
// next while keys still wait, so every key reaches a Get, and the Get
// left over stays parked.
func TestWakesOnTheirWayAreBounded(t *testing.T) {
	q := mustNew[string](t, Options{})
	q.wakeLimit = 1
	results := make(chan getResult, 4)
	for range 4 {
		go func() {
			k, err := q.Get(context.Background())
			results <- getResult{k, err}
		}()
	}
	waitParked(t, q, 4)

	q.lock()
	for _, k := range []string{"a", "b", "c"} {
		q.wantLocked(q.recordLocked(k, q.t.hash(k)), 0) // Add(k) with the lock held
	}
	if q.woken != 1 || len(q.waiters) != 3 {
		t.Errorf("3 keys queued at once woke %d Gets (%d still parked), want 1 with a wake limit of 1", q.woken, len(q.waiters))
	}
	q.unlock()

	got := map[string]int{}
	for range 3 {
		select {
		case r := <-results:
			if r.err != nil {
				t.Fatalf("Get returned %q, %v", r.key, r.err)
			}
			got[r.key]++
		case <-time.After(10 * time.Second):
			q.lock()
			ready, offered, parked := q.ready, q.hand.left(), len(q.waiters)
			q.unlock()
			t.Fatalf("keys handed out %v; %d queued, %d offered, %d parked, %d woken: the chain of wakes stopped", got, ready, offered, parked, q.woken)
		}
	}
	if got["a"] != 1 || got["b"] != 1 || got["c"] != 1 {
		t.Errorf("handed out %v, want a, b and c once each", got)
	}
	waitParked(t, q, 1)
	q.lock()
	woken, takers := q.woken, q.takers.Load()
	q.unlock()
	if woken != 0 || takers != 0 {
		t.Errorf("woken = %d, takers = %d with every Get parked or returned, want 0, 0", woken, takers)
	}
	for _, k := range []string{"a", "b", "c"} {
		q.Done(k)
	}
	q.ShutDown()
	if r := <-results; !errors.Is(r.err, ErrShutDown) {
		t.Errorf("the parked Get returned %q, %v; want ErrShutDown", r.key, r.err)
	}
}

// TestShutDownWakesEveryGetPastTheLimit: ShutDown wakes every parked Get
// at once, whatever the wake limit, and each returns ErrShutDown.
func TestShutDownWakesEveryGetPastTheLimit(t *testing.T) {
	q := mustNew[string](t, Options{})
	q.wakeLimit = 1
	var gets []<-chan getResult
	for range 5 {
		gets = append(gets, goGet(q, context.Background()))
	}
	waitParked(t, q, 5)
	q.ShutDown()
	for i, c := range gets {
		select {
		case r := <-c:
			if !errors.Is(r.err, ErrShutDown) {
				t.Errorf("Get %d returned %q, %v; want ErrShutDown", i, r.key, r.err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Get %d still parked 10s after ShutDown", i)
		}
	}
	q.lock()
	defer q.unlock()
	if q.woken != 0 || q.takers.Load() != 0 {
		t.Errorf("woken = %d, takers = %d after shut down, want 0, 0", q.woken, q.takers.Load())
	}
}
