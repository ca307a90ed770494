package reflector

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/backoffpolicy"
	"github.com/kubewire/kubewire/pager"
)

// Widening: when the shard selector grows while the store is in step,
// only the ranges gained are listed, on a goroutine of their own (a
// part), while the watch of what the store holds goes on. Once the part
// is listed at resourceVersion L, one watch of the whole selector
// resumes from min(L, M), M being the last version the old watch
// reached, and skips the events each side already has (those of the
// part up to L, those of the rest up to M): nothing held is listed
// again and no event is applied twice or missed. This relies on
// resourceVersions being integers that grow with every write, as
// kube-apiserver's are; with others, the Reflector lists the whole
// selector instead, as it does for a store that is not a PartStore.

// part is a range gained, being listed.
type part[T client.Object] struct {
	sel    client.ShardSelector
	cancel context.CancelFunc
	done   chan struct{} // closed when the goroutine ended
	start  time.Time
	// Written by the part's goroutine before done is closed.
	rv     string // the list's resourceVersion; "" unless listed
	items  int
	strays int
}

// floor is a part of the store that is in step up to rv: events of its
// objects at or below rv are already applied.
type floor struct {
	sel client.ShardSelector
	rv  uint64
}

// partStoreOf finds the PartStore behind store, through TransformStore.
func partStoreOf[T client.Object](store Store[T]) (PartStore[T], bool) {
	if t, ok := store.(transformed[T]); ok {
		store = t.Store
	}
	ps, ok := store.(PartStore[T])
	return ps, ok
}

// startPart lists sel, a range gained, on a goroutine of its own.
func (r *Reflector[T]) startPart(sel client.ShardSelector) {
	ctx, cancel := context.WithCancel(r.runCtx)
	p := &part[T]{sel: sel, cancel: cancel, done: make(chan struct{}), start: time.Now()}
	r.part = p
	r.shard.listing.Store(&p.sel)
	r.partLists.Add(1)
	r.metrics.ListStarted(Listing, ReasonShardWidened)
	r.log.Debug("reflector: listing the shard ranges gained", "resource", r.name, "ranges", sel.String(), "holding", r.sel.String())
	go r.listPart(ctx, p)
}

// stopPart ends the part being listed, if any, and waits for its
// goroutine: what it stored stays (Abort), a later full state or part
// takes it over.
func (r *Reflector[T]) stopPart() {
	p := r.part
	if p == nil {
		return
	}
	p.cancel()
	<-p.done
	r.part = nil
	r.shard.listing.Store(nil)
	r.shard.mu.Lock()
	r.shard.partListed = false
	r.shard.mu.Unlock()
	var err error = context.Canceled
	if p.rv != "" {
		err = nil // listed, but the selector changed before it joined
	}
	r.metrics.ListDone(Listing, p.items, time.Since(p.start), err)
}

// partListed reports whether the part's list is complete (its
// goroutine is ending).
func (r *Reflector[T]) partListed() bool {
	if r.part == nil {
		return false
	}
	r.shard.mu.Lock()
	defer r.shard.mu.Unlock()
	return r.shard.partListed
}

// joinPart adds the listed part to the watch: → Watching from the
// lower of the two versions, skipping what each side has; or a relist
// of the whole selector when the store is not in step or the versions
// cannot be compared.
func (r *Reflector[T]) joinPart() State {
	p := r.part
	<-p.done
	r.part = nil
	r.shard.listing.Store(nil)
	r.shard.mu.Lock()
	r.shard.partListed = false
	r.shard.mu.Unlock()
	r.metrics.ListDone(Listing, p.items, time.Since(p.start), nil)
	r.sel = union(r.sel, p.sel)
	if p.strays > 0 {
		r.shard.filtering.Store(int32(ShardOnClient))
	}
	held, errH := strconv.ParseUint(r.rv, 10, 64)
	listed, errL := strconv.ParseUint(p.rv, 10, 64)
	if r.rv == "" || errH != nil || errL != nil {
		r.log.Debug("reflector: cannot join the ranges listed to the watch; relisting", "resource", r.name, "resourceVersion", r.rv, "listed", p.rv)
		return r.relistState(ReasonShardChanged)
	}
	r.log.Debug("reflector: the shard ranges gained are listed; watching the whole part", "resource", r.name,
		"ranges", p.sel.String(), "objects", p.items, "took", time.Since(p.start).Round(time.Millisecond), "listedAt", p.rv, "heldAt", r.rv)
	// Each side is in step up to its own version (the floors of earlier
	// parts, higher still, stay): the watch resumes from the lower one.
	r.floors = append(r.floors, floor{p.sel, listed})
	if held > listed {
		// The rest is ahead of the part: resume at the part's version,
		// and tell the store it is in step as of there.
		r.floors = append(r.floors, floor{minus(r.sel, p.sel), held})
		r.rv = p.rv
		r.store.Bookmark(p.rv)
	}
	r.syncedShard()
	return Watching
}

// floorTop is the highest version of the floors, 0 without any.
func (r *Reflector[T]) floorTop() uint64 {
	var top uint64
	for _, f := range r.floors {
		top = max(top, f.rv)
	}
	return top
}

// applied reports whether the watch event of obj at rv is one the store
// already has (see floor), and forgets the floors the watch has passed.
func (r *Reflector[T]) applied(obj T, rv string) bool {
	v, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return false
	}
	if v > r.floorTop() {
		r.floors = nil
		return false
	}
	for _, f := range r.floors {
		if v <= f.rv && f.sel.Matches(obj) {
			return true
		}
	}
	return false
}

// listPart lists p into the store until it is complete or its ctx ends,
// retrying failures after the exponential backoff, and then wakes Run.
func (r *Reflector[T]) listPart(ctx context.Context, p *part[T]) {
	defer close(p.done)
	bo := backoffpolicy.Policy{Initial: r.opts.InitialBackoff, Max: r.opts.MaxBackoff}.New()
	dec := decoderFor(r.raw)
	for {
		err := r.listPartOnce(ctx, p, dec)
		if err == nil {
			// Run joins it (and waits for done) when it sees the flag;
			// stopPart clears it after done.
			r.shard.mu.Lock()
			r.shard.partListed = true
			if r.shard.interrupt != nil {
				r.shard.interrupt()
			}
			r.shard.mu.Unlock()
			select {
			case r.shard.wake <- struct{}{}:
			default:
			}
			return
		}
		if ctx.Err() != nil {
			return
		}
		r.noteFailure(Listing, err, refusal(err))
		var wait time.Duration
		switch ra, ok := r.serverWait(err); {
		case ok && ra > 0 && paced(err):
			wait = ra // as for the watch: see onFailure
		default:
			wait = bo.NextBackOff()
			if ok && ra > wait {
				wait = ra
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// listPartOnce lists p once, streamed into the store as a part (see
// PartStore).
func (r *Reflector[T]) listPartOnce(ctx context.Context, p *part[T], dec *wire.Decoder) error {
	ps, _ := partStoreOf(r.raw)
	in := func(obj T) bool { return p.sel.Matches(obj) }
	w := &partWriter[T]{r: r, p: p}
	p.items, p.strays = 0, 0
	lo := client.ListOptions{
		LabelSelector: r.opts.LabelSelector,
		FieldSelector: r.opts.FieldSelector,
		ShardSelector: p.sel,
		Decoder:       dec,
	}
	pg, err := pager.New(r.src.List, pager.Options{ListOptions: lo, PageSize: r.opts.PageSize})
	if err != nil { // checked by New: not expected
		return err
	}
	w.locked(func() { ps.BeginPart(in) })
	for obj, err := range pg.Items(ctx) {
		if errors.Is(err, pager.ErrRestarted) {
			w.locked(func() {
				r.raw.Abort()
				ps.BeginPart(in)
			})
			continue
		}
		if err != nil {
			w.locked(r.raw.Abort)
			return err
		}
		w.item(obj)
	}
	snap := pg.Snapshot()
	if !snap.Complete {
		w.locked(r.raw.Abort)
		if err := ctx.Err(); err != nil {
			return err
		}
		return errors.New("reflector: list ended early")
	}
	w.locked(func() { r.raw.End("") })
	p.rv = snap.ResourceVersion
	return nil
}

// partWriter writes a part's objects to the store, one call at a time
// with the watch going on.
type partWriter[T client.Object] struct {
	r *Reflector[T]
	p *part[T]
}

func (w *partWriter[T]) locked(f func()) {
	w.r.storeMu.Lock()
	defer w.r.storeMu.Unlock()
	f()
}

func (w *partWriter[T]) item(obj T) {
	if !w.p.sel.Matches(obj) {
		w.p.strays++ // the server ignores the selector; the watch notes it too
		return
	}
	w.p.items++
	w.locked(func() { w.r.raw.Item(obj) })
}

// lockStore serializes the store calls of Run's goroutine with those of
// a part being listed.
type lockStore[T client.Object] struct {
	Store[T]
	mu *sync.Mutex
}

func (l lockStore[T]) Add(obj T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Store.Add(obj)
}

func (l lockStore[T]) Update(obj T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Store.Update(obj)
}

func (l lockStore[T]) Delete(obj T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Store.Delete(obj)
}

func (l lockStore[T]) Bookmark(rv string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.Store.Bookmark(rv)
}
