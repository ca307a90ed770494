package workqueue

import (
	"context"
	"slices"
)

// waiter is a Get call parked until a key is queued, the queue is shut
// down or its ctx ends. It waits on its own channel alone: a select on
// ctx.Done() as well would make every worker sharing a ctx lock that
// ctx's channel at every park and wake. The ctx is watched instead, once
// per ctx (see watch).
type waiter struct {
	wake   chan struct{} // capacity 1: at most one token per park
	parked bool          // in Queue.waiters
	done   <-chan struct{}
	watch  *watch // of done, when not nil
	ended  bool   // woken because done closed
}

// parkLocked registers a Get waiting with ctx, whose Done() is done.
func (q *Queue[K]) parkLocked(ctx context.Context, done <-chan struct{}) *waiter {
	var w *waiter
	if n := len(q.spare); n > 0 {
		w = q.spare[n-1]
		q.spare[n-1] = nil
		q.spare = q.spare[:n-1]
	} else {
		w = &waiter{wake: make(chan struct{}, 1)}
	}
	w.parked, w.done = true, done
	if done != nil {
		w.watch = q.watchLocked(ctx, done)
	}
	q.waiters = append(q.waiters, w)
	return w
}

// unparkedLocked takes back a waiter that has been woken, for reuse, and
// reports whether it was woken because its ctx ended.
func (q *Queue[K]) unparkedLocked(w *waiter) (ended bool) {
	ended = w.ended
	if w.watch != nil {
		q.unwatchLocked(w.done, w.watch)
	}
	*w = waiter{wake: w.wake}
	q.spare = append(q.spare, w)
	return ended
}

// wakeForLocked wakes a parked Get if the keys waiting (queued or
// offered) outnumber the takers, the Gets bound to take one under the
// lock, and fewer than wakeLimit (GOMAXPROCS) woken Gets are still on
// their way. Each key queued calls it, and each taker that leaves, so a
// key waits either for a taker or for a woken Get, never for a parked
// one: a woken Get that takes a key calls it again as it leaves, so the
// wakes a burst needs are chained, at most wakeLimit at once. A key
// queued while a taker is on its way wakes no Get (readying a goroutine,
// and maybe a thread to run it, costs more than the key); nor does one
// queued while wakeLimit Gets are being woken: more cannot run at once,
// and the workers already running take most keys through the hand-off
// before a woken Get gets there, which then parks again for nothing.
func (q *Queue[K]) wakeForLocked() {
	if len(q.waiters) > 0 && q.woken < q.wakeLimit && q.ready+q.hand.left() > int(q.takers.Load()) {
		q.wakeOneLocked()
	}
}

// wakeOneLocked wakes the most recently parked Get, if any, and counts
// it a taker. The most recent rather than the oldest: its worker's
// caches are the warmest, and idle workers stay asleep. The woken Get
// takes a key under the lock; if another Get took it first, it parks
// again. The first wake of a critical section is left to unlock, after
// the lock is released.
func (q *Queue[K]) wakeOneLocked() {
	n := len(q.waiters)
	if n == 0 {
		return
	}
	w := q.waiters[n-1]
	q.waiters[n-1] = nil
	q.waiters = q.waiters[:n-1]
	w.parked = false
	q.takers.Add(1)
	q.woken++
	if q.wakeNext == nil {
		q.wakeNext = w
		return
	}
	w.wake <- struct{}{}
}

// wakeAllLocked wakes every parked Get (on shut down).
func (q *Queue[K]) wakeAllLocked() {
	for len(q.waiters) > 0 {
		q.wakeOneLocked()
	}
}

// wakeEndedLocked wakes the parked Gets whose ctx's Done() is done.
func (q *Queue[K]) wakeEndedLocked(done <-chan struct{}) {
	q.waiters = slices.DeleteFunc(q.waiters, func(w *waiter) bool {
		if w.done != done {
			return false
		}
		w.parked, w.ended = false, true
		w.wake <- struct{}{}
		return true
	})
}
