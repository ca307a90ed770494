package reflector

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/kubewire/kubewire/client"
)

// Sharding: a Reflector restricted to a part of the hash space (KEP-5866
// shard selectors), whose part may change while it runs.

// ShardFiltering says where a Reflector's shard selector is applied.
type ShardFiltering int32

const (
	// ShardNotRequested: the Reflector has no shard selector, or one
	// that selects nothing (it makes no request).
	ShardNotRequested ShardFiltering = iota
	// ShardUnknown: nothing has told yet (no list or watch has delivered
	// an object since the selector was set).
	ShardUnknown
	// ShardOnServer: the server applies the selector. A list that
	// carried shardInfo says so for certain; kube-apiserver sets it on
	// lists of built-in kinds only, so for custom resources and
	// metadata-only lists it is concluded from a full state with objects
	// and none outside the range.
	ShardOnServer
	// ShardOnClient: the server sent an object outside the range, so it
	// ignores the selector (a kube-apiserver without the
	// ShardedListAndWatch feature gate): the Reflector drops such
	// objects itself. That saves the store's memory and the handlers'
	// work, not the transfer and decoding of the whole collection.
	ShardOnClient
)

var shardFilteringNames = [...]string{"not requested", "unknown", "on the server", "on the client"}

func (f ShardFiltering) String() string {
	if f >= 0 && int(f) < len(shardFilteringNames) {
		return shardFilteringNames[f]
	}
	return "ShardFiltering(?)"
}

// Resharder is implemented by a Store that can drop the objects outside
// a new shard at once. When the shard selector changes, the Reflector
// calls Reshard, between full states and never between Begin and End,
// on the goroutine running Run: the store removes every object for which
// keep returns false, without reporting them as deletions (they did not
// change on the server; they left the store's part of it). A Store
// without it keeps them until the End of the relist that follows, which
// removes them as deletions.
type Resharder[T client.Object] interface {
	Reshard(keep func(obj T) bool)
}

// resharderOf finds the Resharder behind store, through TransformStore.
func resharderOf[T client.Object](store Store[T]) (Resharder[T], bool) {
	if t, ok := store.(transformed[T]); ok {
		store = t.Store
	}
	rs, ok := store.(Resharder[T])
	return rs, ok
}

// shardState is what SetShardSelector shares with the goroutine running
// Run.
type shardState struct {
	mu        sync.Mutex
	latest    client.ShardSelector // the selector asked for last
	pending   bool                 // latest is not applied yet
	interrupt context.CancelFunc   // ends the attempt Run is making
	wake      chan struct{}        // wakes an Idle Run
	// partListed: a part gained is listed and waits to join the watch
	// (widen.go); it ends the attempt Run is making.
	partListed bool
	synced     atomic.Pointer[client.ShardSelector]
	listing    atomic.Pointer[client.ShardSelector] // the part being listed (widen.go)
	filtering  atomic.Int32
}

// SetShardSelector restricts the Reflector to sel from now on (the zero
// ShardSelector lifts the restriction; one that selects nothing empties
// the store and makes no request until the next call). It does not wait:
// Run ends the list or watch in progress and
//
//   - when sel selects a part of what was selected and the store is in
//     step with the server (watching), drops the objects outside sel
//     from the store (see Resharder) and watches on from the same
//     resourceVersion with sel: nothing is listed again;
//   - when sel keeps some of what was selected and adds ranges, and the
//     store is in step and takes parts (Resharder and PartStore, as the
//     informer's does), drops what sel leaves out, lists only the
//     ranges gained (PartLists counts these lists; Relists does not)
//     while the watch of the ranges kept resumes from its
//     resourceVersion, and then watches the whole of sel from where
//     both were (see PartStore): nothing held is listed again. This
//     relies on resourceVersions being integers that grow with every
//     write, as kube-apiserver's are; with others, or a store without
//     PartStore, it reads a new full state as below;
//   - otherwise reads a new full state with sel, in which the objects
//     already stored and unchanged are kept as they are, objects new to
//     the store arrive as additions, and objects gone from the server
//     while in the range as deletions.
//
// It returns an error matching client.ErrInvalidOptions for a selector
// the client would refuse to send, and changes nothing then. It may be
// called from any goroutine, before or while Run runs.
func (r *Reflector[T]) SetShardSelector(sel client.ShardSelector) error {
	if err := sel.Validate(); err != nil {
		return err
	}
	sh := &r.shard
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sel.Equal(sh.latest) {
		return nil
	}
	sh.latest, sh.pending = sel, true
	if sh.interrupt != nil {
		sh.interrupt()
	}
	select {
	case sh.wake <- struct{}{}:
	default:
	}
	return nil
}

// ShardSelector returns the selector last asked for (Options.ShardSelector
// or the last SetShardSelector).
func (r *Reflector[T]) ShardSelector() client.ShardSelector {
	r.shard.mu.Lock()
	defer r.shard.mu.Unlock()
	return r.shard.latest
}

// SyncedShard returns the selector of the store's contents: the one
// whose full state was last stored (or to which the store was narrowed),
// and ok false before any. After SetShardSelector it is the old one
// until the store holds the new part.
func (r *Reflector[T]) SyncedShard() (client.ShardSelector, bool) {
	p := r.shard.synced.Load()
	if p == nil {
		return client.ShardSelector{}, false
	}
	return *p, true
}

// ListingPart returns the shard ranges being listed on their own, gained
// by the last SetShardSelector (see there), and ok false when no such
// list is in progress.
func (r *Reflector[T]) ListingPart() (client.ShardSelector, bool) {
	p := r.shard.listing.Load()
	if p == nil {
		return client.ShardSelector{}, false
	}
	return *p, true
}

// ShardFiltering says where the shard selector is applied, as far as
// the server's answers since it was set tell.
func (r *Reflector[T]) ShardFiltering() ShardFiltering {
	return ShardFiltering(r.shard.filtering.Load())
}

// attempt returns the context of one state's work: it ends with ctx,
// or when SetShardSelector interrupts it.
func (r *Reflector[T]) attempt(ctx context.Context) (context.Context, context.CancelFunc) {
	actx, cancel := context.WithCancel(ctx)
	sh := &r.shard
	sh.mu.Lock()
	if sh.pending || sh.partListed {
		cancel() // a change came in since the last look: take it first
	}
	sh.interrupt = cancel
	sh.mu.Unlock()
	return actx, func() {
		sh.mu.Lock()
		sh.interrupt = nil
		sh.mu.Unlock()
		cancel()
	}
}

// takeShardChange returns the selector to apply, if one is pending.
func (r *Reflector[T]) takeShardChange() (client.ShardSelector, bool) {
	sh := &r.shard
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if !sh.pending {
		return client.ShardSelector{}, false
	}
	sh.pending = false
	return sh.latest, true
}

// reshard applies a new selector and returns the state to go on with.
func (r *Reflector[T]) reshard(sel client.ShardSelector) State {
	r.stopPart() // listed again below, as far as sel still holds it
	old, was := r.sel, r.ShardFiltering()
	r.strays = 0
	r.log.Debug("reflector: shard selector changed", "resource", r.name, "from", old.String(), "to", sel.String())
	r.bo.Reset() // a new part is a fresh start, not one more failure
	rs, canDrop := resharderOf(r.raw)
	_, canPart := partStoreOf(r.raw)
	if canDrop {
		rs.Reshard(func(obj T) bool { return sel.Matches(obj) })
	}
	// The store holds the whole of old at r.rv (and, through the floors,
	// more): what sel keeps of it is held, and a watch from r.rv with
	// that carries on. The server that filtered (or ignored) old does
	// the same with what is kept: no full state will come to tell.
	inStep := canDrop && r.rv != "" && !old.SelectsNothing()
	keepFiltering := func() {
		if was == ShardOnServer || was == ShardOnClient {
			r.shard.filtering.Store(int32(was))
		}
	}
	switch {
	case sel.SelectsNothing():
		r.sel = sel
		r.setFiltering()
		return Idle
	case inStep && old.Covers(sel):
		r.sel = sel
		r.setFiltering()
		keepFiltering()
		r.syncedShard()
		return Watching
	case inStep && canPart && sameKeyRanges(old, sel) && !intersect(old, sel).SelectsNothing():
		// Wider: only the ranges gained are listed, beside the watch of
		// what is kept (widen.go).
		r.sel = intersect(old, sel)
		r.setFiltering()
		keepFiltering()
		r.syncedShard()
		r.startPart(minus(sel, old))
		return Watching
	}
	r.sel = sel
	r.setFiltering()
	if selectsEverything(sel) {
		// No object can stray from sel, so its full state will not show
		// where it is applied: what the server did with old still holds.
		keepFiltering()
	}
	return r.relistState(ReasonShardChanged)
}

// selectsEverything reports whether sel's ranges cover the whole hash
// space.
func selectsEverything(sel client.ShardSelector) bool {
	return !sel.IsZero() && sel.Covers(client.ShardSelector{Key: sel.Key, Ranges: []client.HashRange{{}}})
}

// setFiltering resets ShardFiltering for a new selector.
func (r *Reflector[T]) setFiltering() {
	f := ShardUnknown
	if r.sel.IsZero() || r.sel.SelectsNothing() {
		f = ShardNotRequested
	}
	r.shard.filtering.Store(int32(f))
}

// syncedShard records that the store holds the full state of r.sel.
func (r *Reflector[T]) syncedShard() {
	sel := r.sel
	r.shard.synced.Store(&sel)
}

// idle is the Idle state: the selector selects nothing. The store is
// marked synced with nothing in it (a replica holding no part of the
// hash space has a complete, empty view of it), and no request is made
// until the selector changes or ctx ends.
func (r *Reflector[T]) idle(ctx context.Context) State {
	r.begin()
	r.end(r.rv)
	r.rv = ""
	r.following()
	r.syncedShard()
	select {
	case <-ctx.Done():
	case <-r.shard.wake:
	}
	return Idle
}

// inShard reports whether obj falls in the selector, noting an object
// the server should have left out.
func (r *Reflector[T]) inShard(obj T) bool {
	if r.sel.IsZero() || r.sel.Matches(obj) {
		return true
	}
	r.strays++
	if r.ShardFiltering() != ShardOnClient {
		r.shard.filtering.Store(int32(ShardOnClient))
		r.log.Info("reflector: the server ignores the shard selector (no ShardedListAndWatch feature gate?); filtering on the client",
			"resource", r.name, "selector", r.sel.String())
	}
	return false
}

// fullStateFiltered concludes ShardFiltering from a full state of items
// objects: certain with the list's shardInfo, else from the absence of
// objects outside the range.
func (r *Reflector[T]) fullStateFiltered(items int, shardInfo string) {
	if r.sel.IsZero() || r.strays > 0 {
		return
	}
	if shardInfo != "" {
		if echoed, err := client.ParseShardSelector(shardInfo); err == nil && echoed.Equal(r.sel) {
			r.shard.filtering.Store(int32(ShardOnServer))
			return
		}
	}
	if items > 0 && !selectsEverything(r.sel) {
		r.shard.filtering.Store(int32(ShardOnServer))
	}
}

// shardFiltered is the store as the states write it: objects outside the
// shard selector are dropped (noted by inShard) before the store sees
// them, and so are those outside the label and field selectors
// (selected); an update taking an object out of those is a deletion, as
// kube-apiserver's watch sends it.
type shardFiltered[T client.Object] struct {
	Store[T]
	r *Reflector[T]
}

func (f shardFiltered[T]) Item(obj T) {
	if f.r.inShard(obj) && f.r.selected(obj) {
		f.Store.Item(obj)
	}
}

func (f shardFiltered[T]) Add(obj T) {
	if f.r.inShard(obj) && f.r.selected(obj) {
		f.Store.Add(obj)
	}
}

func (f shardFiltered[T]) Update(obj T) {
	if !f.r.inShard(obj) {
		return
	}
	if !f.r.selected(obj) {
		f.Store.Delete(obj) // it left the selection; nothing if never cached
		return
	}
	f.Store.Update(obj)
}

func (f shardFiltered[T]) Delete(obj T) {
	if f.r.inShard(obj) {
		f.Store.Delete(obj)
	}
}
