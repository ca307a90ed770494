package workqueue

import "context"

// ShutDown stops the queue taking keys: Add, AddAfter and AddRateLimited
// do nothing from now on, and delayed keys are dropped (their timer is
// stopped). Keys already queued are still handed out by Get, and keys
// added while being processed are queued again on Done; once none is
// left, Get returns ErrShutDown, at once for every caller. ShutDown does
// not wait for anything; calling it again does nothing.
func (q *Queue[K]) ShutDown() {
	q.lock()
	q.shutDownLocked()
	q.unlock()
}

// ShutDownWithDrain shuts the queue down as ShutDown does, then waits
// until every key queued has been handed out and every key handed out is
// Done, or until ctx ends, and returns ctx.Err() in that case. Workers
// must keep calling Get and Done for it to return nil.
func (q *Queue[K]) ShutDownWithDrain(ctx context.Context) error {
	q.lock()
	q.shutDownLocked()
	drained := q.drained
	q.unlock()
	select {
	case <-drained:
		return nil
	default:
	}
	select {
	case <-drained:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
func (q *Queue[K]) ShuttingDown() bool {
	q.lock()
	defer q.unlock()
	return q.shutdown
}

func (q *Queue[K]) shutDownLocked() {
	if q.shutdown {
		return
	}
	q.shutdown = true
	q.drained = make(chan struct{})
	if q.timer != nil {
		q.timer.Stop() // a callback already running sees shutdown and returns
	}
	for _, d := range q.delay {
		if q.liveLocked(d) {
			if r := &q.t.recs[d.rec]; r.state&^delayed == 0 {
				q.t.removeRecord(d.rec)
			} else {
				r.state &^= delayed
			}
		}
	}
	q.delay, q.delayStale = nil, 0
	q.wakeAllLocked()
	q.unwatchAllLocked()
	if q.ready == 0 && q.processing == 0 {
		q.closeDrainedLocked()
	}
}

// closeDrainedLocked closes q.drained once (it is called on every Done
// that leaves nothing queued or processing after shut down).
func (q *Queue[K]) closeDrainedLocked() {
	select {
	case <-q.drained:
	default:
		close(q.drained)
	}
}
