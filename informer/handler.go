package informer

import (
	"context"
	"sync"
	"time"

	"github.com/kubewire/kubewire/client"
)

// Handler receives an informer's changes. Each registered Handler is
// called from its own goroutine, one call at a time, in the order the
// cache changed; a slow Handler delays only itself. The objects passed
// are the cache's: do not modify them (DeepCopy first).
type Handler[T client.Object] interface {
	// OnAdd is called for an object new to the cache. initial is true
	// for the objects of the handler's first view of the cache (the
	// first full state, or the cache's contents replayed when the
	// handler was added later), false for objects created since.
	OnAdd(obj T, initial bool)
	// OnUpdate is called when an object changed; oldObj is the state the
	// handler saw before. A resync calls it with oldObj == obj.
	OnUpdate(oldObj, obj T)
	// OnDelete is called when an object left the cache. obj is its final
	// state when a watch event delivered the deletion; when the deletion
	// was found by a relist instead (the watch was down meanwhile),
	// stateUnknown is true and obj is the last state the cache held.
	OnDelete(obj T, stateUnknown bool)
}

// HandlerFuncs is a Handler made of functions; nil ones are skipped.
type HandlerFuncs[T client.Object] struct {
	Add    func(obj T, initial bool)
	Update func(oldObj, obj T)
	Delete func(obj T, stateUnknown bool)
}

// OnAdd calls f.Add if set.
func (f HandlerFuncs[T]) OnAdd(obj T, initial bool) {
	if f.Add != nil {
		f.Add(obj, initial)
	}
}

// OnUpdate calls f.Update if set.
func (f HandlerFuncs[T]) OnUpdate(oldObj, obj T) {
	if f.Update != nil {
		f.Update(oldObj, obj)
	}
}

// OnDelete calls f.Delete if set.
func (f HandlerFuncs[T]) OnDelete(obj T, stateUnknown bool) {
	if f.Delete != nil {
		f.Delete(obj, stateUnknown)
	}
}

// HandlerOptions configure one handler registration.
type HandlerOptions struct {
	// ResyncPeriod, when positive, calls OnUpdate(obj, obj) for every
	// cached object at this period, for controllers that re-check their
	// world periodically. Zero: no resync.
	ResyncPeriod time.Duration
}

// Registration is a Handler added to an Informer. Its methods are safe
// for concurrent use.
type Registration[T client.Object] struct {
	inf     *Informer[T]
	handler Handler[T]
	opts    HandlerOptions
	q       *queue[T]

	synced     chan struct{}
	syncedOnce sync.Once
	stop       chan struct{}
	stopOnce   sync.Once
	started    bool // guarded by inf.mu
}

// HasSynced reports whether the handler has been called for every
// object of its first view of the cache.
func (r *Registration[T]) HasSynced() bool {
	select {
	case <-r.synced:
		return true
	default:
		return false
	}
}

// WaitForSync blocks until HasSynced, ctx ends (its error is returned)
// or the informer stops first (ErrStopped).
func (r *Registration[T]) WaitForSync(ctx context.Context) error {
	select {
	case <-r.synced:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-r.inf.stopped:
		return ErrStopped
	case <-r.stop:
		return ErrStopped
	}
}

// Pending returns how many changes wait in the handler's queue.
func (r *Registration[T]) Pending() int { return r.q.len() }

// Remove unregisters the handler: it is called no more (a call in
// progress finishes) and its queue is dropped. Remove does not wait for
// the handler's goroutine; Informer.Run does.
func (r *Registration[T]) Remove() {
	r.inf.store.mu.Lock()
	for i, h := range r.inf.handlers {
		if h == r {
			r.inf.handlers = append(r.inf.handlers[:i:i], r.inf.handlers[i+1:]...)
			break
		}
	}
	r.inf.store.mu.Unlock()
	r.stopOnce.Do(func() { close(r.stop) })
}

// run delivers queued changes until ctx ends or the handler is removed.
func (r *Registration[T]) run(ctx context.Context) {
	var resync <-chan time.Time
	if r.opts.ResyncPeriod > 0 {
		t := time.NewTicker(r.opts.ResyncPeriod)
		defer t.Stop()
		resync = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.stop:
			return
		case <-resync:
			r.inf.queueResync(r)
			continue
		case <-r.q.ready:
		}
		batch := r.q.take()
		for _, c := range batch {
			select {
			case <-ctx.Done():
				return
			case <-r.stop:
				return
			default:
			}
			r.deliver(c)
		}
		r.q.done(batch)
	}
}

func (r *Registration[T]) deliver(c change[T]) {
	switch c.kind {
	case changeAdd:
		r.handler.OnAdd(c.obj, c.flag)
	case changeUpdate:
		old := c.old
		if c.buildOld != nil {
			old = c.buildOld()
		}
		r.handler.OnUpdate(old, c.obj)
	case changeDelete:
		r.handler.OnDelete(c.obj, c.flag)
	case changeSynced:
		r.syncedOnce.Do(func() { close(r.synced) })
	}
}
