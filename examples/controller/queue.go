package main

import (
	"context"
	"sync"
	"time"

	"github.com/cenkalti/backoff/v4"
	"golang.org/x/time/rate"
)

// queue is the work queue of a controller: keys of objects to reconcile
// ("namespace/name"), handed to a few workers.
//
//   - De-duplicating: a key added again while it waits is queued once, so
//     ten changes to an object before a worker gets to it cost one
//     reconcile.
//   - One worker per key: a key being reconciled is not handed to another
//     worker; if it is added meanwhile, it is queued again when the first
//     worker calls Done, so the change is not lost.
//   - Rate-limited: Get hands out keys no faster than a token bucket
//     (golang.org/x/time/rate) allows, which bounds the writes the
//     controller sends to the API server whatever happens in the cluster.
//   - Retries with backoff: Retry puts a key back after an exponential,
//     jittered delay (cenkalti/backoff) that grows with each failure of
//     that key, until Forget.
//
// Its methods are safe for concurrent use. Make one with newQueue.
type queue struct {
	limiter    *rate.Limiter
	newBackoff func() backoff.BackOff

	mu       sync.Mutex
	waiting  []string            // keys to hand out, oldest first
	queued   map[string]bool     // the keys in waiting
	active   map[string]bool     // handed out, not Done yet
	again    map[string]bool     // added while active: queue on Done
	failures map[string]*failure // keys whose reconcile failed, until Forget
	delayed  int                 // Retry timers not fired yet
	wake     chan struct{}       // a key was queued (capacity 1)
}

type failure struct {
	n       int
	backoff backoff.BackOff
}

// queueOptions configure a queue.
type queueOptions struct {
	// QPS and Burst bound how fast Get hands out keys.
	QPS   float64
	Burst int
	// FirstRetry and MaxRetry bound the delay of Retry: the first retry of
	// a key waits about FirstRetry, each next one twice as long, up to
	// MaxRetry (each ±20%).
	FirstRetry, MaxRetry time.Duration
}

func newQueue(opts queueOptions) *queue {
	return &queue{
		limiter: rate.NewLimiter(rate.Limit(opts.QPS), max(opts.Burst, 1)),
		newBackoff: func() backoff.BackOff {
			return backoff.NewExponentialBackOff(
				backoff.WithInitialInterval(opts.FirstRetry),
				backoff.WithMaxInterval(opts.MaxRetry),
				backoff.WithMultiplier(2),
				backoff.WithRandomizationFactor(0.2),
				backoff.WithMaxElapsedTime(0), // never stop: the caller decides when to give up
			)
		},
		queued:   map[string]bool{},
		active:   map[string]bool{},
		again:    map[string]bool{},
		failures: map[string]*failure{},
		wake:     make(chan struct{}, 1),
	}
}

// Add queues key, unless it is queued already.
func (q *queue) Add(key string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.addLocked(key)
}

func (q *queue) addLocked(key string) {
	switch {
	case q.queued[key]:
	case q.active[key]:
		q.again[key] = true
	default:
		q.queued[key] = true
		q.waiting = append(q.waiting, key)
		q.signal()
	}
}

// signal wakes one goroutine waiting in Get.
func (q *queue) signal() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Get waits for a key and for the rate limit to allow handing it out,
// and returns it; the caller calls Done(key) when finished with it. Get
// fails once ctx ends (or when its deadline comes before the next
// token).
func (q *queue) Get(ctx context.Context) (string, error) {
	for {
		q.mu.Lock()
		if len(q.waiting) > 0 {
			key := q.waiting[0]
			q.waiting[0] = ""
			q.waiting = q.waiting[1:]
			delete(q.queued, key)
			q.active[key] = true
			if len(q.waiting) > 0 {
				q.signal() // for the next worker
			}
			q.mu.Unlock()
			// Wait fails at once if ctx would end before a token.
			if err := q.limiter.Wait(ctx); err != nil {
				q.Done(key)
				return "", err
			}
			return key, nil
		}
		q.mu.Unlock()
		select {
		case <-q.wake:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}

// Done says the worker that got key is finished with it. If key was
// added meanwhile, it is queued again.
func (q *queue) Done(key string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.active, key)
	if q.again[key] {
		delete(q.again, key)
		q.addLocked(key)
	}
}

// Retry adds key again after its backoff delay, counts a failure of key
// and returns how many it has had since the last Forget.
func (q *queue) Retry(key string) (failures int, delay time.Duration) {
	q.mu.Lock()
	f := q.failures[key]
	if f == nil {
		f = &failure{backoff: q.newBackoff()}
		q.failures[key] = f
	}
	f.n++
	failures, delay = f.n, f.backoff.NextBackOff()
	q.delayed++
	q.mu.Unlock()
	time.AfterFunc(delay, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		q.delayed--
		q.addLocked(key)
	})
	return failures, delay
}

// Failures returns how many times in a row key failed, as counted by
// Retry since the last Forget.
func (q *queue) Failures(key string) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if f := q.failures[key]; f != nil {
		return f.n
	}
	return 0
}

// Forget resets key's failures, after it succeeded or was given up.
func (q *queue) Forget(key string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.failures, key)
}

// Len returns how many keys are waiting, and how many more will be
// once their retry delay is over.
func (q *queue) Len() (waiting, delayed int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.waiting), q.delayed
}
