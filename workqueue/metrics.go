package workqueue

import "time"

// Metrics is told what a Queue does, to feed a metrics library of the
// caller's choice (the names follow client-go's workqueue metrics). The
// queue calls it with its lock held, so calls arrive in order and see
// consistent values: they must be quick (a counter increment, an
// observation) and must not call the queue.
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
		if r := &q.t.recs[i]; r.state&processing != 0 {
			d := time.Duration(now - r.startedAt)
			total += d
			longest = max(longest, d)
		}
	}
	return total, longest
}
