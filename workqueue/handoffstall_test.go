package workqueue

import (
	"slices"
	"sync/atomic"
	"testing"
)

// TestHandoffStalledClaim: a Get descheduled between its claim of an
// offered key and reading it holds up that key's slot only. The next
// batches are offered meanwhile (before, no batch was offered until
// every claimed key was read, and every Get took the lock), the stalled
// Get still gets its key, and every key is handed out once, in order.
func TestHandoffStalledClaim(t *testing.T) {
	q := mustNew[string](t, Options{})
	keys := queueKeys(q, 3*offerSlots)
	first, _ := tryGet(t, q) // offers the keys behind it
	q.Done(first)
	stalled := claimUnread(q)
	var got []string
	for range 2 * offerSlots { // past as many batches as there are slots
		locked := q.hand.left() == 0 // this Get takes the lock, and offers
		k, _ := tryGet(t, q)
		q.Done(k)
		got = append(got, k)
		if locked && q.ready > 0 && q.hand.left() == 0 {
			t.Fatalf("Get %d took the lock and offered no key of the %d queued: the stalled claim holds up the hand-off", len(got), q.ready)
		}
	}
	k := readClaimed(stalled)
	if k != keys[1] {
		t.Fatalf("the stalled Get read %q, want %q", k, keys[1])
	}
	q.Done(k)
	got = append(got, drain(t, q)...)
	if want := keys[2:]; !slices.Equal(got, want) {
		t.Fatalf("handed out %v, want %v", got, want)
	}
	if q.Len() != 0 || q.processing != 0 || q.t.n != 0 {
		t.Fatalf("after draining: Len() = %d, %d processing, %d keys held", q.Len(), q.processing, q.t.n)
	}
}

// claimUnread claims the oldest offer as take does, and returns its
// slot without reading the key: a Get descheduled right after its claim.
func claimUnread(q *Queue[string]) *offer[string] {
	h := &q.hand
	for {
		s := h.resolved.Load()
		shift := h.shift.Load()
		if h.resolved.CompareAndSwap(s, s+1) {
			return &h.ring[(s+uint64(shift))%offerSlots]
		}
	}
}

// readClaimed reads the key of the offer claimed by claimUnread, as its
// Get does once it runs again.
func readClaimed(o *offer[string]) string {
	k := o.key
	o.key = ""
	atomic.StoreUint32(&o.held, 0)
	return k
}
