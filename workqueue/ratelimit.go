package workqueue

import (
	"math"
	"math/rand/v2"
	"time"
)

// retry is the backoff state of a key that failed, from its first
// AddRateLimited to its Forget. Keys that never fail have none.
type retry struct {
	requeues int
	next     time.Duration // the delay of the next AddRateLimited, before jitter
}

// AddRateLimited adds key after its backoff delay: the first time
// Options.BaseDelay, then Options.Multiplier times longer at each call,
// up to Options.MaxDelay, until Forget(key). Every call also takes a
// token from the queue's overall bucket (Options.QPS, Options.Burst),
// and the key waits for the later of the two. It counts a requeue of key
// (see NumRequeues) and never blocks.
func (q *Queue[K]) AddRateLimited(key K) {
	hash := q.lockHashing(key)
	if !q.shutdown {
		rec := q.recordLocked(key, hash)
		q.addAfterLocked(rec, q.backoffLocked(rec), 0)
	}
	q.unlock()
}

// Forget clears key's backoff: its next AddRateLimited waits
// Options.BaseDelay again and NumRequeues returns 0. Call it when key
// was processed successfully, or when giving up on it. It does not
// remove key from the queue.
func (q *Queue[K]) Forget(key K) {
	var hash uint32
	if q.inited.Load() {
		hash = q.t.hash(key)
		if !q.mayRetry(hash) {
			// key has no backoff: nothing to clear. Controllers call
			// Forget after every successful reconcile, so the workers
			// stay off the lock here unless their key failed.
			return
		}
		q.lock()
	} else {
		q.lock()
		hash = q.t.hash(key)
	}
	rec, pos, _ := q.t.lookup(key, hash)
	if rec >= 0 && q.t.recs[rec].state&backingOff != 0 {
		r := &q.t.recs[rec]
		q.freeBackoffs = append(q.freeBackoffs, r.backoff-1)
		r.state &^= backingOff
		r.backoff = 0
		q.unmarkRetryLocked(hash)
		q.retrying.Add(-1)
		if r.state == 0 {
			q.t.remove(rec, pos)
		}
	}
	q.unlock()
}

// NumRequeues returns how many times AddRateLimited was called for key
// since its last Forget.
func (q *Queue[K]) NumRequeues(key K) int {
	q.lock()
	defer q.unlock()
	if rec, _, _ := q.t.find(key); rec >= 0 && q.t.recs[rec].state&backingOff != 0 {
		return q.backoffs[q.t.recs[rec].backoff-1].requeues
	}
	return 0
}

// backoffLocked counts a requeue of the key of record rec and returns
// how long it waits: its own exponential delay or the overall bucket's,
// the longer.
func (q *Queue[K]) backoffLocked(rec int32) time.Duration {
	r := &q.t.recs[rec]
	if r.state&backingOff == 0 {
		var i int32
		if n := len(q.freeBackoffs); n > 0 {
			i = q.freeBackoffs[n-1]
			q.freeBackoffs = q.freeBackoffs[:n-1]
		} else {
			if len(q.backoffs) >= math.MaxInt32 {
				panic("workqueue: more than 2^31-1 keys backing off")
			}
			i = int32(len(q.backoffs))
			q.backoffs = append(q.backoffs, retry{})
		}
		q.backoffs[i] = retry{next: q.opts.BaseDelay}
		r.state |= backingOff
		r.backoff = i + 1
		q.markRetryLocked(r.hash)
		q.retrying.Add(1)
	}
	b := &q.backoffs[r.backoff-1]
	b.requeues++
	d := q.nextDelay(b)
	if q.limiter != nil {
		d = max(d, q.limiter.Reserve().Delay())
	}
	return d
}

// nextDelay returns the delay of b's next AddRateLimited and lengthens
// the one after by Options.Multiplier, up to Options.MaxDelay. With
// Options.Jitter j the delay d is drawn from [d-j*d, d+j*d] (both ends
// included), then capped at MaxDelay: the exponential backoff of client-go's
// default controller rate limiter, and of cenkalti/backoff's
// ExponentialBackOff, which the queue used before; computed here because
// that type's NextBackOff also read its elapsed-time clock and drew a
// random number at every call: a third of an AddRateLimited's work.
func (q *Queue[K]) nextDelay(b *retry) time.Duration {
	d := b.next
	if j := q.opts.Jitter; j > 0 {
		delta := j * float64(d)
		d = time.Duration(float64(d) - delta + rand.Float64()*(2*delta+1))
	}
	if float64(b.next) >= float64(q.opts.MaxDelay)/q.opts.Multiplier {
		b.next = q.opts.MaxDelay
	} else {
		b.next = time.Duration(float64(b.next) * q.opts.Multiplier)
	}
	return min(d, q.opts.MaxDelay)
}
