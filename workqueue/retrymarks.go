package workqueue

import "sync/atomic"

// retryMarkBits sizes retryMarks: 1024 counts, 4 KiB, made by the first
// AddRateLimited of a queue.
const retryMarkBits = 10

// retryMarks counts the keys with a backoff (state backingOff) by the top
// bits of their hash, so that Forget can tell without the queue's lock
// that a key has none: a controller calls Forget after every successful
// reconcile, and while a few keys are failing the others' Forgets would
// all take the lock (and search the map) to find nothing. Counts change
// under the lock only; a Forget that reads 0 is ordered before any
// AddRateLimited of its key still to come, as if it had taken the lock
// first.
type retryMarks [1 << retryMarkBits]atomic.Uint32

func (m *retryMarks) of(hash uint32) *atomic.Uint32 {
	return &m[hash>>(32-retryMarkBits)]
}

// markRetryLocked counts a key of the given hash, just given a backoff.
func (q *Queue[K]) markRetryLocked(hash uint32) {
	m := q.marks.Load()
	if m == nil {
		m = new(retryMarks)
		q.marks.Store(m)
	}
	m.of(hash).Add(1)
}

// unmarkRetryLocked uncounts a key of the given hash, whose backoff was
// just dropped.
func (q *Queue[K]) unmarkRetryLocked(hash uint32) {
	q.marks.Load().of(hash).Add(^uint32(0))
}

// mayRetry reports whether the key of the given hash may have a backoff;
// false is certain. Called without the lock on a made queue.
func (q *Queue[K]) mayRetry(hash uint32) bool {
	if q.retrying.Load() == 0 {
		return false
	}
	m := q.marks.Load()
	return m == nil || m.of(hash).Load() != 0
}
