package workqueue

import (
	"math"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// retry is the backoff state of a key that failed, from its first
// AddRateLimited to its Forget. Keys that never fail have none.
type retry struct {
	requeues int
	backoff  backoff.ExponentialBackOff
}

// AddRateLimited adds key after its backoff delay: the first time
// Options.BaseDelay, then Options.Multiplier times longer at each call,
// up to Options.MaxDelay, until Forget(key). Every call also takes a
// token from the queue's overall bucket (Options.QPS, Options.Burst),
// and the key waits for the later of the two. It counts a requeue of key
// (see NumRequeues) and never blocks.
func (q *Queue[K]) AddRateLimited(key K) {
	q.lock()
	if !q.shutdown {
		q.addAfterLocked(key, q.backoffLocked(key), 0)
	}
	q.unlock()
}

// Forget clears key's backoff: its next AddRateLimited waits
// Options.BaseDelay again and NumRequeues returns 0. Call it when key
// was processed successfully, or when giving up on it. It does not
// remove key from the queue.
func (q *Queue[K]) Forget(key K) {
	if q.inited.Load() && !q.mayRetry(key) {
		// key has no backoff: nothing to clear. Controllers call Forget
		// after every successful reconcile, so the workers stay off the
		// lock here unless their key failed.
		return
	}
	q.lock()
	if r, ok := q.retries[key]; ok {
		delete(q.retries, key)
		// Kept for reuse, up to the most keys that had one at once (the
		// retries map keeps that much memory too): keys that fail now
		// and then do not allocate a state per failure.
		if len(q.spareRetries) < q.retriesHigh {
			q.spareRetries = append(q.spareRetries, r)
		}
		q.unmarkRetryLocked(key)
		q.retrying.Store(int32(min(len(q.retries), math.MaxInt32)))
	}
	q.unlock()
}

// NumRequeues returns how many times AddRateLimited was called for key
// since its last Forget.
func (q *Queue[K]) NumRequeues(key K) int {
	q.lock()
	defer q.unlock()
	if r := q.retries[key]; r != nil {
		return r.requeues
	}
	return 0
}

// backoffLocked counts a requeue of key and returns how long it waits:
// its own exponential delay or the overall bucket's, the longer.
func (q *Queue[K]) backoffLocked(key K) time.Duration {
	r := q.retries[key]
	if r == nil {
		if n := len(q.spareRetries); n > 0 {
			r = q.spareRetries[n-1]
			q.spareRetries[n-1] = nil
			q.spareRetries = q.spareRetries[:n-1]
			r.requeues = 0
		} else {
			r = new(retry)
		}
		r.backoff = backoff.ExponentialBackOff{
			InitialInterval:     q.opts.BaseDelay,
			RandomizationFactor: q.opts.Jitter,
			Multiplier:          q.opts.Multiplier,
			MaxInterval:         q.opts.MaxDelay,
			MaxElapsedTime:      0, // never stop: the caller decides when to give up
			Stop:                backoff.Stop,
			Clock:               noClock{}, // elapsed time unused: MaxElapsedTime is 0
		}
		r.backoff.Reset()
		q.retries[key] = r
		q.retriesHigh = max(q.retriesHigh, len(q.retries))
		q.markRetryLocked(key)
		q.retrying.Store(int32(min(len(q.retries), math.MaxInt32)))
	}
	r.requeues++
	// Jitter can draw above MaxInterval once the delay has reached it;
	// MaxDelay is documented as the cap, jitter included.
	d := min(r.backoff.NextBackOff(), q.opts.MaxDelay)
	if q.limiter != nil {
		d = max(d, q.limiter.Reserve().Delay())
	}
	return d
}

// noClock is the backoff's clock: it reads the time only to stop after
// MaxElapsedTime, which is 0 (never), so reading the system clock at each
// AddRateLimited would be for nothing.
type noClock struct{}

func (noClock) Now() time.Time { return time.Time{} }
