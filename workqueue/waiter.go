package workqueue

import (
	"context"
	"slices"
)

// waiter is a Get call parked until a key is queued.
type waiter struct {
	wake   chan struct{} // capacity 1: at most one token per park
	parked bool          // in Queue.waiters
}

// wait blocks until w is woken (true) or ctx ends (false).
func (w *waiter) wait(ctx context.Context) bool {
	done := ctx.Done()
	if done == nil {
		<-w.wake
		return true
	}
	select {
	case <-w.wake:
		return true
	case <-done:
		return false
	}
}

// parkLocked registers a waiting Get.
func (q *Queue[K]) parkLocked() *waiter {
	var w *waiter
	if n := len(q.spare); n > 0 {
		w = q.spare[n-1]
		q.spare[n-1] = nil
		q.spare = q.spare[:n-1]
	} else {
		w = &waiter{wake: make(chan struct{}, 1)}
	}
	w.parked = true
	q.waiters = append(q.waiters, w)
	return w
}

// wakeOneLocked wakes the most recently parked Get, if any. The most
// recent rather than the oldest: its worker's caches are the warmest,
// and idle workers stay asleep. The woken Get takes a key under the
// lock; if another Get took it first, it parks again.
func (q *Queue[K]) wakeOneLocked() {
	n := len(q.waiters)
	if n == 0 {
		return
	}
	w := q.waiters[n-1]
	q.waiters[n-1] = nil
	q.waiters = q.waiters[:n-1]
	w.parked = false
	w.wake <- struct{}{}
}

// wakeAllLocked wakes every parked Get (on shut down).
func (q *Queue[K]) wakeAllLocked() {
	for len(q.waiters) > 0 {
		q.wakeOneLocked()
	}
}

// unparkLocked settles a waiter whose ctx ended, for reuse: it leaves
// the list, or, if it was woken meanwhile, its token is taken and the
// wake passed on to another Get, so no queued key waits for it.
func (q *Queue[K]) unparkLocked(w *waiter) {
	if w.parked {
		i := slices.Index(q.waiters, w)
		q.waiters = slices.Delete(q.waiters, i, i+1)
		w.parked = false
	} else {
		<-w.wake // sent under the lock, before we took it
		if q.ready > 0 || q.shutdown {
			q.wakeOneLocked()
		}
	}
	q.spare = append(q.spare, w)
}
