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
	q.lock()
	if !q.shutdown {
		q.addAfterLocked(key, d, 0)
	}
	q.unlock()
}

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

// addAfterLocked adds key at priority prio once d has passed.
func (q *Queue[K]) addAfterLocked(key K, d time.Duration, prio int32) {
	if q.timed {
		q.metrics.Retry()
	}
	if d <= 0 {
		q.addLocked(key, prio)
		return
	}
	rec := q.recordLocked(key, q.t.hash(key))
	r := &q.t.recs[rec]
	at := q.now() + int64(d)
	if r.state&delayed != 0 {
		r.delayPrio = max(r.delayPrio, prio)
		if at >= r.delayAt {
			return
		}
	} else {
		r.state |= delayed
		r.delayPrio = prio
	}
	r.delayAt = at
	q.delaySeq++
	q.delay.push(delayedKey{rec, r.life, at, q.delaySeq})
	q.armLocked()
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
	s = s[:last]
	for i := 0; ; {
		least := i
		if l := 2*i + 1; l < last && s.less(l, least) {
			least = l
		}
		if r := 2*i + 2; r < last && s.less(r, least) {
			least = r
		}
		if least == i {
			break
		}
		s[i], s[least] = s[least], s[i]
		i = least
	}
	*h = s
	return d
}
