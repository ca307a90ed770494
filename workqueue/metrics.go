package workqueue

import (
	"sync/atomic"
	"time"
	"weak"
)

// Metrics is told what a Queue does, to feed a metrics library of the
// caller's choice (the names follow client-go's workqueue metrics). Its
// calls must be quick (a counter increment, an observation) and must
// not call the queue. A Metrics that is not a ConcurrentMetrics is
// called with the queue's lock held only, so calls arrive one at a time
// and in order; Gets then take the lock, as without the hand-off (see
// the package doc's Cost).
type Metrics interface {
	// Add: a key was added that was not queued already (the adds
	// counter).
	Add()
	// Depth: n keys are now queued, waiting for Get.
	Depth(n int)
	// QueueLatency: a key waited d from being queued to being handed out
	// by Get.
	QueueLatency(d time.Duration)
	// WorkDuration: a key was processed for d, from Get to Done.
	WorkDuration(d time.Duration)
	// Retry: AddAfter or AddRateLimited was called.
	Retry()
}

// ConcurrentMetrics is a Metrics whose methods are safe for concurrent
// use, as Prometheus collectors are (package metrics' queues are). The
// queue then calls it from the goroutines calling the queue, without its
// lock: what a call observed with the lock held is told right after the
// lock is released (but for the rare call that observed more than a few
// keys), a Get taking an offered key records its queue latency without
// the lock, and the depth is published after the lock is released.
// Depth calls are still made one at a time, and the last one made after
// a change reports the depth after it. The work duration of a Done that
// found the lock busy is measured to the Done and told by the lock's
// holder once it lets the lock go.
type ConcurrentMetrics interface {
	Metrics
	// ConcurrentSafe marks the implementation; it is never called.
	ConcurrentSafe()
}

// DepthReader is a ConcurrentMetrics that reads the queue's depth when
// it needs it (when scraped) instead of being told each change: the
// queue then calls ReadDepthFrom once, when it is made, and never Depth,
// and counts the depth nowhere but in its own state. That spares every
// Add and Get a write to a line shared by all cores, which with many
// workers makes them contend for it. depth is safe for concurrent use
// and returns Len, taking the queue's lock: it must not be called from
// a Metrics method. Holding it does not keep the queue alive (depth
// returns 0 once the queue is garbage).
type DepthReader interface {
	ConcurrentMetrics
	// ReadDepthFrom gives the function that returns the keys queued,
	// waiting for Get (Len).
	ReadDepthFrom(depth func() int)
}

// depthOf is the depth function given to a DepthReader: Len of q while
// q lives, holding q weakly, so that metrics kept after the queue is
// dropped do not keep its keys.
func depthOf[K comparable](q *Queue[K]) func() int {
	w := weak.Make(q)
	return func() int {
		if q := w.Value(); q != nil {
			return q.Len()
		}
		return 0
	}
}

// UnfinishedWork returns how long the keys being processed (handed out by
// Get, no Done yet) have been processed, in total and for the longest
// one: client-go's unfinished work and longest running processor gauges,
// for a caller to poll. Start times are recorded only when
// Options.Metrics is set; otherwise it returns zeros. It takes time
// proportional to the keys in the queue.
func (q *Queue[K]) UnfinishedWork() (total, longest time.Duration) {
	q.lock()
	defer q.unlock()
	if !q.timed || q.processing == 0 {
		return 0, 0
	}
	now := q.now()
	for i := range q.t.recs {
		r := &q.t.recs[i]
		if r.state&processing == 0 || !q.takenLocked(r) {
			continue // not processing, or offered and not handed out yet
		}
		started := r.startedAt
		if r.state&offered != 0 { // its Get has not recorded the start yet
			started = now
		}
		d := time.Duration(now - started)
		total += d
		longest = max(longest, d)
	}
	return total, longest
}

// timedState is what a Queue keeps with metrics on only, besides the
// times in its records.
type timedState struct {
	// depth is the keys queued, offered keys included: kept apart from
	// the lock's state, since Gets that claim offered keys lower it
	// without the lock (see publishDepth).
	depth depthGauge
}

// depthGauge is the depth Metrics.Depth reports: the keys queued, those
// in the hand-off included. Adds raise it and Gets lower it, some under
// the queue's lock and some not (Gets taking offered keys), so it is
// counted apart from the lock's state and published by publishDepth.
type depthGauge struct {
	_          [64]byte // off the lines of the queue's lock and the hand-off
	n          atomic.Int64
	dirty      atomic.Bool // changed since the value last published was read
	publishing atomic.Bool // a goroutine is calling Metrics.Depth
	read       bool        // Metrics is a DepthReader: never published
	_          [64]byte
}

// Add changes the depth by d; publishDepth reports it.
func (g *depthGauge) Add(d int64) { g.n.Add(d) }

// publishDepth reports the depth to Metrics.Depth after a change. Calls
// are made one at a time: a goroutine that finds another publishing
// marks the depth dirty and leaves it to that one, which reads the depth
// again when it sees the mark after it is done. So the last call
// reports the depth after every change made before it, and no goroutine
// waits for another.
func (q *Queue[K]) publishDepth() {
	g := &q.tm.depth
	if g.read {
		return // the Metrics reads it (DepthReader)
	}
	for {
		if g.publishing.CompareAndSwap(false, true) {
			if g.dirty.Load() {
				g.dirty.Store(false)
			}
			q.metrics.Depth(int(g.n.Load()))
			g.publishing.Store(false)
			if !g.dirty.Load() {
				return
			}
			continue // changed while publishing, by one that left it here
		}
		g.dirty.Store(true)
		if g.publishing.Load() {
			return // the publisher sees the mark once it is done
		}
		// The publisher was done before the mark: publish here.
	}
}
