package controller

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
)

// ErrNotSharded is returned by SetShard and Drain of a controller made
// without Options.Shard.
var ErrNotSharded = errors.New("controller is not sharded (Options.Shard is empty)")

// shardKeyOf decides the key a controller reconciles by: key
// (Options.Shard) when set, else the one its primary informer's cache is
// split by, which an informer of a sharded Factory takes from it
// (informer.Informer.UseFactoryShard). A key set that the primary cache
// is not split by is an error matching client.ErrInvalidOptions: the
// controller would reconcile a part its cache does not hold as it (a
// whole cache, or one split by another field). New returns it.
func shardKeyOf[T client.Object](name string, primary *informer.Informer[T], key client.ShardKey) (client.ShardKey, error) {
	held := primary.UseFactoryShard()
	if key == "" || key == held {
		return held, nil
	}
	holds := "the whole collection"
	if held != "" {
		holds = "a part split by " + string(held)
	}
	return key, fmt.Errorf("controller %s: Options.Shard is %s, but its primary informer holds %s; leave Options.Shard empty to take the informer's key, or split the informer by %s (informer.Scope.Shard): %w",
		name, key, holds, key, client.ErrInvalidOptions)
}

// shardGuard is the state of a sharded controller: its part of the hash
// space and the Requests being reconciled, so that a part given up can
// be drained. Unused (and costing nothing) without Options.Shard.
type shardGuard struct {
	mu       sync.Mutex
	sel      client.ShardSelector
	inflight map[Request]*inflight
	changed  notifier // at every end of a Reconcile
	// gone holds the hashes of primary objects deleted and not yet
	// dequeued, when hashing uids: a deleted object's Request must still
	// be told apart from other replicas'.
	gone map[Request]uint64
}

// inflight is one Reconcile in progress.
type inflight struct {
	hash   uint64
	cancel context.CancelFunc
}

// Sharded reports whether the controller works on a part of the hash
// space (Options.Shard).
func (c *Controller[T]) Sharded() bool { return c.opts.Shard != "" }

// Shard returns the part the controller works on: the zero selector
// when it is not sharded, the last SetShard otherwise (nothing before
// the first).
func (c *Controller[T]) Shard() client.ShardSelector {
	c.guard.mu.Lock()
	defer c.guard.mu.Unlock()
	return c.guard.sel
}

// SetShard makes the controller reconcile only the Requests whose
// primary object hashes into sel (by Options.Shard: the object's uid,
// read from the primary cache, or its namespace), from the next one a
// worker takes. Requests outside sel are dropped when a worker takes
// them, and never reconciled: another replica owns them. The objects of
// the part gained that the primary cache already holds are queued
// (while Run runs): their changes while the part was not this
// controller's were dropped, and a cache that kept them (package
// sharding keeps caches through a lost membership) tells no addition.
// Objects the cache receives later are queued by its handlers. SetShard
// does not wait for the Reconcile calls of Requests outside sel in
// progress: Drain does. It may be called before, during and after Run,
// from any goroutine. It fails with ErrNotSharded on a controller made
// without Options.Shard, and with client.ErrInvalidOptions for a
// selector of another key.
func (c *Controller[T]) SetShard(sel client.ShardSelector) error {
	if !c.Sharded() {
		return fmt.Errorf("controller %s: %w", c.name, ErrNotSharded)
	}
	if err := sel.Validate(); err != nil {
		return err
	}
	if sel.Key != c.opts.Shard {
		return fmt.Errorf("controller %s: shard selector on %q, the controller hashes %q: %w", c.name, sel.Key, c.opts.Shard, client.ErrInvalidOptions)
	}
	c.guard.mu.Lock()
	old := c.guard.sel
	c.guard.sel = sel
	c.guard.mu.Unlock()
	queued := c.queueGained(old, sel)
	c.log.Debug("controller: shard changed", "shard", sel.String(), "queued", queued)
	return nil
}

// queueGained queues the Requests of the primary objects cached in sel
// and not in old, while Run runs, and returns how many.
func (c *Controller[T]) queueGained(old, sel client.ShardSelector) int {
	c.mu.Lock()
	q := c.q
	c.mu.Unlock()
	if q == nil || sel.SelectsNothing() {
		return 0
	}
	n := 0
	for _, obj := range c.primary.inf.Store().List() {
		h := c.opts.Shard.HashOf(obj)
		if sel.ContainsHash(h) && !old.ContainsHash(h) {
			q.Add(RequestFor(obj))
			n++
		}
	}
	return n
}

// Drain blocks until no Reconcile of a Request outside the controller's
// part (see SetShard) is in progress, and returns nil. A replica calls
// it after narrowing the part and before another replica may take the
// rest over, so that no Request is ever reconciled by two replicas at
// once. When ctx ends first, Drain cancels the ctx of those Reconcile
// calls and returns ctx's error without waiting for them. It fails with
// ErrNotSharded on a controller made without Options.Shard.
func (c *Controller[T]) Drain(ctx context.Context) error {
	if !c.Sharded() {
		return fmt.Errorf("controller %s: %w", c.name, ErrNotSharded)
	}
	g := &c.guard
	for {
		g.mu.Lock()
		var outside []*inflight
		for _, in := range g.inflight {
			if !g.sel.ContainsHash(in.hash) {
				outside = append(outside, in)
			}
		}
		changed := g.changed.wait()
		g.mu.Unlock()
		if len(outside) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			for _, in := range outside {
				in.cancel()
			}
			return ctx.Err()
		case <-changed:
		}
	}
}

// claim decides whether this replica reconciles req now: it must hash
// into the part. It registers the Reconcile to come and returns its
// context, or false when req belongs to another replica.
func (c *Controller[T]) claim(ctx context.Context, req Request) (context.Context, bool) {
	h, known := c.hashOf(req)
	g := &c.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.gone, req)
	if !known || !g.sel.ContainsHash(h) {
		return nil, false
	}
	if g.inflight == nil {
		g.inflight = map[Request]*inflight{}
	}
	rctx, cancel := context.WithCancel(ctx)
	g.inflight[req] = &inflight{hash: h, cancel: cancel}
	return rctx, true
}

// release ends what claim registered.
func (c *Controller[T]) release(req Request) {
	g := &c.guard
	g.mu.Lock()
	if in, ok := g.inflight[req]; ok {
		in.cancel()
		delete(g.inflight, req)
	}
	g.mu.Unlock()
	g.changed.notify()
}

// hashOf is the hash req's object is sharded by: its namespace's, or its
// uid's, read from the primary cache (or remembered from its deletion).
// Unknown when the cache does not hold the object: it is another
// replica's, or gone.
func (c *Controller[T]) hashOf(req Request) (uint64, bool) {
	if c.opts.Shard == client.ShardByNamespace {
		return client.ShardHash(req.Namespace), true
	}
	if obj, ok := c.primary.inf.Store().Get(req.Namespace, req.Name); ok {
		return client.ShardByUID.HashOf(obj), true
	}
	c.guard.mu.Lock()
	defer c.guard.mu.Unlock()
	h, ok := c.guard.gone[req]
	return h, ok
}

// primaryDeleted remembers the hash of a deleted primary object until its
// Request is taken, so that it is reconciled by the replica that owned it.
func (c *Controller[T]) primaryDeleted(obj T) {
	if c.opts.Shard != client.ShardByUID {
		return
	}
	g := &c.guard
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.gone == nil {
		g.gone = map[Request]uint64{}
	}
	g.gone[RequestFor(obj)] = client.ShardByUID.HashOf(obj)
}
