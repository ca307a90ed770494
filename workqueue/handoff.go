package workqueue

import (
	"sync"
	"sync/atomic"
)

// maxOffer is how many keys a Get moves to the hand-off at once: the
// Gets after it take them without the queue's lock, which the producers'
// Adds contend for. Small, so that a burst of higher priority keys that
// recalls them (see recallLocked) costs little.
const maxOffer = 32

// handoff holds keys taken from the front of the queue, in queue order,
// for the next Gets: a Get that takes the queue's lock to hand out a key
// moves the keys queued behind it here, and the Gets that follow take
// them under the hand-off's own small lock. A key offered here is marked
// processing|offered in its record, counted in Queue.processing and in
// Len, and is handed to exactly one Get; it is not a key Done applies to
// until a Get took it. Only the holder of the queue's lock fills or
// empties the hand-off (also taking mu); Gets only take from it.
type handoff[K comparable] struct {
	mu   sync.Mutex
	keys []offer[K] // keys[next:] are still to be handed out
	next int
	// left is len(keys)-next, read without mu to skip an empty hand-off.
	left atomic.Int32
	// resolved counts the offers ever handed out or recalled; offers are
	// numbered from 0 in the order they are made, and handed out in that
	// order, so offer s is no longer waiting once resolved > s.
	resolved atomic.Uint64

	// dones are the keys of Done calls that found the queue's lock busy
	// (see doneLater); pending is len(dones), read without mu.
	dones   []finished[K]
	pending atomic.Int32
}

// offer is a key in the hand-off, with what recall needs to queue it
// again where it was.
type offer[K comparable] struct {
	key K
	rec int32
	at  int64 // its ring slot's time
}

// take hands out the oldest key offered, if any.
func (h *handoff[K]) take() (key K, ok bool) {
	h.mu.Lock()
	if h.next < len(h.keys) {
		o := &h.keys[h.next]
		key, ok = o.key, true
		*o = offer[K]{}
		h.next++
		h.left.Store(int32(len(h.keys) - h.next))
		h.resolved.Add(1)
	}
	h.mu.Unlock()
	return key, ok
}

// waiting reports whether the offer of record r (state offered) is still
// to be handed out. Called with the queue's lock held: a Get may take it
// right after, which is as if that Get came after the caller.
func (h *handoff[K]) waiting(r *record[K]) bool {
	return r.gen >= h.resolved.Load()
}

// offerLocked moves up to maxOffer more queued keys to the hand-off, if
// it is empty, so that the next Gets take them without q.mu. The keys
// are those popLocked would hand out next, in that order. Not with
// metrics on: each Get there stamps its key's queue latency.
func (q *Queue[K]) offerLocked() {
	if q.ready == 0 || q.timed || q.hand.left.Load() != 0 {
		return
	}
	h := &q.hand
	h.mu.Lock()
	h.keys, h.next = h.keys[:0], 0
	base := h.resolved.Load()
	q.offerPrio = maxPrio
	for n := 0; q.ready > 0 && n < maxOffer; n++ {
		rec := q.popLocked()
		r := &q.t.recs[rec]
		r.state = r.state&^queued | processing | offered
		r.gen = base + uint64(n) // its offer number; it is in no ring
		q.processing++
		q.offerPrio = min(q.offerPrio, r.prio)
		h.keys = append(h.keys, offer[K]{key: r.key, rec: rec, at: r.queuedAt})
	}
	h.left.Store(int32(len(h.keys)))
	h.mu.Unlock()
}

// recallLocked puts the keys still waiting in the hand-off back at the
// front of their priorities' queues, as they were: a key of a higher
// priority than they have is being queued, and goes before them.
func (q *Queue[K]) recallLocked() {
	h := &q.hand
	h.mu.Lock()
	rest := h.keys[h.next:]
	h.resolved.Add(uint64(len(rest)))
	h.left.Store(0)
	for i := len(rest) - 1; i >= 0; i-- {
		o := rest[i]
		r := &q.t.recs[o.rec]
		r.state = r.state&^(processing|offered) | queued
		q.processing--
		q.ready++
		at := o.at
		r.queuedAt = at
		lv := q.levelLocked(r.prio)
		q.gen++
		r.gen = q.gen
		if lv.ring.n == 0 {
			q.busy++
		}
		lv.ring.pushFront(slot{o.rec, r.gen, at})
	}
	clear(h.keys)
	h.keys, h.next = h.keys[:0], 0
	h.mu.Unlock()
}

// stamp sets the queue time of the keys waiting in the hand-off to now,
// when aging starts (the queue stamps no time before).
func (h *handoff[K]) stamp(now int64) {
	h.mu.Lock()
	for i := h.next; i < len(h.keys); i++ {
		h.keys[i].at = now
	}
	h.mu.Unlock()
}

// takenLocked reports whether record r, which is processing, was handed
// out by a Get (rather than waiting in the hand-off), and if so clears
// its offered mark.
func (q *Queue[K]) takenLocked(r *record[K]) bool {
	if r.state&offered == 0 {
		return true
	}
	if q.hand.waiting(r) {
		return false
	}
	r.state &^= offered
	return true
}

// finished is a key whose Done found the queue's lock busy, with its hash.
type finished[K comparable] struct {
	key  K
	hash uint32
}

// doneLater leaves key, whose Done found the queue's lock busy, for the
// lock's holder to apply (see unlock), so that a worker does not wait for
// the producers' Adds to finish a key. Every taker of the lock applies
// such Dones first, so nothing sees the queue as if they had not been
// called: an Add after Done returns queues the key anew, and the drain of
// ShutDownWithDrain counts them done.
func (q *Queue[K]) doneLater(key K, hash uint32) {
	h := &q.hand
	h.mu.Lock()
	h.dones = append(h.dones, finished[K]{key, hash})
	h.pending.Store(int32(len(h.dones)))
	h.mu.Unlock()
	if q.mu.TryLock() { // the holder may have looked at pending before the append
		q.applyDonesLocked()
		q.unlock()
	}
}

// applyDonesLocked finishes the keys left by doneLater, in order.
func (q *Queue[K]) applyDonesLocked() {
	h := &q.hand
	h.mu.Lock()
	dones := h.dones
	h.dones = q.doneSpare[:0]
	h.pending.Store(0)
	h.mu.Unlock()
	for _, d := range dones {
		q.doneLocked(d.key, d.hash)
	}
	clear(dones)
	q.doneSpare = dones[:0]
}
