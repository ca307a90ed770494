package informer

import (
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// SetShard restricts the cache to the objects sel selects, from now on
// (see reflector.Reflector.SetShardSelector): objects leaving the shard
// are dropped from the cache without OnDelete (they were not deleted;
// another replica holds them now), objects entering it are delivered
// with OnAdd (initial false) once the new part is listed, and objects
// deleted meanwhile inside the part with OnDelete (stateUnknown). The
// zero ShardSelector caches everything; one that selects nothing empties
// the cache and makes no request. It does not wait; SyncedShard says
// when the cache holds sel. It returns an error matching
// client.ErrInvalidOptions for a selector the client cannot send.
func (inf *Informer[T]) SetShard(sel client.ShardSelector) error {
	return inf.reflector.SetShardSelector(sel)
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
