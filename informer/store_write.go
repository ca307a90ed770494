package informer

import (
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/resourceversion"
	"github.com/kubewire/kubewire/reflector"
)

// writer is the reflector's side of a Store: the Store a user sees only
// reads, and the informer hands this adapter to its reflector.
type writer[T client.Object] struct{ s *Store[T] }

var (
	_ reflector.Store[client.Object]     = writer[client.Object]{}
	_ reflector.Resharder[client.Object] = writer[client.Object]{}
	_ reflector.PartStore[client.Object] = writer[client.Object]{}
)

func (w writer[T]) Begin()             { w.s.begin() }
func (w writer[T]) Item(obj T)         { w.s.item(obj) }
func (w writer[T]) End(rv string)      { w.s.end(rv) }
func (w writer[T]) Abort()             { w.s.abort() }
func (w writer[T]) Add(obj T)          { w.s.update(obj) }
func (w writer[T]) Update(obj T)       { w.s.update(obj) }
func (w writer[T]) Delete(obj T)       { w.s.delete(obj) }
func (w writer[T]) Bookmark(rv string) { w.s.bookmark(rv) }

func (w writer[T]) Reshard(keep func(T) bool) { w.s.reshard(keep) }
func (w writer[T]) BeginPart(in func(T) bool) { w.s.beginPart(in) }

// changeKind is what a writer did to the store.
type changeKind uint8

const (
	changeAdd changeKind = iota
	changeUpdate
	changeDelete
	// changeSynced marks the end of the first full state.
	changeSynced
)

// change is one change to the store, as handlers receive it.
type change[T client.Object] struct {
	kind changeKind
	// flag is "part of the initial list" for changeAdd and "final state
	// unknown" for changeDelete.
	flag bool
	old  T // changeUpdate only
	// buildOld, when set, builds old instead (from a frozen store): in
	// the handler's goroutine, on delivery, not under the store's lock.
	buildOld func() T
	obj      T
}

// The methods below write the store, for the one writer (a Reflector,
// through writer); see reflector.Store for the protocol.

// begin starts receiving a full state.
func (s *Store[T]) begin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.markStale()
	s.streaming, s.whole = true, false
	s.initial = !s.synced
}

// beginPart starts receiving the full state of the part of the
// collection in selects (shard ranges gained), beside the rest, whose
// watch events keep coming: end then deletes only the part's objects
// not received, and the store's resourceVersion keeps following the
// watch.
func (s *Store[T]) beginPart(in func(T) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.markStale()
	s.streaming, s.whole = true, false
	s.part = in
	s.initial = false
}

// item upserts one object of the full state being received; an object
// whose resourceVersion did not change is kept as it is.
func (s *Store[T]) item(obj T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.upsert(obj, s.streaming)
}

// end deletes the objects the full state did not contain, reporting them
// with their state unknown, and records resourceVersion.
func (s *Store[T]) end(resourceVersion string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	part := s.part
	if s.streaming {
		for _, k := range s.objs.takeStale() {
			obj, ok := s.objs.get(k.namespace, k.name)
			if ok && (part == nil || part(obj)) {
				s.remove(k.namespace, k.name, obj)
				s.emit(change[T]{kind: changeDelete, flag: true, obj: obj})
			}
		}
	}
	s.streaming, s.initial, s.part, s.whole = false, false, nil, true
	if part != nil {
		return // a part: the version is the watch's
	}
	s.rv = resourceVersion
	if !s.synced {
		s.synced = true
		close(s.syncedC)
		s.emit(change[T]{kind: changeSynced})
	}
}

// abort ends a full state that broke off: what was upserted stays,
// nothing is deleted.
func (s *Store[T]) abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objs.takeStale()
	s.streaming, s.part = false, nil
}

// update applies an ADDED or MODIFIED watch event.
func (s *Store[T]) update(obj T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.upsert(obj, false)
	if rv := obj.GetResourceVersion(); rv != "" && (!s.streaming || s.part != nil) {
		s.rv = rv
	}
}

// delete applies a DELETED watch event; obj is the object's final state.
func (s *Store[T]) delete(obj T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ns, name := obj.GetNamespace(), obj.GetName()
	old, ok := s.objs.get(ns, name)
	if !ok {
		return
	}
	s.remove(ns, name, old)
	s.emit(change[T]{kind: changeDelete, obj: obj})
	if rv := obj.GetResourceVersion(); rv != "" && (!s.streaming || s.part != nil) {
		s.rv = rv
	}
}

// reshard drops the objects keep rejects, telling no handler: they left
// the informer's shard, they were not deleted.
func (s *Store[T]) reshard(keep func(T) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var drop []T
	for _, obj := range s.objs.all() {
		if !keep(obj) {
			drop = append(drop, obj)
		}
	}
	for _, obj := range drop {
		s.remove(obj.GetNamespace(), obj.GetName(), obj)
	}
}

// bookmark records a newer resourceVersion.
func (s *Store[T]) bookmark(resourceVersion string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv = resourceVersion
}

// upsert stores obj under s.mu. streamed marks it as seen in the full
// state being received.
func (s *Store[T]) upsert(obj T, streamed bool) {
	ns, name := obj.GetNamespace(), obj.GetName()
	k := objKey{ns, name}
	rv, uid, ok := s.objs.version(ns, name)
	if ok && rv != "" && (rv == obj.GetResourceVersion() || newer(rv, obj.GetResourceVersion())) {
		// Unchanged: keep the stored object (a relist then holds one
		// copy). Or older, from a lagging server's list, which the
		// reflector refuses at its end: the cache never goes back.
		if streamed {
			s.objs.unmark(ns, name)
		}
		return
	}
	var old T
	var buildOld func() T
	recreated := ok && streamed && !sameUID(uid, string(obj.GetUID()))
	if ok {
		// The object replaced, for handlers and indexes. A frozen store
		// builds it (the one cost of keeping objects frozen on the write
		// path): for handlers on delivery, sharing with obj what did not
		// change, for indexes now.
		old, buildOld = s.objs.getLater(ns, name, obj)
		if buildOld != nil && (recreated || len(s.indexes) > 0) {
			old, buildOld = buildOld(), nil
		}
	}
	if recreated {
		// Deleted and created again while no watch was open: tell
		// handlers both, not an update between two different objects.
		s.remove(ns, name, old)
		s.emit(change[T]{kind: changeDelete, flag: true, obj: old})
		s.upsert(obj, streamed)
		return
	}
	s.objs.put(obj)
	if ok {
		for _, ix := range s.indexes {
			ix.update(k, old, obj)
		}
		s.emit(change[T]{kind: changeUpdate, old: old, buildOld: buildOld, obj: obj})
		return
	}
	s.count++
	for _, ix := range s.indexes {
		ix.add(k, obj)
	}
	s.emit(change[T]{kind: changeAdd, flag: streamed && s.initial, obj: obj})
}

// remove deletes namespace/name (stored as obj) under s.mu.
func (s *Store[T]) remove(ns, name string, obj T) {
	s.objs.remove(ns, name)
	s.count--
	k := objKey{ns, name}
	for _, ix := range s.indexes {
		ix.remove(k, obj)
	}
}

// markStale starts a full state: every object cached is stale until the
// stream (or a watch event) writes it again.
func (s *Store[T]) markStale() { s.objs.markStale() }

// newer reports whether resourceVersion a is newer than b, both
// comparable (KEP-5504); others are never newer.
func newer(a, b string) bool {
	return resourceversion.Comparable(a) && resourceversion.Comparable(b) && resourceversion.Less(b, a)
}

// sameUID reports whether two objects' UIDs are the same, or either has
// none.
func sameUID(x, y string) bool { return x == "" || y == "" || x == y }

func (s *Store[T]) emit(c change[T]) {
	if s.notify != nil {
		s.notify(c)
	}
}
