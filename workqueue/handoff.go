package workqueue

import (
	"math"
	"sync"
	"sync/atomic"
	"time"
)

// maxOffer is how many keys a Get moves to the hand-off at once: the
// Gets after it take them without the queue's lock, which the producers'
// Adds contend for. Small, so that a burst of higher priority keys that
// recalls them (see recallLocked) costs little.
const maxOffer = 32

// offerSlots is how many offered keys the hand-off holds: two batches,
// so that a batch can be offered while Gets that claimed offers before
// are still reading their keys. A power of two, at most 256.
const offerSlots = 2 * maxOffer

// maxOfferShrink bounds Queue.offerShrink: batches of one key at least.
const maxOfferShrink = 5

// handoff holds keys taken from the front of the queue, in queue order,
// for the next Gets: a Get that takes the queue's lock to hand out a key
// moves the keys queued behind it here, and the Gets that follow claim
// them with one compare-and-swap each, without any lock. A key offered
// here is marked processing|offered in its record, counted in
// Queue.processing and in Len, and is handed to exactly one Get; it is
// not a key Done applies to until a Get claimed it.
//
// Offers are numbered from 0 in the order they are made, and claimed in
// that order: offer s is claimed once resolved > s. Only the holder of
// the queue's lock makes offers (a batch at a time, once every offer
// before is claimed) or recalls them. A batch's keys wait in a run of
// free slots of the ring, offer s in slot (s+shift) mod offerSlots: a
// Get reads shift, claims offer s by moving resolved from s to s+1,
// then reads the key from its slot and frees it. shift changes only
// with a new batch, once offer s is claimed, so a claim that succeeds
// proves the shift read is that of offer s's batch. A Get descheduled
// between its claim and its read holds up its slot alone: a batch ends
// short of a held slot, and the next one starts past it.
type handoff[K comparable] struct {
	_        [64]byte              // the Gets' lines apart from the queue's own state
	resolved atomic.Uint64         // offers claimed by a Get or recalled
	filled   atomic.Uint64         // offers made
	shift    atomic.Uint32         // the slot of offer s is (s+shift) mod offerSlots
	cursor   uint32                // the slot after the last batch's
	ring     *[offerSlots]offer[K] // made by the first offer

	// dones are the keys of Done calls that found the queue's lock busy
	// (see doneLater); pending is len(dones), read without mu by every
	// lock and unlock of the queue, so kept off the lines Gets write.
	_       [64]byte
	mu      sync.Mutex // guards dones
	dones   []finished[K]
	pending atomic.Int32
	_       [64]byte
}

// offer is a key in the hand-off, with what recall needs to queue it
// again where it was.
type offer[K comparable] struct {
	key K
	rec int32
	// held is 1 while the slot holds an offer whose key no Get has read
	// yet: set by the lock's holder as it offers a key here (before
	// filled publishes it), cleared atomically by the Get that claimed
	// it once it has the key, or by a recall.
	held uint32
	at   int64 // its ring slot's time
	// started is when a Get claimed it, with metrics on (notStarted
	// until then): the claiming Get holds no lock to write it in the
	// key's record, so the lock's holder copies it there (takenLocked).
	// It shares the line the Get writes anyway, clearing the key.
	started int64 // atomic
}

// notStarted is a start time of handoff.started before a Get claimed its
// offer.
const notStarted = math.MinInt64

// left is how many offers are not claimed yet.
func (h *handoff[K]) left() int {
	s := h.resolved.Load() // first: filled only grows
	return int(h.filled.Load() - s)
}

// take claims the oldest offer, if any, and returns its key. With
// metrics on, takeTimed instead.
func (h *handoff[K]) take() (key K, ok bool) {
	for {
		s := h.resolved.Load()
		if s >= h.filled.Load() {
			return key, false
		}
		shift := h.shift.Load()
		if h.resolved.CompareAndSwap(s, s+1) {
			o := &h.ring[(s+uint64(shift))%offerSlots]
			key, o.key = o.key, key
			atomic.StoreUint32(&o.held, 0)
			return key, true
		}
	}
}

// takeTimed is take with metrics on: it stamps the offer it claims with
// now, the claiming Get's start time (for the lock's holder to copy to
// the key's record, see takenLocked), and returns the key's queue time.
// The caller reads the clock before the claim, to keep it out of the
// time the slot is held after the claim.
func (h *handoff[K]) takeTimed(now int64) (key K, queuedAt int64, ok bool) {
	for {
		s := h.resolved.Load()
		if s >= h.filled.Load() {
			return key, 0, false
		}
		shift := h.shift.Load()
		if h.resolved.CompareAndSwap(s, s+1) {
			o := &h.ring[(s+uint64(shift))%offerSlots]
			key, o.key = o.key, key
			queuedAt = o.at
			atomic.StoreInt64(&o.started, now)
			atomic.StoreUint32(&o.held, 0)
			return key, queuedAt, true
		}
	}
}

// takeTimed claims the oldest offer, if any, with metrics on, and
// records one key less queued and its queue latency, without the
// queue's lock. Its start time is the clock read just before the claim;
// a key queued after that read waited for nothing.
func (q *Queue[K]) takeTimed() (key K, ok bool) {
	now := q.now()
	key, queuedAt, ok := q.hand.takeTimed(now)
	if !ok {
		return key, false
	}
	if !q.tm.depth.read {
		q.tm.depth.Add(-1)
		q.publishDepth()
	}
	q.metrics.QueueLatency(time.Duration(max(0, now-queuedAt)))
	return key, true
}

// takeOfferedLocked is take, or takeTimed with metrics on, for a Get
// holding the queue's lock.
func (q *Queue[K]) takeOfferedLocked() (K, bool) {
	if q.timed {
		return q.takeTimed()
	}
	return q.hand.take()
}

// waiting reports whether the offer of record r (state offered) is still
// to be claimed. Called with the queue's lock held: a Get may claim it
// right after, which is as if that Get came after the caller.
func (h *handoff[K]) waiting(r *record[K]) bool {
	return r.gen >= h.resolved.Load()
}

// offerLocked moves up to maxOffer more queued keys to the hand-off, if
// every key offered before was claimed, so that the next Gets take them
// without q.mu. The keys are those popLocked would hand out next, in
// that order (fewer if a slot of the run is held). A batch recalled by
// an add of a higher priority halves the next ones, and a batch claimed
// whole doubles them again up to maxOffer: a controller drains its
// initial list and resyncs below priority 0 while it adds changes at 0,
// and each such add would otherwise put back up to maxOffer keys for
// the next Get to offer again.
func (q *Queue[K]) offerLocked() {
	h := &q.hand
	if q.ready == 0 || q.noHandoff {
		return
	}
	f := h.filled.Load()
	if h.resolved.Load() != f {
		return
	}
	if h.ring == nil {
		h.ring = new([offerSlots]offer[K])
	}
	first, ok := h.freeSlotLocked()
	if !ok {
		return // every slot held by a Get that has not read its key yet
	}
	if q.recalled {
		q.recalled = false
	} else if q.offerShrink > 0 {
		q.offerShrink-- // the last batch was claimed whole: offer more
	}
	q.offerPrio = maxPrio
	s, slot := f, first
	for most := f + maxOffer>>q.offerShrink; q.ready > 0 && s < most; s++ {
		o := &h.ring[slot%offerSlots]
		if s > f && atomic.LoadUint32(&o.held) != 0 {
			break // its Get claimed it and has not read its key yet
		}
		if q.timed {
			q.keepStartLocked(o, uint8(slot%offerSlots))
		}
		rec := q.popLocked()
		r := &q.t.recs[rec]
		r.state = r.state&^queued | processing | offered
		r.gen = s // its offer number; it is in no ring
		r.slot = uint8(slot % offerSlots)
		q.processing++
		q.offerPrio = min(q.offerPrio, r.prio)
		o.key, o.rec, o.at, o.started, o.held = r.key, rec, r.queuedAt, notStarted, 1
		slot++
	}
	h.cursor = slot % offerSlots
	h.shift.Store(uint32((uint64(first) - f) % offerSlots))
	q.markLowOffersLocked(q.offerPrio < 0)
	h.filled.Store(s)
}

// freeSlotLocked returns the first slot no offer holds from the cursor
// on, or false if every slot is held.
func (h *handoff[K]) freeSlotLocked() (uint32, bool) {
	for i := range uint32(offerSlots) {
		slot := (h.cursor + i) % offerSlots
		if atomic.LoadUint32(&h.ring[slot].held) == 0 {
			return slot, true
		}
	}
	return 0, false
}

// slotOf is the slot of offer s, which is in the last batch.
func (h *handoff[K]) slotOf(s uint64) *offer[K] {
	return &h.ring[(s+uint64(h.shift.Load()))%offerSlots]
}

// keepStartLocked copies the start time of the last offer of slot o
// (number slot), free now, to its key's record, if the record is still
// marked offered there (its Get claimed it and the lock's holder has not
// seen that yet), before the slot takes a new offer. With metrics on
// only.
func (q *Queue[K]) keepStartLocked(o *offer[K], slot uint8) {
	if r := &q.t.recs[o.rec]; r.state&offered != 0 && r.slot == slot {
		q.takenLocked(r)
	}
}

// recallLocked puts the keys still waiting in the hand-off back at the
// front of their priorities' queues, as they were: a key of a higher
// priority than they have is being queued, and goes before them.
func (q *Queue[K]) recallLocked() {
	h := &q.hand
	f := h.filled.Load() // only the lock's holder changes it
	s := h.resolved.Load()
	for s < f && !h.resolved.CompareAndSwap(s, f) {
		s = h.resolved.Load()
	}
	for i := f; i > s; i-- {
		o := h.slotOf(i - 1)
		r := &q.t.recs[o.rec]
		r.state = r.state&^(processing|offered) | queued
		q.processing--
		q.ready++
		r.queuedAt = o.at
		lv := q.levelLocked(r.prio)
		q.gen++
		r.gen = q.gen
		if lv.ring.n == 0 {
			q.busy++
		}
		lv.ring.pushFront(slot{o.rec, r.gen, o.at})
		var zero K
		o.key = zero
		atomic.StoreUint32(&o.held, 0)
	}
	if f > s {
		q.recalled = true
		q.offerShrink = min(q.offerShrink+1, maxOfferShrink)
	}
}

// stamp sets the queue time of the keys waiting in the hand-off to now,
// when aging starts (the queue stamps no time before). Called with the
// queue's lock held; a Get claiming one meanwhile reads only its key.
func (h *handoff[K]) stamp(now int64) {
	for i := h.resolved.Load(); i < h.filled.Load(); i++ {
		h.slotOf(i).at = now
	}
}

// takenLocked reports whether record r, which is processing, was handed
// out by a Get (rather than waiting in the hand-off), and if so clears
// its offered mark, with metrics on once its Get recorded its start time
// (copied to r.startedAt): a Get that claimed it may still be returning
// it, and then the mark stays until Done or the next batch (offerLocked).
func (q *Queue[K]) takenLocked(r *record[K]) bool {
	return r.state&offered == 0 || q.claimedLocked(r)
}

// claimedLocked is takenLocked for a record marked offered; not inlined,
// so that takenLocked is.
//
//go:noinline
func (q *Queue[K]) claimedLocked(r *record[K]) bool {
	if q.hand.waiting(r) {
		return false
	}
	if q.timed {
		at := q.startOf(r)
		if at == notStarted {
			return true
		}
		r.startedAt = at
	}
	r.state &^= offered
	return true
}

// startOf is when the Get that claimed record r's offer did so, or
// notStarted if that Get has not recorded it yet. r is offered and
// claimed, and its offer still in its slot (offerLocked clears the mark
// before it gives the slot a new offer).
func (q *Queue[K]) startOf(r *record[K]) int64 {
	return atomic.LoadInt64(&q.hand.ring[r.slot%offerSlots].started)
}

// finished is a key whose Done found the queue's lock busy, with its hash
// and, with metrics on, the time of the Done.
type finished[K comparable] struct {
	key  K
	hash uint32
	at   int64
}

// doneLater leaves key, whose Done found the queue's lock busy, for the
// lock's holder to apply (see unlock), so that a worker does not wait for
// the producers' Adds to finish a key. Every taker of the lock applies
// such Dones first, so nothing sees the queue as if they had not been
// called: an Add after Done returns queues the key anew, and the drain of
// ShutDownWithDrain counts them done.
func (q *Queue[K]) doneLater(key K, hash uint32, at int64) {
	h := &q.hand
	h.mu.Lock()
	h.dones = append(h.dones, finished[K]{key, hash, at})
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
		q.doneLocked(d.key, d.hash, d.at)
	}
	clear(dones)
	q.doneSpare = dones[:0]
}
