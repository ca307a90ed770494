package workqueue

import "slices"

// level holds the queued keys of one priority, oldest first.
type level struct {
	prio int32
	ring ring
}

// maxIdleLevels bounds how many levels are kept once empty, so a caller
// using many distinct priorities does not grow the list Get scans.
const maxIdleLevels = 8

// levelLocked returns the level of prio, making it if needed. The first
// level other than 0 starts aging.
func (q *Queue[K]) levelLocked(prio int32) *level {
	i := 0
	for ; i < len(q.levels); i++ {
		if lv := q.levels[i]; lv.prio <= prio {
			if lv.prio == prio {
				return lv
			}
			break
		}
	}
	lv := &level{prio: prio}
	q.levels = slices.Insert(q.levels, i, lv)
	if !q.aged && q.opts.Aging > 0 {
		q.startAgingLocked()
	}
	return lv
}

// startAgingLocked turns on the clock for queued keys, now that there are
// priorities to age: the keys already waiting count as queued now.
func (q *Queue[K]) startAgingLocked() {
	q.aged = true
	if q.timed {
		return // queue times are stamped already
	}
	now := q.now()
	for _, lv := range q.levels {
		lv.ring.each(func(s *slot) { s.at = now })
	}
	for i := range q.t.recs {
		if r := &q.t.recs[i]; r.state&queued != 0 {
			r.queuedAt = now
		}
	}
	q.hand.stamp(now)
}

// rank is the effective priority of a key of priority prio queued at
// at: one level more per Aging waited.
func (q *Queue[K]) rank(prio int32, at, now int64) int64 {
	return int64(prio) + (now-at)/int64(q.opts.Aging)
}

// pushLocked puts record rec at the back of its priority's level.
func (q *Queue[K]) pushLocked(rec int32) {
	r := &q.t.recs[rec]
	lv := q.levelLocked(r.prio)
	q.gen++
	r.gen = q.gen
	if lv.ring.n == 0 {
		q.busy++
	}
	lv.ring.push(slot{rec, r.gen, r.queuedAt})
}

// popLocked removes and returns the queued record to hand out next: the
// oldest of the highest priority, or, when aging, the one of highest
// rank (ties go to the one waiting longest). q.ready must be above 0.
func (q *Queue[K]) popLocked() int32 {
	for {
		lv := q.pickLocked()
		s := lv.ring.pop()
		if lv.ring.n == 0 {
			q.busy--
			if lv.prio != 0 && len(q.levels) > maxIdleLevels {
				q.levels = slices.DeleteFunc(q.levels, func(l *level) bool { return l == lv })
			}
		}
		if r := &q.t.recs[s.rec]; r.gen == s.gen && r.state&queued != 0 {
			if r.dup != 0 {
				q.unlistLocked(r)
			}
			q.ready--
			return s.rec
		}
		// A stale slot, left behind when its key was raised to a higher
		// priority: the key is queued elsewhere.
	}
}

// pickLocked returns the level whose oldest slot goes next.
func (q *Queue[K]) pickLocked() *level {
	var best *level
	var bestRank, bestAt, now int64
	for _, lv := range q.levels {
		if lv.ring.n == 0 {
			continue
		}
		at := lv.ring.peek().at
		if best == nil {
			best = lv
			if q.busy == 1 || !q.aged {
				return best
			}
			now = q.now()
			bestAt, bestRank = at, q.rank(lv.prio, at, now)
			continue
		}
		if r := q.rank(lv.prio, at, now); r > bestRank || r == bestRank && at < bestAt {
			best, bestRank, bestAt = lv, r, at
		}
	}
	return best
}

// raiseLocked moves queued record rec up to priority prio, unless its
// rank is at least that already; it then counts as queued now. Its old
// slot turns stale.
func (q *Queue[K]) raiseLocked(rec int32, prio int32) {
	r := &q.t.recs[rec]
	now := q.now()
	if q.aged && int64(prio) <= q.rank(r.prio, r.queuedAt, now) {
		return
	}
	r.prio = prio
	r.queuedAt = now
	q.pushLocked(rec)
}
