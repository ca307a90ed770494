package workqueue

import (
	"context"
	"errors"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// ErrShutDown is returned by Get once the queue is shut down and holds
// no more keys.
var ErrShutDown = errors.New("workqueue: shut down")

// Queue is a work queue of keys of type K (see the package doc). Make
// one with New, or use the zero value, which is New(Options{}). All
// methods are safe for concurrent use. A Queue must not be copied after
// first use.
type Queue[K comparable] struct {
	// Read and written by every Add, Get and Done, so kept together: a
	// critical section then touches few cache lines, and few lines move
	// between CPUs when the lock does.
	mu     sync.Mutex
	inited atomic.Bool // set, under mu, once the state below is made
	// takers counts the Gets bound to take a key under mu: from just
	// before they lock until they return or park, and woken Gets from
	// their wake. A key queued while they outnumber the keys waiting
	// wakes no parked Get: one of them takes it (see wakeForLocked).
	takers atomic.Int32
	// woken counts the Gets woken by wakeOneLocked that have not taken
	// the lock again; while wakeLimit are on their way, a key queued
	// wakes no other Get: each woken Get that takes a key wakes the next
	// one if keys still wait (see wakeForLocked).
	woken        int
	wakeLimit    int
	shutdown     bool      // ShutDown was called
	timed        bool      // metrics on: stamp queue and work times
	aged         bool      // keys of a priority other than 0 were queued: stamp queue times
	depthChanged bool      // metrics on: the depth changed under the lock, for unlock to publish
	ready        int       // keys queued (live slots in the rings)
	processing   int       // keys handed out by Get, no Done yet
	busy         int       // levels whose ring is not empty
	gen          uint64    // last generation given to a ring slot
	wakeNext     *waiter   // taken out of waiters, to be woken by unlock
	t            table[K]  // every key queued, processing or delayed
	levels       []*level  // queued keys by priority, highest first
	waiters      []*waiter // parked Get calls, most recent last

	opts    Options                    // with defaults, once inited
	spare   []*waiter                  // unparked waiters, for reuse
	watches map[<-chan struct{}]*watch // ctxs of parked Gets, by Done()
	drained chan struct{}              // made on shut down; closed once nothing is queued or processing

	delay      delayHeap   // delayed keys by due time
	delaySeq   uint64      // counts the due times set, to order keys due at once
	delayStale int         // items in delay whose key's due time was brought forward
	timer      *time.Timer // fires at the first due time; one for the whole queue
	timerSet   bool        // timer is set to fire at timerAt
	timerAt    int64

	// backoffs hold the backoff of each key backing off (its record
	// holds the index), found with the key's record: one lookup, no map
	// of its own. A forgotten key's slot is kept for reuse, so keys that
	// fail now and then do not allocate one per failure.
	backoffs     []retry
	freeBackoffs []int32 // indexes of backoffs no key holds
	limiter      *rate.Limiter

	metrics Metrics
	epoch   time.Time // the queue's times are nanoseconds since epoch (monotonic)
	// dups lists the string keys queued and added again and again, for
	// Add to skip the lock (see dupFilter); nil until a key is listed.
	dups atomic.Pointer[dupFilter]

	// hand holds keys taken from the queue's front for the next Gets,
	// which take them without mu; offerPrio is the lowest priority among
	// them, above which an add recalls them.
	hand      handoff[K]
	offerPrio int32
	// offerShrink halves the batches offered once per recall of a batch
	// (recalled), down to one key, and grows them back one step per batch
	// claimed whole; see offerLocked.
	offerShrink uint8
	recalled    bool
	noHandoff   bool // every Get takes the lock, as before the hand-off (lockedMetrics, tests)
	// lockedMetrics: Metrics is not a ConcurrentMetrics, so it is called
	// with mu held only.
	lockedMetrics bool
	doneSpare     []finished[K] // the other buffer of hand.dones, for reuse

	clock    agingClock      // queue times with aging on and metrics off
	tm       *timedState     // with metrics on only
	deferred deferredMetrics // for unlock to tell (ConcurrentMetrics)

	retrying atomic.Int32 // keys backing off, for Forget to skip the lock when 0
	marks    atomic.Pointer[retryMarks]
}

// New returns a queue configured by opts. It fails with an error
// matching ErrInvalidOptions when opts hold a value no caller can mean
// (see Options.Validate).
//
// A queue starts no goroutine of its own: its delay timer runs a callback
// only when a delayed key is due. A queue dropped without ShutDown is
// garbage once its pending timer has fired and the contexts its Gets
// waited with have ended (each keeps a context.AfterFunc registration
// until then); ShutDown releases both at once.
func New[K comparable](opts Options) (*Queue[K], error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	q := &Queue[K]{opts: opts}
	q.initLocked()
	return q, nil
}

// initLocked makes the queue's state; it runs once, from New or from the
// first call on a zero Queue.
func (q *Queue[K]) initLocked() {
	q.opts = q.opts.withDefaults()
	q.t.init()
	q.levels = []*level{{prio: 0}}
	if !math.IsInf(q.opts.QPS, 1) {
		q.limiter = rate.NewLimiter(rate.Limit(q.opts.QPS), q.opts.Burst)
	}
	q.metrics = q.opts.Metrics
	q.timed = q.metrics != nil
	if q.timed {
		q.tm = new(timedState)
		// A Metrics not known to be safe for concurrent use is called
		// under the lock only: no hand-off, depth told before unlocking.
		_, concurrent := q.metrics.(ConcurrentMetrics)
		q.lockedMetrics = !concurrent
		q.noHandoff = !concurrent
		if r, ok := q.metrics.(DepthReader); ok {
			q.tm.depth.read = true
			r.ReadDepthFrom(depthOf(q))
		}
	}
	q.wakeLimit = max(1, runtime.GOMAXPROCS(0))
	q.epoch = time.Now()
	q.inited.Store(true)
}

// lock takes the queue's lock, initializing a zero Queue first, and
// applies the Dones left while it was busy (see doneLater): every state
// seen under the lock is after them.
func (q *Queue[K]) lock() {
	q.mu.Lock()
	if !q.inited.Load() {
		q.initLocked()
	}
	if q.hand.pending.Load() > 0 {
		q.applyDonesLocked()
	}
}

// unlock releases the lock, then wakes the Get chosen meanwhile, if any:
// readying a goroutine (and maybe a thread to run it) is the slowest part
// of an Add, and needs no lock. The waiter is out of the list, so nothing
// else can wake or reuse it before this send.
//
// It then applies the Dones left meanwhile, if the lock is free: a Done
// that found the lock held leaves its key, then tries the lock again, so
// either that Done gets the lock or whoever holds it then sees the key
// here, after releasing it.
//
// Most critical sections leave nothing to do after the unlock: that case
// is checked first, small enough to inline, and the rest is unlockSlow.
func (q *Queue[K]) unlock() {
	if q.wakeNext != nil || q.depthChanged || q.deferred.any {
		q.unlockSlow()
		return
	}
	q.mu.Unlock()
	if q.hand.pending.Load() != 0 {
		q.applyDonesUnlocked()
	}
}

// unlockSlow is unlock when there is a Get to wake or something to tell
// the metrics after the unlock.
//
//go:noinline
func (q *Queue[K]) unlockSlow() {
	for {
		w := q.wakeNext
		q.wakeNext = nil
		depthChanged := q.depthChanged
		var told deferredMetrics
		if depthChanged {
			q.depthChanged = false
			if q.lockedMetrics {
				q.publishDepth()
				depthChanged = false
			}
		}
		if q.deferred.any {
			told, q.deferred = q.deferred, deferredMetrics{}
		}
		q.mu.Unlock()
		if w != nil {
			w.wake <- struct{}{}
		}
		if depthChanged {
			q.publishDepth()
		}
		if told.any {
			told.tell(q.metrics)
		}
		if q.hand.pending.Load() == 0 || !q.mu.TryLock() {
			return
		}
		q.applyDonesLocked()
	}
}

// applyDonesUnlocked applies the Dones left by doneLater if the lock is
// free, then unlocks as unlock does.
//
//go:noinline
func (q *Queue[K]) applyDonesUnlocked() {
	if q.mu.TryLock() {
		q.applyDonesLocked()
		q.unlock()
	}
}

// lockHashing hashes key, before taking the lock if the queue is made
// (hashing is most of a lookup's cost, and needs no lock), and takes the
// lock.
func (q *Queue[K]) lockHashing(key K) uint32 {
	if q.inited.Load() {
		hash := q.t.hash(key)
		q.mu.Lock()
		if q.hand.pending.Load() > 0 {
			q.applyDonesLocked()
		}
		return hash
	}
	q.lock()
	return q.t.hash(key)
}

// lockHashed takes the lock of a queue that is made, for a caller that
// hashed its key already.
func (q *Queue[K]) lockHashed() {
	q.mu.Lock()
	if q.hand.pending.Load() > 0 {
		q.applyDonesLocked()
	}
}

// now is the time on the queue's clock.
func (q *Queue[K]) now() int64 { return int64(time.Since(q.epoch)) }

// Get waits for a key to be queued, marks it processing and returns it.
// The caller must call Done(key) once it has finished with it; until
// then the key is handed to no other caller, however often it is added.
//
// Get returns ctx.Err() as soon as ctx ends, even if keys are queued,
// and ErrShutDown once the queue is shut down and no key is left queued:
// after ShutDown, Get still hands out the keys queued before it.
func (q *Queue[K]) Get(ctx context.Context) (K, error) {
	var zero K
	if q.hand.left() > 0 {
		if err := ctx.Err(); err != nil {
			return zero, err
		}
		if !q.timed {
			if key, ok := q.hand.take(); ok {
				return key, nil
			}
		} else if key, ok := q.takeTimed(); ok {
			return key, nil
		}
	}
	q.takers.Add(1)
	q.lock()
	for {
		if err := ctx.Err(); err != nil {
			q.leaveLocked()
			q.unlock()
			return zero, err
		}
		if key, ok := q.takeOfferedLocked(); ok { // offered by another Get: older than the queued keys
			q.leaveLocked()
			q.unlock()
			return key, nil
		}
		if q.ready > 0 {
			key := q.startLocked(q.popLocked())
			q.offerLocked()
			q.leaveLocked()
			q.unlock()
			return key, nil
		}
		if q.shutdown {
			q.leaveLocked()
			q.unlock()
			return zero, ErrShutDown
		}
		q.takers.Add(-1) // nothing is waiting: no wake to pass on
		w := q.parkLocked(ctx, ctx.Done())
		q.unlock()
		<-w.wake
		q.lock()
		if !w.ended {
			q.woken-- // here now: no longer a wake on its way
		}
		if q.unparkedLocked(w) {
			q.unlock()
			return zero, ctx.Err()
		}
	}
}

// leaveLocked counts a Get out of the takers as it returns, and wakes a
// parked Get if the keys waiting now outnumber the takers left: one that
// was counted on to take a key took an offered one instead, or returned
// without one.
func (q *Queue[K]) leaveLocked() {
	q.takers.Add(-1)
	q.wakeForLocked()
}

// Done marks key as finished by the caller Get handed it to. If key was
// added since Get returned it, it is queued again now. Done of a key that
// is not being processed does nothing.
func (q *Queue[K]) Done(key K) {
	var at int64 // with metrics on: when the work ended
	if q.timed {
		at = q.now()
	}
	if !q.inited.Load() {
		q.doneLocked(key, q.lockHashing(key), at)
		q.unlock()
		return
	}
	hash := q.t.hash(key)
	if !q.mu.TryLock() {
		q.doneLater(key, hash, at)
		return
	}
	if q.hand.pending.Load() > 0 {
		q.applyDonesLocked()
	}
	q.doneLocked(key, hash, at)
	q.unlock()
}

// doneLocked is Done with key's hash computed, called at time at (with
// metrics on).
func (q *Queue[K]) doneLocked(key K, hash uint32, at int64) {
	rec, pos, _ := q.t.lookup(key, hash)
	if rec < 0 || q.t.recs[rec].state&processing == 0 || !q.takenLocked(&q.t.recs[rec]) {
		return
	}
	r := &q.t.recs[rec]
	if q.timed {
		started := r.startedAt
		if r.state&offered != 0 {
			// Claimed by a Get still returning it: a Done from a caller
			// the key was not handed to. It ends the key all the same.
			started = at
		}
		q.workedLocked(time.Duration(at - started))
	}
	r.state &^= processing | offered
	q.processing--
	switch {
	case r.state&again != 0:
		r.state &^= again
		if q.timed {
			q.enqueueAtLocked(rec, at) // queued again by this Done, at its time: no second clock read
		} else {
			q.enqueueLocked(rec)
		}
	case r.state == 0:
		q.t.remove(rec, pos)
	}
	if q.shutdown && q.ready == 0 && q.processing == 0 {
		q.closeDrainedLocked()
	}
}

// Len returns how many keys are queued, waiting for Get (not those being
// processed or delayed). It is a snapshot, for information and metrics.
func (q *Queue[K]) Len() int {
	q.lock()
	defer q.unlock()
	return q.ready + q.hand.left()
}

// enqueueLocked queues record rec (neither queued nor processing) at the
// back of its level and wakes a parked Get if no taker is bound to take
// it (see wakeForLocked).
func (q *Queue[K]) enqueueLocked(rec int32) {
	var now int64
	switch {
	case q.timed:
		now = q.now() // metrics want the exact time
	case q.aged:
		now = q.agingNowLocked()
	}
	q.enqueueAtLocked(rec, now)
}

// enqueueAtLocked is enqueueLocked at time now on the queue's clock, read
// by the caller (used when the queue stamps times only).
func (q *Queue[K]) enqueueAtLocked(rec int32, now int64) {
	r := &q.t.recs[rec]
	if q.timed || q.aged {
		r.queuedAt = now
	}
	r.state |= queued
	q.pushLocked(rec)
	q.ready++
	if q.timed && !q.tm.depth.read {
		q.tm.depth.Add(1)
		q.depthChanged = true
	}
	q.wakeForLocked()
}

// startLocked marks record rec, just taken from the queue, as processing
// and returns its key.
func (q *Queue[K]) startLocked(rec int32) K {
	r := &q.t.recs[rec]
	r.state = r.state&^queued | processing
	q.processing++
	if q.timed {
		now := q.now()
		r.startedAt = now
		q.waitedLocked(time.Duration(now - r.queuedAt))
		if !q.tm.depth.read {
			q.tm.depth.Add(-1)
			q.depthChanged = true
		}
	}
	return r.key
}
