package workqueue

import "time"

// AddAfter adds key once d has passed (at once if d <= 0). A key delayed
// twice is added once, at the earlier time. The delay does not stop the
// key from being added meanwhile by Add: when it is due it is added as
// by Add, so a key already queued then stays queued once. Delayed keys
// are dropped by ShutDown.
//
// The whole queue uses one timer, set to the earliest due key; no
// goroutine waits per key. AddAfter never blocks.
func (q *Queue[K]) AddAfter(key K, d time.Duration) {
	hash := q.lockHashing(key)
	if !q.shutdown {
		q.addAfterLocked(q.recordLocked(key, hash), d, 0)
	}
	q.unlock()
}

// dueAtOnce is the longest delay addAfterLocked checks for having passed
// before it arms the timer: a clock read costs tens of nanoseconds.
const dueAtOnce = time.Microsecond

// delayedKey is a key in the delay heap. An item whose record no longer
// holds its due time (an earlier AddAfter replaced it) or was given to
// another key since (life differs) is stale and skipped when it comes
// out.
type delayedKey struct {
	rec  int32
	life uint32
	at   int64  // when it is due
	seq  uint64 // order among keys due at once: AddAfter order
}

// delayHeap is a min-heap of delayed keys by due time.
type delayHeap []delayedKey

// addAfterLocked adds the key of record rec at priority prio once d has
// passed.
func (q *Queue[K]) addAfterLocked(rec int32, d time.Duration, prio int32) {
	if q.timed {
		q.retriedLocked()
	}
	if d <= 0 {
		q.wantLocked(rec, prio)
		return
	}
	at := q.now() + int64(d)
	if d < dueAtOnce && q.now() >= at {
		// Passed already (a retry with a nanosecond backoff): arming the
		// timer and running its callback would take far longer.
		q.wantLocked(rec, prio)
		return
	}
	r := &q.t.recs[rec]
	if r.state&delayed != 0 {
		r.delayPrio = max(r.delayPrio, prio)
		if at >= r.delayAt {
			return
		}
		q.delayStale++ // its item for the later time stays in the heap
	} else {
		r.state |= delayed
		r.delayPrio = prio
	}
	r.delayAt = at
	q.delaySeq++
	q.delay.push(delayedKey{rec, r.life, at, q.delaySeq})
	if q.delayStale > 64 && q.delayStale > len(q.delay)/2 {
		q.compactDelayLocked()
	}
	q.armLocked()
}

// compactDelayLocked drops the stale items from the delay heap, so a key
// whose due time is brought forward again and again does not grow it.
func (q *Queue[K]) compactDelayLocked() {
	live := q.delay[:0]
	for _, d := range q.delay {
		if q.liveLocked(d) {
			live = append(live, d)
		}
	}
	clear(q.delay[len(live):])
	q.delay = live
	for i := len(live)/2 - 1; i >= 0; i-- {
		q.delay.down(i)
	}
	q.delayStale = 0
}

// armLocked sets the timer to fire when the first delayed key is due,
// unless it is set to fire by then already.
func (q *Queue[K]) armLocked() {
	if len(q.delay) == 0 {
		return
	}
	next := q.delay[0].at
	if q.timerSet && q.timerAt <= next {
		return
	}
	d := time.Duration(next - q.now())
	if q.timer == nil {
		q.timer = time.AfterFunc(d, q.fire)
	} else {
		q.timer.Reset(d)
	}
	q.timerSet, q.timerAt = true, next
}

// fire adds the delayed keys that are due and sets the timer again. It
// runs in the timer's own goroutine, which ends when it returns.
func (q *Queue[K]) fire() {
	q.lock()
	defer q.unlock()
	if q.shutdown {
		return
	}
	q.timerSet = false
	now := q.now()
	for len(q.delay) > 0 && q.delay[0].at <= now {
		d := q.delay.pop()
		if !q.liveLocked(d) {
			// (An item counted stale can turn live again if its key is
			// delayed anew to the very same time; the count is a hint.)
			q.delayStale = max(0, q.delayStale-1)
			continue
		}
		r := &q.t.recs[d.rec]
		r.state &^= delayed
		q.wantLocked(d.rec, r.delayPrio)
	}
	q.armLocked()
}

// liveLocked reports whether d is its key's due time.
func (q *Queue[K]) liveLocked(d delayedKey) bool {
	r := &q.t.recs[d.rec]
	return r.life == d.life && r.state&delayed != 0 && r.delayAt == d.at
}

func (h delayHeap) less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}

func (h *delayHeap) push(d delayedKey) {
	*h = append(*h, d)
	s := *h
	for i := len(s) - 1; i > 0; {
		parent := (i - 1) / 2
		if !s.less(i, parent) {
			break
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (h *delayHeap) pop() delayedKey {
	s := *h
	d := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s[last] = delayedKey{}
	*h = s[:last]
	h.down(0)
	return d
}

// down moves item i down to its place.
func (h delayHeap) down(i int) {
	for {
		least := i
		if l := 2*i + 1; l < len(h) && h.less(l, least) {
			least = l
		}
		if r := 2*i + 2; r < len(h) && h.less(r, least) {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}
