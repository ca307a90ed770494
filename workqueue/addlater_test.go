package workqueue

import (
	"slices"
	"testing"
)

// TestAddWhileLockBusy: an Add that finds the lock held returns without
// waiting (before, it waited for the lock: this test deadlocked); the
// holder applies it, in order with the Dones left likewise, before
// anything else sees the queue.
func TestAddWhileLockBusy(t *testing.T) {
	q := mustNew[string](t, Options{})
	queueKeys(q, 1)
	k00, _ := tryGet(t, q)

	q.lock()
	q.Add("a")
	q.Add(k00) // processing: queued again on its Done
	q.Done(k00)
	q.Add("a") // queued: absorbed
	q.Add("b")
	if q.hand.pending.Load() != 5 || q.ready != 0 {
		t.Fatalf("with the lock held: %d calls pending, %d keys queued", q.hand.pending.Load(), q.ready)
	}
	q.unlock()
	if q.hand.pending.Load() != 0 || q.Len() != 3 || q.processing != 0 {
		t.Fatalf("after unlock: %d calls pending, Len() = %d, %d processing", q.hand.pending.Load(), q.Len(), q.processing)
	}

	q.lock()
	q.Add("c")
	q.mu.Unlock()     // as if the Add came after the holder's last look
	if q.Len() != 4 { // the next taker applies it
		t.Fatalf("Len() = %d after an Add left for the lock's holder, want 4", q.Len())
	}
	q.lock()
	q.Add("d")
	q.mu.Unlock()
	q.ShutDown() // after the Add: it counts
	if got, want := drain(t, q), []string{"a", k00, "b", "c", "d"}; !slices.Equal(got, want) {
		t.Fatalf("handed out %v, want %v", got, want)
	}
}
