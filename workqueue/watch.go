package workqueue

import "context"

// watch wakes the Gets parked with one ctx when it ends: one
// context.AfterFunc per ctx, kept while the ctx is in use, so that
// workers sharing a ctx (the usual case) register it once, not at every
// park. It allocates when made; parks with a ctx already watched do not.
type watch struct {
	stop    func() bool // the AfterFunc's
	waiters int         // parked Gets using it
}

// maxIdleWatches bounds the watches kept with no Get parked on them: a
// caller passing a new ctx to every Get does not pile up AfterFuncs on
// the ctxs' parent.
const maxIdleWatches = 16

// watchLocked returns the watch of ctx, whose Done() is done, making it
// if needed, and counts one more Get parked on it.
func (q *Queue[K]) watchLocked(ctx context.Context, done <-chan struct{}) *watch {
	wt := q.watches[done]
	if wt == nil {
		if q.watches == nil {
			q.watches = make(map[<-chan struct{}]*watch)
		}
		wt = &watch{}
		wt.stop = context.AfterFunc(ctx, func() { q.ctxEnded(done, wt) })
		q.watches[done] = wt
	}
	wt.waiters++
	return wt
}

// unwatchLocked counts one Get fewer parked on wt, the watch of done,
// and drops wt if it is idle and there are too many watches.
func (q *Queue[K]) unwatchLocked(done <-chan struct{}, wt *watch) {
	wt.waiters--
	if wt.waiters == 0 && len(q.watches) > maxIdleWatches && q.watches[done] == wt {
		wt.stop()
		delete(q.watches, done)
	}
}

// ctxEnded runs (in the AfterFunc's goroutine) when a watched ctx ends.
func (q *Queue[K]) ctxEnded(done <-chan struct{}, wt *watch) {
	q.lock()
	defer q.unlock()
	if q.watches[done] == wt {
		delete(q.watches, done)
	}
	q.wakeEndedLocked(done)
}

// unwatchAllLocked stops every watch (on shut down, when no Get parks
// any more).
func (q *Queue[K]) unwatchAllLocked() {
	for done, wt := range q.watches {
		wt.stop()
		delete(q.watches, done)
	}
}
