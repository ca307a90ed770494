package workqueue

import "time"

// maxDeferred is how many observations of each kind a critical section
// defers to after the unlock; more (a lock holder applying many Dones
// left by doneLater) are told with the lock held. One: the struct is
// copied at every unlock that has something to tell.
const maxDeferred = 1

// deferredMetrics are the observations a critical section made for a
// ConcurrentMetrics, told by unlock once the lock is released: a
// histogram observation costs about as much as the rest of an Add or a
// Done, and made with the lock held it lengthens the time every other
// worker waits for it.
type deferredMetrics struct {
	any     bool // something below to tell
	adds    uint8
	retries uint8
	nWork   uint8
	nLat    uint8
	work    [maxDeferred]time.Duration
	latency [maxDeferred]time.Duration
}

// addedLocked tells Metrics.Add, after the unlock if it can.
func (q *Queue[K]) addedLocked() {
	if q.lockedMetrics || q.deferred.adds == 255 {
		q.metrics.Add()
		return
	}
	q.deferred.adds++
	q.deferred.any = true
}

// retriedLocked tells Metrics.Retry, after the unlock if it can.
func (q *Queue[K]) retriedLocked() {
	if q.lockedMetrics || q.deferred.retries == 255 {
		q.metrics.Retry()
		return
	}
	q.deferred.retries++
	q.deferred.any = true
}

// workedLocked tells Metrics.WorkDuration(d), after the unlock if it can.
func (q *Queue[K]) workedLocked(d time.Duration) {
	m := &q.deferred
	if q.lockedMetrics || int(m.nWork) == maxDeferred {
		q.metrics.WorkDuration(d)
		return
	}
	m.work[m.nWork] = d
	m.nWork++
	m.any = true
}

// waitedLocked tells Metrics.QueueLatency(d), after the unlock if it can.
func (q *Queue[K]) waitedLocked(d time.Duration) {
	m := &q.deferred
	if q.lockedMetrics || int(m.nLat) == maxDeferred {
		q.metrics.QueueLatency(d)
		return
	}
	m.latency[m.nLat] = d
	m.nLat++
	m.any = true
}

// tell makes the observations m holds; called without the lock.
func (m *deferredMetrics) tell(to Metrics) {
	for range m.adds {
		to.Add()
	}
	for range m.retries {
		to.Retry()
	}
	for _, d := range m.latency[:m.nLat] {
		to.QueueLatency(d)
	}
	for _, d := range m.work[:m.nWork] {
		to.WorkDuration(d)
	}
}
