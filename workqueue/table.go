package workqueue

import (
	"hash/maphash"
	"math"
	"math/rand/v2"
	"reflect"
	"unsafe"
)

// Bits of record.state. A key can be queued or processing, not both; it
// can be delayed (waiting for AddAfter's time) besides either.
const (
	queued     uint8 = 1 << iota // in a level's ring, waiting for Get
	processing                   // handed out by Get, no Done yet
	again                        // added while processing: queue it on Done
	delayed                      // in the delay heap
	offered                      // with processing: in the hand-off, maybe not taken yet (see handoff)
	backingOff                   // has a backoff: AddRateLimited since its last Forget
)

// record is the queue's state of one key, kept for as long as the key is
// queued, processing, delayed or backing off.
type record[K comparable] struct {
	key K
	// gen identifies the ring slot that queues the key (from a counter of
	// the whole queue), so a slot left behind by a priority raise is
	// known to be stale; while offered, it is the key's offer number.
	gen       uint64
	queuedAt  int64 // when it was queued (stamped only when timing is on)
	startedAt int64 // when Get handed it out (stamped only with metrics)
	delayAt   int64 // delayed: when it is due
	// prio is the key's priority while queued, or that of the pending
	// add while processing with again set.
	prio      int32
	delayPrio int32  // delayed: the priority it is added with when due
	hash      uint32 // the key's hash, whose low bits are its home in the index
	life      uint32 // bumped each time the record is given to a key
	state     uint8
	slot      uint8 // offered: its slot in the hand-off (see offerRing)
	dup       uint8 // queued: Adds that found it queued, or listed (see dupFilter)
	// backoff is the index plus one of the key's backoff in
	// Queue.backoffs while backingOff (it fits in the padding after
	// state: records stay 72 bytes for string keys).
	backoff int32
}

// table maps keys to records. Records live in one slice at indexes that
// do not change while they are in use, so rings and the delay heap refer
// to keys by index and Get reaches its key's record without hashing;
// Add and Done hash once. The index is open-addressed with linear
// probing, at most half full; each word holds a key's 32-bit hash (whose
// low bits are its home) and its record's index plus one (0 is empty).
// Like a Go map, a table keeps the memory of the most keys it has held.
type table[K comparable] struct {
	seed maphash.Seed
	// stringKeys: K is a string type (its kind is string), hashed with
	// strhash and strSeed instead of maphash.Comparable.
	stringKeys bool
	strSeed    uintptr
	index      []uint64
	recs       []record[K]
	free       []int32 // indexes of unused records
	n          int     // keys held
}

const minIndex = 16

func (t *table[K]) init() {
	t.seed = maphash.MakeSeed()
	t.stringKeys = reflect.TypeFor[K]().Kind() == reflect.String
	t.strSeed = uintptr(rand.Uint64())
	t.index = make([]uint64, minIndex)
}

// hash returns key's hash. It reads only the seeds and stringKeys, so it
// may be called without the queue's lock once the table is made.
func (t *table[K]) hash(key K) uint32 {
	if t.stringKeys {
		// A string type has a string's layout.
		return uint32(strhash(unsafe.Pointer(&key), t.strSeed))
	}
	return uint32(maphash.Comparable(t.seed, key))
}

// find returns the index of key's record, or -1 if it has none, and the
// index position where it is, or where insert puts it.
func (t *table[K]) find(key K) (rec int32, pos int, hash uint32) {
	return t.lookup(key, t.hash(key))
}

// lookup is find with key's hash already computed.
func (t *table[K]) lookup(key K, hash uint32) (rec int32, pos int, _ uint32) {
	mask := len(t.index) - 1
	for pos = int(hash) & mask; ; pos = (pos + 1) & mask {
		w := t.index[pos]
		if w == 0 {
			return -1, pos, hash
		}
		if uint32(w>>32) == hash {
			if r := int32(uint32(w)) - 1; t.recs[r].key == key {
				return r, pos, hash
			}
		}
	}
}

// insert gives key, which find did not find at pos, a zeroed record and
// returns its index. It may move records' memory: pointers to records
// taken before it are invalid after.
func (t *table[K]) insert(key K, pos int, hash uint32) int32 {
	if 2*(t.n+1) > len(t.index) {
		t.grow()
		pos = t.empty(hash)
	}
	var r int32
	if n := len(t.free); n > 0 {
		r = t.free[n-1]
		t.free = t.free[:n-1]
	} else {
		if len(t.recs) >= math.MaxInt32 {
			panic("workqueue: more than 2^31-1 keys")
		}
		r = int32(len(t.recs))
		t.recs = append(t.recs, record[K]{})
	}
	rec := &t.recs[r]
	rec.key, rec.hash = key, hash
	rec.life++
	t.index[pos] = uint64(hash)<<32 | uint64(r+1)
	t.n++
	return r
}

// empty returns the first empty index position from hash's home.
func (t *table[K]) empty(hash uint32) int {
	mask := len(t.index) - 1
	pos := int(hash) & mask
	for t.index[pos] != 0 {
		pos = (pos + 1) & mask
	}
	return pos
}

func (t *table[K]) grow() {
	old := t.index
	t.index = make([]uint64, 2*len(old))
	for _, w := range old {
		if w != 0 {
			t.index[t.empty(uint32(w>>32))] = w
		}
	}
}

// remove forgets the key of record rec, found at index position pos.
func (t *table[K]) remove(rec int32, pos int) {
	// Close the gap: shift back every later word of the probe run that
	// may sit at pos, i.e. whose home is not between pos and it.
	mask := len(t.index) - 1
	for j := (pos + 1) & mask; t.index[j] != 0; j = (j + 1) & mask {
		home := int(t.index[j]>>32) & mask
		if (j-home)&mask >= (j-pos)&mask {
			t.index[pos] = t.index[j]
			pos = j
		}
	}
	t.index[pos] = 0
	t.n--
	life := t.recs[rec].life
	t.recs[rec] = record[K]{life: life} // drop the key's memory; life goes on
	t.free = append(t.free, rec)
}

// removeRecord forgets the key of record rec, found by its hash.
func (t *table[K]) removeRecord(rec int32) {
	mask := len(t.index) - 1
	want := uint64(t.recs[rec].hash)<<32 | uint64(rec+1)
	pos := int(t.recs[rec].hash) & mask
	for t.index[pos] != want {
		pos = (pos + 1) & mask
	}
	t.remove(rec, pos)
}
