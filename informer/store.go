package informer

import (
	"strings"
	"sync"

	"github.com/kubewire/kubewire/client"
)

// NamespaceIndex is the built-in index of every Store: objects by
// namespace ("" for cluster-scoped objects). It costs nothing: the store
// keeps objects grouped by namespace.
const NamespaceIndex = "namespace"

// Store is an informer's indexed, thread-safe cache of objects keyed by
// namespace and name, read-only for its users: only the informer's
// reflector writes it. Get it with Informer.Store.
//
// Any number of goroutines may read a Store while the reflector writes
// it. Objects returned by its methods are shared with the cache and with
// every other reader: they must not be modified; call DeepCopy first.
// The exception is a dynamic informer's compact cache (the default for
// *unstructured.Unstructured, see Options.KeepDecoded): it returns a new
// object on every read, the caller's own. Slices returned are the
// caller's.
type Store[T client.Object] struct {
	mu sync.RWMutex
	// objs holds the objects: namespace → name → object. Grouping by
	// namespace serves NamespaceIndex without a second set of keys.
	objs    shelf[T]
	count   int
	indexes map[string]*index[T]

	// streaming: a full state streams in. The objects not received
	// (nor written) since its Begin are marked stale in objs: what End
	// deletes.
	streaming bool
	part      func(T) bool // while a part streams in (beginPart): the objects it holds
	// whole: the objects are exactly the state at rv. False from a
	// stream's Begin to its End (one that broke off leaves objects of
	// two states behind until the next End).
	whole   bool
	initial bool // the stream being received is the first full state
	synced  bool
	syncedC chan struct{} // closed at the first End
	rv      string

	// notify, when set, is called under mu for every change a writer
	// makes; the Informer uses it to queue handler notifications in the
	// same order as the changes.
	notify func(change[T])
}

// newStore returns an empty Store with the given indexes (beside
// NamespaceIndex); indexes may be nil. A Store of Unstructured objects
// keeps them frozen unless keepDecoded.
func newStore[T client.Object](indexes map[string]IndexFunc[T], keepDecoded bool) (*Store[T], error) {
	s := &Store[T]{
		objs:    newDecodedShelf[T](),
		indexes: map[string]*index[T]{},
		syncedC: make(chan struct{}),
	}
	if f, ok := any(newFrozenShelf()).(shelf[T]); ok && !keepDecoded {
		s.objs = f
	}
	if err := s.AddIndexes(indexes); err != nil {
		return nil, err
	}
	return s, nil
}

// Key returns the cache key of obj: "namespace/name", or "name" for a
// cluster-scoped object.
func Key(obj client.Object) string { return key(obj.GetNamespace(), obj.GetName()) }

func key(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

// SplitKey is the inverse of Key.
func SplitKey(k string) (namespace, name string) {
	if ns, n, ok := strings.Cut(k, "/"); ok {
		return ns, n
	}
	return "", k
}

// Get returns the cached object namespace/name ("" namespace for
// cluster-scoped objects).
func (s *Store[T]) Get(namespace, name string) (T, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.objs.get(namespace, name)
}

// GetByKey returns the cached object with the given Key.
func (s *Store[T]) GetByKey(k string) (T, bool) { return s.Get(SplitKey(k)) }

// Len returns the number of cached objects.
func (s *Store[T]) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.count
}

// List returns every cached object, in no particular order.
func (s *Store[T]) List() []T {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]T, 0, s.count)
	for _, obj := range s.objs.all() {
		out = append(out, obj)
	}
	return out
}

// ListKeys returns the Key of every cached object, in no particular order.
func (s *Store[T]) ListKeys() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, s.count)
	for ns, name := range s.objs.names() {
		out = append(out, key(ns, name))
	}
	return out
}

// Namespaces returns the namespaces that have cached objects.
func (s *Store[T]) Namespaces() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []string
	for ns := range s.objs.namespaces() {
		out = append(out, ns)
	}
	return out
}

// ResourceVersion is the resourceVersion the store is synced to: the
// last full state's, or the last watch event's or bookmark's since. It is
// "" before the first full state.
func (s *Store[T]) ResourceVersion() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rv
}

// Snapshot is the contents of a Store at one instant: its objects and
// the resourceVersion they are the state of. The objects are shared with
// the cache (do not modify them) unless the Store builds them on every
// read (see Store); the slice is the caller's.
type Snapshot[T client.Object] struct {
	ResourceVersion string
	Items           []T
}

// Snapshot returns the cached objects and the resourceVersion they are
// the state of, read under one lock, so that no write falls between the
// two. ok is false while the store holds no such state: before its first
// full state, and from the start of a new full state (a relist) until
// it is complete, when the objects mix two states.
func (s *Store[T]) Snapshot() (snap Snapshot[T], ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if !s.whole {
		return Snapshot[T]{}, false
	}
	items := make([]T, 0, s.count)
	for _, obj := range s.objs.all() {
		items = append(items, obj)
	}
	return Snapshot[T]{ResourceVersion: s.rv, Items: items}, true
}

// HasSynced reports whether a first full state has been stored.
func (s *Store[T]) HasSynced() bool {
	select {
	case <-s.syncedC:
		return true
	default:
		return false
	}
}
