package storage

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kubewire/kubewire/fake/internal/object"
)

// Watch event types.
const (
	Added    = "ADDED"
	Modified = "MODIFIED"
	Deleted  = "DELETED"
	Bookmark = "BOOKMARK"
	Error    = "ERROR"
)

// ErrExpired reports a resource version older than the kept history.
var ErrExpired = errors.New("resource version compacted")

// Change is one committed write: the object's new state (for DELETED, its
// last state stamped with the deletion's resource version) and its state
// before (nil for ADDED).
type Change struct {
	RV   uint64
	Type string
	Obj  *object.Stored
	Prev *object.Stored
}

// collection holds the live objects of one resource.
type collection struct {
	Items map[string]*object.Stored
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

// Store is the server's multi-version storage: the live objects of every
// resource, one global resource version, and the log of changes a watch or
// an older snapshot is served from. All methods are safe for concurrent
// use.
type Store struct {
	Mu        sync.RWMutex
	sortMu    sync.Mutex
	Rv        uint64
	Colls     map[*object.StorageKey]*collection
	log       []Change
	logStart  int    // logical index of log[0]
	compacted uint64 // changes at or below this version are gone
	watchFrom uint64 // watches from before this version are refused (the watch cache's start)
	maxLog    int
	changed   chan struct{} // closed and replaced on every commit

	// lastChange is the version of each resource's newest change, and
	// progress the version its watch cache reached without one (etcd's
	// progress notification, asked for by a read that waits), or every
	// cache reached at once (progressAll: the server's start, a
	// compaction or restart): a watch cache is at the newest of these.
	lastChange  map[*object.StorageKey]uint64
	progress    map[*object.StorageKey]uint64
	progressAll uint64
	// cacheStart is the version a resource's watch cache started at,
	// for those started after the server (custom resources').
	cacheStart map[*object.StorageKey]uint64
	// windows are the changes each resource's watch cache still holds
	// (see watchWindow), timed by Now (nil: time.Now).
	windows map[*object.StorageKey]*watchWindow
	Now     func() time.Time
}

func New(maxLog int) *Store {
	return &Store{Colls: map[*object.StorageKey]*collection{}, maxLog: maxLog, changed: make(chan struct{}), lastChange: map[*object.StorageKey]uint64{}, progress: map[*object.StorageKey]uint64{}, cacheStart: map[*object.StorageKey]uint64{}, windows: map[*object.StorageKey]*watchWindow{}}
}

func (s *Store) coll(r *object.Resource) *collection {
	c := s.Colls[r.Storage]
	if c == nil {
		c = &collection{Items: map[string]*object.Stored{}}
		s.Colls[r.Storage] = c
	}
	return c
}

// CurrentRV returns the newest resource version.
func (s *Store) CurrentRV() uint64 {
	s.Mu.RLock()
	defer s.Mu.RUnlock()
	return s.Rv
}

// Get returns the live object, or nil.
func (s *Store) Get(r *object.Resource, key string) *object.Stored {
	s.Mu.RLock()
	defer s.Mu.RUnlock()
	if c := s.Colls[r.Storage]; c != nil {
		return c.Items[key]
	}
	return nil
}

// WriteFunc computes a write under the store's lock: given the live object
// (or nil) and the resource version the write will get, it returns the
// event type and the new object (for DELETED the removed one), or an empty
// type for no change.
type WriteFunc func(cur *object.Stored, rv uint64) (typ string, next *object.Stored, err error)

// Write runs fn and commits its result unless dryRun. It returns the new
// object, or the live one when fn made no change.
func (s *Store) Write(r *object.Resource, key string, dryRun bool, fn WriteFunc) (*object.Stored, string, error) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	c := s.coll(r)
	cur := c.Items[key]
	rv := s.Rv + 1
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
	s.Rv++
	s.lastChange[r.Storage] = s.Rv
	switch typ {
	case Added:
		c.Items[key] = next
		c.sorted, c.sortedShared = nil, false
	case Modified:
		c.Items[key] = next
		if c.sorted != nil {
			if c.sortedShared {
				c.sorted, c.sortedShared = slices.Clone(c.sorted), false
			}
			i, _ := slices.BinarySearchFunc(c.sorted, key, ByKey)
			c.sorted[i] = next
		}
	case Deleted:
		delete(c.Items, key)
		c.sorted, c.sortedShared = nil, false
	}
	s.log = append(s.log, Change{RV: s.Rv, Type: typ, Obj: next, Prev: cur})
	s.windowLocked(r.Storage).add(s.Rv, s.now())
	if s.maxLog > 0 && len(s.log) > s.maxLog {
		drop := len(s.log) / 2
		s.compactLocked(drop)
	}
	close(s.changed)
	s.changed = make(chan struct{})
	return next, typ, nil
}

// compactLocked forgets the first n changes of the log.
func (s *Store) compactLocked(n int) {
	if n <= 0 {
		return
	}
	s.compacted = s.log[n-1].RV
	s.log = slices.Clone(s.log[n:])
	s.logStart += n
	for _, c := range s.Colls {
		c.past = nil
	}
}

// Compact forgets every change up to now: older watches, Exact lists and
// continue tokens then get 410 Gone.
func (s *Store) Compact() {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if len(s.log) > 0 {
		s.compactLocked(len(s.log))
	}
	s.compacted = s.Rv
	s.progressAll = s.Rv
}

// RestartWatchCache models a kube-apiserver restart: its new watch cache
// starts at the version it lists, the current one, and refuses a watch
// from an older version, though etcd (the log here) still holds the
// changes: lists, continue tokens and Exact reads are not affected.
func (s *Store) RestartWatchCache() {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.watchFrom = s.Rv
	s.progressAll = s.Rv
	clear(s.windows)
}

// WatchCachesAtNewest brings every watch cache to the newest version, as
// kube-apiserver's have reached once it has started.
func (s *Store) WatchCachesAtNewest() {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	s.progressAll = s.Rv
}

// StartWatchCacheOf starts the watch cache of a resource served after
// the server started (a custom resource), unless it has one: it holds
// the changes from now on, and a watch from an older version is too
// old. (kube-apiserver's built-in resources' caches start before it
// writes its first objects, so a watch from resourceVersion=1 is served
// there.)
func (s *Store) StartWatchCacheOf(r *object.Resource) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if _, ok := s.cacheStart[r.Storage]; !ok {
		s.cacheStart[r.Storage] = s.Rv
	}
}

// CacheRV is the version kube-apiserver's watch cache of the resource
// is at: its newest change, or the version a read waiting for it made
// it reach since (see Freshen). A list with resourceVersion=0, which the
// watch cache serves without waiting, answers this version.
func (s *Store) CacheRV(r *object.Resource) uint64 {
	s.Mu.RLock()
	defer s.Mu.RUnlock()
	return s.cacheRVLocked(r)
}

func (s *Store) cacheRVLocked(r *object.Resource) uint64 {
	return max(s.lastChange[r.Storage], s.progress[r.Storage], s.progressAll, s.cacheStart[r.Storage])
}

// Freshen models a read that needs the resource's watch cache at
// version at least (0: the newest, a consistent read): when the cache
// is older, kube-apiserver asks etcd for a progress notification, which
// brings that cache to the newest version (seen on v1.36.3: the other
// resources' caches stay where they were).
func (s *Store) Freshen(r *object.Resource, atLeast uint64) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	if atLeast == 0 {
		atLeast = s.Rv
	}
	if s.cacheRVLocked(r) < atLeast {
		s.progress[r.Storage] = s.Rv
	}
}

// TooOldError is a watch from a version older than the watch cache's
// first; it matches ErrExpired.
type TooOldError struct{ RV, Oldest uint64 }

func (e *TooOldError) Error() string {
	// kube-apiserver's watch cache words it so (watch_cache.go, v1.36).
	return fmt.Sprintf("too old resource version: %d (%d)", e.RV, e.Oldest)
}

func (e *TooOldError) Is(target error) bool { return target == ErrExpired }

func ByKey(o *object.Stored, key string) int { return strings.Compare(o.Key, key) }

// Snapshot returns the resource's objects at resource version at (0 or
// newer than the store means now), sorted by key, and the version they
// are at. The slice is shared: callers must not modify it.
func (s *Store) Snapshot(r *object.Resource, at uint64) ([]*object.Stored, uint64, error) {
	s.Mu.RLock()
	defer s.Mu.RUnlock()
	c := s.Colls[r.Storage]
	if at == 0 || at >= s.Rv {
		if c == nil {
			return nil, s.Rv, nil
		}
		s.sortMu.Lock()
		defer s.sortMu.Unlock()
		if c.sorted == nil {
			c.sorted = sortedObjects(c.Items)
		}
		c.sortedShared = true
		return c.sorted, s.Rv, nil
	}
	if at < s.compacted {
		return nil, 0, ErrExpired
	}
	if c == nil {
		return nil, at, nil
	}
	s.sortMu.Lock()
	defer s.sortMu.Unlock()
	if c.past != nil && c.pastRV == at {
		return c.past, at, nil
	}
	items := make(map[string]*object.Stored, len(c.Items))
	for k, v := range c.Items {
		items[k] = v
	}
	for i := len(s.log) - 1; i >= 0 && s.log[i].RV > at; i-- {
		ch := s.log[i]
		if ch.Obj.Res.Storage != r.Storage {
			continue
		}
		if ch.Prev == nil {
			delete(items, ch.Obj.Key)
		} else {
			items[ch.Obj.Key] = ch.Prev
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

// CursorAfter returns the log position of the first change newer than rv,
// ErrExpired when changes after rv are no longer kept, or a *TooOldError
// when rv is older than the resource's watch cache (since a restart,
// since it started, or since its window dropped the changes after rv).
func (s *Store) CursorAfter(r *object.Resource, rv uint64) (int, error) {
	s.Mu.RLock()
	defer s.Mu.RUnlock()
	if rv < s.compacted {
		return 0, ErrExpired
	}
	oldest := max(s.watchFrom, s.cacheStart[r.Storage])
	if w := s.windows[r.Storage]; w != nil {
		oldest = max(oldest, w.oldestWatchable())
	}
	if rv < oldest {
		return 0, &TooOldError{RV: rv, Oldest: oldest}
	}
	i, _ := slices.BinarySearchFunc(s.log, rv+1, func(c Change, v uint64) int {
		switch {
		case c.RV < v:
			return -1
		case c.RV > v:
			return 1
		}
		return 0
	})
	return s.logStart + i, nil
}

// Since returns the changes from log position cursor on, the position
// after them, and a channel closed at the next commit. It returns
// ErrExpired when the position has been compacted away. The returned
// slice is never modified by the store.
func (s *Store) Since(cursor int) ([]Change, int, <-chan struct{}, error) {
	s.Mu.RLock()
	defer s.Mu.RUnlock()
	if cursor < s.logStart {
		return nil, cursor, s.changed, ErrExpired
	}
	i := cursor - s.logStart
	if i > len(s.log) {
		i = len(s.log)
	}
	evs := s.log[i:len(s.log):len(s.log)]
	return evs, s.logStart + len(s.log), s.changed, nil
}

// SnapshotAndCursor returns the resource's live objects and the log
// position right after them, atomically, for watches that start with the
// current state.
func (s *Store) SnapshotAndCursor(r *object.Resource) ([]*object.Stored, uint64, int) {
	s.Mu.RLock()
	defer s.Mu.RUnlock()
	var objs []*object.Stored
	if c := s.Colls[r.Storage]; c != nil {
		s.sortMu.Lock()
		if c.sorted == nil {
			c.sorted = sortedObjects(c.Items)
		}
		c.sortedShared = true
		objs = c.sorted
		s.sortMu.Unlock()
	}
	return objs, s.Rv, s.logStart + len(s.log)
}

// NamespaceRange returns the index range of a namespace's objects in a
// key-sorted snapshot (everything when ns is "").
func NamespaceRange(snap []*object.Stored, ns string) (int, int) {
	if ns == "" {
		return 0, len(snap)
	}
	lo, _ := slices.BinarySearchFunc(snap, ns+"/", ByKey)
	hi, _ := slices.BinarySearchFunc(snap, ns+"0", ByKey) // '0' sorts right after '/'
	return lo, hi
}

// View reads the store from code that may already hold its lock
// (held set), such as a server-side apply creating an object.
type View struct {
	Store *Store
	Held  bool
}

func (v View) Get(r *object.Resource, key string) *object.Stored {
	if v.Held {
		if c := v.Store.Colls[r.Storage]; c != nil {
			return c.Items[key]
		}
		return nil
	}
	return v.Store.Get(r, key)
}

// List returns the live objects of a resource, in no order.
func (v View) List(r *object.Resource) []*object.Stored {
	if !v.Held {
		v.Store.Mu.RLock()
		defer v.Store.Mu.RUnlock()
	}
	c := v.Store.Colls[r.Storage]
	if c == nil {
		return nil
	}
	out := make([]*object.Stored, 0, len(c.Items))
	for _, o := range c.Items {
		out = append(out, o)
	}
	return out
}

func (s *Store) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// windowLocked is the watch-cache window of a resource, started empty.
func (s *Store) windowLocked(k *object.StorageKey) *watchWindow {
	w := s.windows[k]
	if w == nil {
		w = newWatchWindow()
		s.windows[k] = w
	}
	return w
}
