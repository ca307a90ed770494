package reflector

import "github.com/kubewire/kubewire/client"

// Store receives the collection's state from a Reflector. The informer's
// cache implements it; a Reflector is its only writer and makes one call
// at a time (from the goroutine running Run, and for a PartStore from
// the one listing a part), so an implementation needs locking only
// against its own readers.
//
// A full state (a list, or the initial events of a streaming list)
// arrives as a stream rather than as one slice, so that a relist never
// holds two full copies of the collection:
//
//	Begin, Item, Item, ..., End(resourceVersion)
//
// Item upserts one object of the new state: an implementation keeps its
// stored object when the resourceVersion did not change, or when the
// stored one is newer (a greater resourceVersion, compared as integers:
// a list from a lagging server, which the Reflector refuses at its End,
// see the package documentation), and notes the key as seen. End
// deletes every stored object not seen since Begin (those are the
// deletions the watch did not deliver) and records
// resourceVersion as the version the store is synced to. Abort ends a
// stream that broke off before End: objects already upserted stay (each
// is a real, newer state), nothing is deleted, and a new Begin follows.
// A streaming list may also deliver Delete between Begin and End, for a
// change made after its snapshot: the object is gone and must not be
// restored by End.
//
// A Store may also implement Resharder, so that objects leaving the
// Reflector's shard are dropped without being reported as deletions,
// and PartStore, so that the ranges a shard selector gains are listed
// alone (both are needed for that).
//
// Between full states, watch events arrive as Add, Update and Delete,
// each object carrying its own resourceVersion, and Bookmark records a
// newer resourceVersion with no change of objects. Objects handed to
// the store are the store's to keep; they were decoded through a
// ReadOnly wire.Decoder and must not be modified (DeepCopy first).
type Store[T client.Object] interface {
	Begin()
	Item(obj T)
	End(resourceVersion string)
	Abort()

	Add(obj T)
	Update(obj T)
	Delete(obj T)
	Bookmark(resourceVersion string)
}

// PartStore is implemented by a Store that can receive the full state of
// a part of the collection while it keeps the rest: the shard ranges a
// Reflector gains (see SetShardSelector). BeginPart(in) starts it, in
// place of Begin; the Items that follow are objects for which in returns
// true, and End deletes only the stored objects for which in returns
// true that were not seen since BeginPart, and records no
// resourceVersion (its argument is ""): once the part is listed, the
// Reflector joins it to its watch and tells the store, with Bookmark,
// the version the whole store is in step with from then on. Abort ends
// a part as it ends a full state.
//
// While a part streams in, the watch of the rest goes on: Add, Update,
// Delete and Bookmark calls for objects outside the part arrive between
// the part's calls, from another goroutine; the Reflector still makes
// one call at a time. Until End, the store is not in step with the
// server for the part's objects.
type PartStore[T client.Object] interface {
	BeginPart(in func(obj T) bool)
}
