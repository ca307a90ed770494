package workqueue

import (
	"math"
	"time"
)

// maxPrio is the highest priority, that of no key offered.
const maxPrio = math.MaxInt32

// AddOptions say how AddWithOptions adds a key.
type AddOptions struct {
	// Priority ranks the key among those queued: higher first, the oldest
	// first within a priority; 0 is the priority of Add. Waiting lifts a
	// key's rank by one per Options.Aging, so no priority starves.
	// Adding a key already queued raises it to Priority if that is above
	// its current rank, and never lowers it. Priorities are clamped to
	// the int32 range.
	Priority int
	// After delays the add, as AddAfter does.
	After time.Duration
	// RateLimited delays the add by the key's backoff, as AddRateLimited
	// does (by After instead, if that is longer).
	RateLimited bool
}

// Add queues key for a Get. A key already queued is not queued twice; a
// key being processed is queued again when its Done is called (so the
// change that prompted the Add is not lost). Add does nothing once the
// queue is shut down. It never blocks.
func (q *Queue[K]) Add(key K) {
	var hash uint32
	if f := q.dups.Load(); f != nil {
		hash = q.t.hash(key)
		if f.queued(stringOf(key), hash) {
			return // queued already: nothing to change
		}
		q.lockHashed()
	} else {
		hash = q.lockHashing(key)
	}
	if !q.shutdown {
		q.addLocked(key, hash, 0)
	}
	q.unlock()
}

// addLocked is Add at priority prio of key, whose hash is hash, with
// the lock held. A key queued already at that priority or above is
// checked first: the most common duplicate.
func (q *Queue[K]) addLocked(key K, hash uint32, prio int32) {
	rec, pos, _ := q.t.lookup(key, hash)
	if rec < 0 {
		rec = q.t.insert(key, pos, hash)
	} else if r := &q.t.recs[rec]; r.state == queued && prio <= r.prio && prio <= q.offerPrio {
		// As wantLocked: no offer to recall for it, no rank to raise.
		if r.prio >= 0 && q.t.stringKeys {
			q.noteDupLocked(r)
		}
		return
	}
	q.wantLocked(rec, prio)
}

// AddWithOptions adds key as Add, AddAfter or AddRateLimited would, with
// a priority. See AddOptions.
func (q *Queue[K]) AddWithOptions(key K, o AddOptions) {
	prio := int32(min(max(o.Priority, math.MinInt32), math.MaxInt32))
	if !o.RateLimited && o.After <= 0 {
		// As Add: hashed before the lock is taken.
		hash := q.lockHashing(key)
		if !q.shutdown {
			q.addLocked(key, hash, prio)
		}
		q.unlock()
		return
	}
	hash := q.lockHashing(key)
	defer q.unlock()
	if q.shutdown {
		return
	}
	rec := q.recordLocked(key, hash)
	wait := o.After
	if o.RateLimited {
		wait = max(wait, q.backoffLocked(rec))
	}
	q.addAfterLocked(rec, wait, prio)
}

// recordLocked returns the index of key's record, making one if needed.
func (q *Queue[K]) recordLocked(key K, hash uint32) int32 {
	rec, pos, _ := q.t.lookup(key, hash)
	if rec < 0 {
		rec = q.t.insert(key, pos, hash)
	}
	return rec
}

// wantLocked marks record rec as wanted by a Get at priority prio.
func (q *Queue[K]) wantLocked(rec int32, prio int32) {
	r := &q.t.recs[rec]
	if prio > q.offerPrio && q.hand.left() > 0 {
		q.recallLocked() // this key goes before those offered
	}
	if r.state&offered != 0 && !q.takenLocked(r) {
		return // offered and not handed out yet: as good as queued, at the front
	}
	switch {
	case r.state&queued != 0:
		if prio > r.prio {
			q.raiseLocked(rec, prio)
		}
	case r.state&processing != 0:
		if r.state&again == 0 {
			r.state |= again
			r.prio = prio
			if q.timed {
				q.addedLocked()
			}
		} else {
			r.prio = max(r.prio, prio)
		}
	default:
		r.prio = prio
		if q.timed {
			q.addedLocked()
		}
		q.enqueueLocked(rec)
	}
}
