package workqueue

import (
	"sync/atomic"
	"unsafe"
)

// The dedup filter lets an Add of a string key that is queued already, at
// priority 0 or above, return without the queue's lock. Such an Add
// changes nothing, yet under the lock it cost a lock hand-off between
// cores: producers adding the same hot keys spent most of their time
// passing the lock back and forth.
//
// A key is listed in the filter once dupsToList Adds found it queued (a
// key added once or twice is never listed: listing costs two stores, and
// unlisting two more), and unlisted by the pop that takes it off the
// queue, before anything else sees it processing. Only the lock's holder
// lists and unlists; Add reads the filter without the lock. A key listed
// is queued at priority 0 or above from its listing to its unlisting, so
// an Add that finds it listed is as if it had taken the lock at that
// moment and found it queued.
const (
	dupBits    = 10 // the filter has 1 << dupBits slots
	dupsToList = 2
	// listed in record.dup: the key is in the filter.
	listed = 0xff
)

// lenBits is how many low bits of dupSlot.meta hold the key's length;
// keys longer than that are never listed.
const (
	lenBits = 24
	lenMask = 1<<lenBits - 1
)

// dupFilter holds the listed keys, one per slot, each key in one of two
// slots chosen by its hash: a key whose two slots hold other keys is not
// listed.
type dupFilter struct {
	// lowOffered: the hand-off may hold offers below priority 0, which an
	// Add at 0 recalls (see wantLocked): no Add may skip the lock.
	lowOffered atomic.Bool
	_          [64]byte // apart from the slots, which change more often
	slots      [1 << dupBits]dupSlot
}

// dupSlot holds a listed key's bytes and length. meta is a version (bumped
// by every change) above the length, 0 while the slot is empty: a reader
// that finds meta unchanged after reading data has read one listing's
// pair. The bytes of a Go string never change, so a reader may compare
// them after the fact.
type dupSlot struct {
	meta atomic.Uint64
	data atomic.Pointer[byte]
}

// pair is the two slots a key of hash hash may be listed in, on one cache
// line.
func (f *dupFilter) pair(hash uint32) *[2]dupSlot {
	i := hash >> (32 - dupBits) &^ 1
	return (*[2]dupSlot)(f.slots[i : i+2])
}

// queued reports whether key, of hash hash, is listed, and so queued at
// priority 0 or above, with no offer to recall for an Add at 0. It takes
// no lock and writes nothing.
func (f *dupFilter) queued(key string, hash uint32) bool {
	if len(key) == 0 {
		return false
	}
	s := f.pair(hash)
	return f.holds(&s[0], key) || f.holds(&s[1], key)
}

// holds is queued for one slot.
func (f *dupFilter) holds(s *dupSlot, key string) bool {
	m := s.meta.Load()
	if m&lenMask != uint64(len(key)) {
		return false
	}
	p := s.data.Load()
	if f.lowOffered.Load() || s.meta.Load() != m {
		return false
	}
	return unsafe.String(p, len(key)) == key
}

// list puts key in the first of its slots that is empty, if any, and
// reports whether it is listed. Called with the queue's lock held, when
// the key is queued at priority 0 or above. A listed key keeps its slot
// until it leaves the queue: keys that share slots and are added in turn
// would otherwise take a slot from each other at every Add.
func (f *dupFilter) list(key string, hash uint32) bool {
	if len(key) == 0 || len(key) > lenMask {
		return false
	}
	p := unsafe.StringData(key)
	pair := f.pair(hash)
	for i := range pair {
		s := &pair[i]
		m := s.meta.Load()
		if m&lenMask != 0 {
			if m&lenMask == uint64(len(key)) && s.data.Load() == p {
				return true // listed already
			}
			continue
		}
		s.data.Store(p)
		s.meta.Store((m>>lenBits+1)<<lenBits | uint64(len(key)))
		return true
	}
	return false
}

// unlist takes key out of its slot if it holds it. Called with the
// queue's lock held, before the key stops being queued.
func (f *dupFilter) unlist(key string, hash uint32) {
	p := unsafe.StringData(key)
	pair := f.pair(hash)
	for i := range pair {
		s := &pair[i]
		if m := s.meta.Load(); m&lenMask == uint64(len(key)) && s.data.Load() == p {
			s.meta.Store((m>>lenBits + 1) << lenBits)
			s.data.Store(nil) // the key's memory is not kept
			return
		}
	}
}

// stringOf is key as a string; K's kind must be string (table.stringKeys).
func stringOf[K comparable](key K) string {
	return *(*string)(unsafe.Pointer(&key))
}

// noteDupLocked counts an Add that found record r queued at priority 0 or
// above with no offer to recall, and lists its key once it is hot.
func (q *Queue[K]) noteDupLocked(r *record[K]) {
	if r.dup == listed {
		return // listed: an Add came here while low offers might wait
	}
	if r.dup++; r.dup < dupsToList {
		return
	}
	f := q.dups.Load()
	if f == nil {
		f = new(dupFilter)
		f.lowOffered.Store(q.offerPrio < 0)
		q.dups.Store(f)
	}
	if f.list(stringOf(r.key), r.hash) {
		r.dup = listed
	} else {
		r.dup = dupsToList - 1 // both slots held: try again at its next Add
	}
}

// unlistLocked takes record r's key out of the filter, if listed, as it
// leaves the queue.
func (q *Queue[K]) unlistLocked(r *record[K]) {
	if r.dup == listed {
		q.dups.Load().unlist(stringOf(r.key), r.hash)
	}
	r.dup = 0
}

// markLowOffersLocked tells the filter whether offers below priority 0
// may wait in the hand-off: before a batch with such offers is published,
// and after one without them (the batch before was claimed whole).
func (q *Queue[K]) markLowOffersLocked(low bool) {
	if f := q.dups.Load(); f != nil && f.lowOffered.Load() != low {
		f.lowOffered.Store(low)
	}
}
