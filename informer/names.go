package informer

import (
	"hash/maphash"
	"iter"
)

// hasName is what a nameTable holds: a cached object, or its compact form.
type hasName interface{ GetName() string }

// nameTable holds one namespace's objects by name. It is an
// open-addressing table of the objects themselves (linear probing), with
// one control byte per slot holding seven bits of the name's hash; the
// name is read from the object when a tag matches. A slot costs 9 bytes
// where a Go map[string]entry costs a 16-byte key and a 16-byte value
// (plus its control byte), which for small objects is a tenth of what a
// cached object takes. Not safe for concurrent use: the Store locks.
type nameTable[T hasName] struct {
	ctrl []uint8 // emptySlot, or tagBit | seven bits of the hash
	objs []T
	// stale, while a full state streams in, has a bit per slot set for
	// the objects not written since it began (see markStale); nil
	// otherwise. One bit an object, where a set of keys costs ~40 bytes.
	stale []uint64
	n     int
}

const (
	emptySlot = 0
	tagBit    = 0x80
	minSlots  = 2
)

// slotsFor is the number of slots that holds n objects at a load of at
// most three quarters (a power of two).
func slotsFor(n int) int {
	c := minSlots
	for n*4 > c*3 {
		c *= 2
	}
	return c
}

func tagOf(h uint64) uint8 { return uint8(h>>57) | tagBit }

// find returns the slot of name and true, or the empty slot where it
// would go and false. The table must have slots.
func (t *nameTable[T]) find(seed maphash.Seed, name string) (int, bool) {
	return t.findHash(maphash.String(seed, name), name)
}

// findHash is find with the name's hash.
func (t *nameTable[T]) findHash(h uint64, name string) (int, bool) {
	mask := len(t.ctrl) - 1
	tag := tagOf(h)
	for i := int(h) & mask; ; i = (i + 1) & mask {
		switch c := t.ctrl[i]; {
		case c == emptySlot:
			return i, false
		case c == tag && t.objs[i].GetName() == name:
			return i, true
		}
	}
}

// get returns the object called name.
func (t *nameTable[T]) get(seed maphash.Seed, name string) (T, bool) {
	if t == nil || t.n == 0 {
		var zero T
		return zero, false
	}
	i, ok := t.find(seed, name)
	return t.objs[i], ok
}

// put stores obj under its name, replacing (and returning) the object
// stored under it before, if any.
func (t *nameTable[T]) put(seed maphash.Seed, obj T) (old T, replaced bool) {
	name := obj.GetName()
	if len(t.ctrl) == 0 || (t.n+1)*4 > len(t.ctrl)*3 {
		t.resize(seed, slotsFor(t.n+1))
	}
	h := maphash.String(seed, name)
	i, ok := t.findHash(h, name)
	t.setStale(i, false)
	if ok {
		old, t.objs[i] = t.objs[i], obj
		return old, true
	}
	t.ctrl[i], t.objs[i] = tagOf(h), obj
	t.n++
	return old, false
}

// remove deletes the object called name, if any. Later objects of the
// same probe run move back into the gap, so that lookups need no
// tombstones; a table left mostly empty shrinks.
func (t *nameTable[T]) remove(seed maphash.Seed, name string) {
	if t.n == 0 {
		return
	}
	i, ok := t.find(seed, name)
	if !ok {
		return
	}
	mask := len(t.ctrl) - 1
	for j := (i + 1) & mask; t.ctrl[j] != emptySlot; j = (j + 1) & mask {
		home := int(maphash.String(seed, t.objs[j].GetName())) & mask
		// The object at j may fill the gap at i unless its home slot
		// lies (cyclically) in (i, j].
		if i < j && (home <= i || home > j) || j < i && home <= i && home > j {
			t.ctrl[i], t.objs[i] = t.ctrl[j], t.objs[j]
			t.setStale(i, t.isStale(j))
			i = j
		}
	}
	var zero T
	t.ctrl[i], t.objs[i] = emptySlot, zero
	t.setStale(i, false)
	t.n--
	if len(t.ctrl) > 8 && t.n*8 <= len(t.ctrl) {
		t.resize(seed, slotsFor(t.n)*2)
	}
}

// resize moves the objects into a table of slots slots.
func (t *nameTable[T]) resize(seed maphash.Seed, slots int) {
	old, oldCtrl, oldStale := t.objs, t.ctrl, t.stale
	t.ctrl, t.objs = make([]uint8, slots), make([]T, slots)
	if oldStale != nil {
		t.stale = make([]uint64, (slots+63)/64)
	}
	mask := slots - 1
	for k, c := range oldCtrl {
		if c == emptySlot {
			continue
		}
		h := maphash.String(seed, old[k].GetName())
		i := int(h) & mask
		for t.ctrl[i] != emptySlot {
			i = (i + 1) & mask
		}
		t.ctrl[i], t.objs[i] = c, old[k]
		if oldStale != nil && oldStale[k/64]&(1<<(k%64)) != 0 {
			t.setStale(i, true)
		}
	}
}

// markStale marks every object stale, until put writes it again or
// unmark is called.
func (t *nameTable[T]) markStale() {
	t.stale = make([]uint64, (len(t.ctrl)+63)/64)
	for i, c := range t.ctrl {
		if c != emptySlot {
			t.setStale(i, true)
		}
	}
}

// unmark records that name was received unchanged.
func (t *nameTable[T]) unmark(seed maphash.Seed, name string) {
	if t == nil || t.stale == nil || t.n == 0 {
		return
	}
	if i, ok := t.find(seed, name); ok {
		t.setStale(i, false)
	}
}

// takeStale returns the objects still marked stale and drops the marks.
func (t *nameTable[T]) takeStale() []T {
	var out []T
	for i, c := range t.ctrl {
		if c != emptySlot && t.isStale(i) {
			out = append(out, t.objs[i])
		}
	}
	t.stale = nil
	return out
}

func (t *nameTable[T]) isStale(i int) bool {
	return t.stale != nil && t.stale[i/64]&(1<<(i%64)) != 0
}

func (t *nameTable[T]) setStale(i int, stale bool) {
	switch {
	case t.stale == nil:
	case stale:
		t.stale[i/64] |= 1 << (i % 64)
	default:
		t.stale[i/64] &^= 1 << (i % 64)
	}
}

// all yields every object (none from a nil table). The table must not
// change while it runs.
func (t *nameTable[T]) all() iter.Seq[T] {
	return func(yield func(T) bool) {
		if t == nil {
			return
		}
		for i, c := range t.ctrl {
			if c != emptySlot && !yield(t.objs[i]) {
				return
			}
		}
	}
}
