package workqueue

import (
	"sync/atomic"
	"time"
)

// agingClockSteps: with aging on and metrics off, the queue time of an
// added key is read from a clock refreshed at most once per
// Aging/agingClockSteps while keys are added, so a key's wait is
// overstated by at most that (plus the lateness of a timer), never
// understated: no key is handed out later than its rank promises. A
// list of keys added at LowPriority then reads the clock about once per
// burst instead of once per key (about a fifth of the CPU of such an
// Add and Get and Done).
const agingClockSteps = 16

// minAgingClockStep: below this step the clock is read for every key, as
// arming a timer would cost more than it saves.
const minAgingClockStep = 100 * time.Microsecond

// agingClock holds the last time read for queue times with aging on, and
// whether it is still within its step.
type agingClock struct {
	at    int64       // under the queue's lock
	fresh atomic.Bool // cleared by timer one step after at was read
	timer *time.Timer
}

// agingNowLocked is the queue time for a key queued now with aging on
// and metrics off (see agingClockSteps).
func (q *Queue[K]) agingNowLocked() int64 {
	c := &q.clock
	if c.fresh.Load() {
		return c.at
	}
	now := q.now()
	step := q.opts.Aging / agingClockSteps
	if step < minAgingClockStep {
		return now
	}
	c.at = now
	c.fresh.Store(true)
	if c.timer == nil {
		c.timer = time.AfterFunc(step, func() { c.fresh.Store(false) })
	} else {
		c.timer.Reset(step)
	}
	return now
}
