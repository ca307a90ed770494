package informer

import (
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// SetShard restricts the cache to the objects sel selects, from now on
// (see reflector.Reflector.SetShardSelector): objects leaving the shard
// are dropped from the cache without OnDelete (they were not deleted;
// another replica holds them now) and the watch goes on; the ranges
// sel adds are listed on their own while the watch of the rest goes on
// (nothing cached is listed again), their objects delivered with OnAdd
// (initial false) as they arrive. The
// zero ShardSelector caches everything; one that selects nothing empties
// the cache and makes no request. It does not wait; SyncedShard says
// when the cache holds sel. It returns an error matching
// client.ErrInvalidOptions for a selector the client cannot send.
func (inf *Informer[T]) SetShard(sel client.ShardSelector) error {
	return inf.reflector.SetShardSelector(sel)
}

// ShardKey returns the field the cache is split by (the key of its
// shard selector), "" when it holds the whole collection.
func (inf *Informer[T]) ShardKey() client.ShardKey { return inf.reflector.ShardSelector().Key }

// UseFactoryShard makes an informer of a sharded Factory
// (FactoryOptions.Shard) made without a Scope.Shard hold only this
// replica's part from now on, as if made with Scope.Shard set to the
// factory's key, and returns the key the informer's cache is split by:
// its own when it has one, the factory's when it took it, "" when
// neither it nor its factory is sharded. controller.New calls it for
// its primary informer, so that a sharded program names its key once,
// in its manager's sharding config. Call it before the informer runs:
// a running informer holding the whole collection drops it and lists
// its part when it gets one. A FactoryOptions.Shard the client refuses
// (neither ShardByUID nor ShardByNamespace) leaves it whole. It may be
// called from any goroutine.
func (inf *Informer[T]) UseFactoryShard() client.ShardKey {
	inf.mu.Lock()
	defer inf.mu.Unlock()
	if key := inf.ShardKey(); key != "" || inf.factory == nil || inf.factory.opts.Shard == "" {
		return key
	}
	key := inf.factory.opts.Shard
	if err := inf.factory.shardLater(inf, key, inf.reflector.SetShardSelector); err != nil {
		return "" // a key the client refuses: the informer stays whole
	}
	return key
}

// Shard returns the selector the cache is restricted to (the last one
// asked for).
func (inf *Informer[T]) Shard() client.ShardSelector { return inf.reflector.ShardSelector() }

// SyncedShard returns the selector whose objects the cache holds: after
// SetShard it is the old one until the new part has been listed.
func (inf *Informer[T]) SyncedShard() (client.ShardSelector, bool) {
	return inf.reflector.SyncedShard()
}

// ShardedOnServer reports whether the server applies the shard selector
// (kube-apiserver with the ShardedListAndWatch feature gate) as far as
// its answers tell; when it does not, the informer drops the objects
// outside its shard itself, which saves the cache's memory and the
// handlers' work but not the transfer of the whole collection. See
// reflector.ShardFiltering.
func (inf *Informer[T]) ShardedOnServer() bool {
	return inf.reflector.ShardFiltering() == reflector.ShardOnServer
}
