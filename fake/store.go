package fake

import (
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/kubewire/kubewire/fake/internal/object"
)

// Watch event types.
const (
	eventAdded    = "ADDED"
	eventModified = "MODIFIED"
	eventDeleted  = "DELETED"
	eventBookmark = "BOOKMARK"
	eventError    = "ERROR"
)

// errExpired reports a resource version older than the kept history.
var errExpired = errors.New("resource version compacted")

// change is one committed write: the object's new state (for DELETED, its
// last state stamped with the deletion's resource version) and its state
// before (nil for ADDED).
type change struct {
	rv   uint64
	typ  string
	obj  *object.Stored
	prev *object.Stored
}

// collection holds the live objects of one resource.
type collection struct {
	items map[string]*object.Stored
	// sorted caches items ordered by key; nil after an add or remove.
	// Guarded by store.mu for writing, and by store.sortMu when rebuilt
	// under a read lock.
	sorted []*object.Stored
	// sortedShared is set once sorted was handed to a reader: a write
	// must then copy it rather than change a snapshot being served.
	sortedShared bool
	// past caches the last reconstructed older snapshot (sortMu).
	pastRV uint64
	past   []*object.Stored
}

// store is the server's multi-version storage: the live objects of every
// resource, one global resource version, and the log of changes a watch or
// an older snapshot is served from. All methods are safe for concurrent
// use.
type store struct {
	mu        sync.RWMutex
	sortMu    sync.Mutex
	rv        uint64
	colls     map[*object.StorageKey]*collection
	log       []change
	logStart  int    // logical index of log[0]
	compacted uint64 // changes at or below this version are gone
	maxLog    int
	changed   chan struct{} // closed and replaced on every commit
}

func newStore(maxLog int) *store {
	return &store{colls: map[*object.StorageKey]*collection{}, maxLog: maxLog, changed: make(chan struct{})}
}

func (s *store) coll(r *object.Resource) *collection {
	c := s.colls[r.Storage]
	if c == nil {
		c = &collection{items: map[string]*object.Stored{}}
		s.colls[r.Storage] = c
	}
	return c
}

// currentRV returns the newest resource version.
func (s *store) currentRV() uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rv
}

// get returns the live object, or nil.
func (s *store) get(r *object.Resource, key string) *object.Stored {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if c := s.colls[r.Storage]; c != nil {
		return c.items[key]
	}
	return nil
}

// writeFunc computes a write under the store's lock: given the live object
// (or nil) and the resource version the write will get, it returns the
// event type and the new object (for DELETED the removed one), or an empty
// type for no change.
type writeFunc func(cur *object.Stored, rv uint64) (typ string, next *object.Stored, err error)

// write runs fn and commits its result unless dryRun. It returns the new
// object, or the live one when fn made no change.
func (s *store) write(r *object.Resource, key string, dryRun bool, fn writeFunc) (*object.Stored, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.coll(r)
	cur := c.items[key]
	rv := s.rv + 1
	if dryRun && cur != nil {
		// A dry run changes nothing: kube-apiserver answers with the
		// object's current resourceVersion (kubectl diff relies on it).
		rv = cur.RV
	}
	typ, next, err := fn(cur, rv)
	if err != nil {
		return nil, "", err
	}
	if typ == "" {
		return cur, "", nil
	}
	if dryRun {
		return next, typ, nil
	}
	s.rv++
	switch typ {
	case eventAdded:
		c.items[key] = next
		c.sorted, c.sortedShared = nil, false
	case eventModified:
		c.items[key] = next
		if c.sorted != nil {
			if c.sortedShared {
				c.sorted, c.sortedShared = slices.Clone(c.sorted), false
			}
			i, _ := slices.BinarySearchFunc(c.sorted, key, byKey)
			c.sorted[i] = next
		}
	case eventDeleted:
		delete(c.items, key)
		c.sorted, c.sortedShared = nil, false
	}
	s.log = append(s.log, change{rv: s.rv, typ: typ, obj: next, prev: cur})
	if s.maxLog > 0 && len(s.log) > s.maxLog {
		drop := len(s.log) / 2
		s.compactLocked(drop)
	}
	close(s.changed)
	s.changed = make(chan struct{})
	return next, typ, nil
}

// compactLocked forgets the first n changes of the log.
func (s *store) compactLocked(n int) {
	if n <= 0 {
		return
	}
	s.compacted = s.log[n-1].rv
	s.log = slices.Clone(s.log[n:])
	s.logStart += n
	for _, c := range s.colls {
		c.past = nil
	}
}

// compact forgets every change up to now: older watches, Exact lists and
// continue tokens then get 410 Gone.
func (s *store) compact() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.log) > 0 {
		s.compactLocked(len(s.log))
	}
	s.compacted = s.rv
}

func byKey(o *object.Stored, key string) int { return strings.Compare(o.Key, key) }

// snapshot returns the resource's objects at resource version at (0 or
// newer than the store means now), sorted by key, and the version they
// are at. The slice is shared: callers must not modify it.
func (s *store) snapshot(r *object.Resource, at uint64) ([]*object.Stored, uint64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := s.colls[r.Storage]
	if at == 0 || at >= s.rv {
		if c == nil {
			return nil, s.rv, nil
		}
		s.sortMu.Lock()
		defer s.sortMu.Unlock()
		if c.sorted == nil {
			c.sorted = sortedObjects(c.items)
		}
		c.sortedShared = true
		return c.sorted, s.rv, nil
	}
	if at < s.compacted {
		return nil, 0, errExpired
	}
	if c == nil {
		return nil, at, nil
	}
	s.sortMu.Lock()
	defer s.sortMu.Unlock()
	if c.past != nil && c.pastRV == at {
		return c.past, at, nil
	}
	items := make(map[string]*object.Stored, len(c.items))
	for k, v := range c.items {
		items[k] = v
	}
	for i := len(s.log) - 1; i >= 0 && s.log[i].rv > at; i-- {
		ch := s.log[i]
		if ch.obj.Res.Storage != r.Storage {
			continue
		}
		if ch.prev == nil {
			delete(items, ch.obj.Key)
		} else {
			items[ch.obj.Key] = ch.prev
		}
	}
	c.past, c.pastRV = sortedObjects(items), at
	return c.past, at, nil
}

func sortedObjects(items map[string]*object.Stored) []*object.Stored {
	out := make([]*object.Stored, 0, len(items))
	for _, o := range items {
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b *object.Stored) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// cursorAfter returns the log position of the first change newer than rv,
// or errExpired when changes after rv are no longer kept.
func (s *store) cursorAfter(rv uint64) (int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if rv < s.compacted {
		return 0, errExpired
	}
	i, _ := slices.BinarySearchFunc(s.log, rv+1, func(c change, v uint64) int {
		switch {
		case c.rv < v:
			return -1
		case c.rv > v:
			return 1
		}
		return 0
	})
	return s.logStart + i, nil
}

// since returns the changes from log position cursor on, the position
// after them, and a channel closed at the next commit. It returns
// errExpired when the position has been compacted away. The returned
// slice is never modified by the store.
func (s *store) since(cursor int) ([]change, int, <-chan struct{}, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if cursor < s.logStart {
		return nil, cursor, s.changed, errExpired
	}
	i := cursor - s.logStart
	if i > len(s.log) {
		i = len(s.log)
	}
	evs := s.log[i:len(s.log):len(s.log)]
	return evs, s.logStart + len(s.log), s.changed, nil
}

// snapshotAndCursor returns the resource's live objects and the log
// position right after them, atomically, for watches that start with the
// current state.
func (s *store) snapshotAndCursor(r *object.Resource) ([]*object.Stored, uint64, int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var objs []*object.Stored
	if c := s.colls[r.Storage]; c != nil {
		s.sortMu.Lock()
		if c.sorted == nil {
			c.sorted = sortedObjects(c.items)
		}
		c.sortedShared = true
		objs = c.sorted
		s.sortMu.Unlock()
	}
	return objs, s.rv, s.logStart + len(s.log)
}
