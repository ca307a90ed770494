package wire

import "unsafe"

// The Decoder's fixed-layout tables (interned strings, boxed strings,
// spans seen once) are two-way set-associative caches that start small
// and double, up to their old fixed size, with what passes through them:
// an informer of ten objects keeps a few KiB of tables rather than the
// ~200 KiB they took from the first string on.
//
// The string tables double after missesPerSlot misses a slot (the volume
// of distinct values, small for a small informer), or sooner when their
// ghosts show they are too small: every set remembers a tag of the entry
// it evicted last, and a miss on that tag is a repeat lost for want of
// room, its cost (a copy an object now holds) counted. The seen table
// grows by volume alone (see sighted); shared values are swept instead
// (see sharedTable).
const (
	firstSets = 64 // sets of a new table: 128 entries
	// maxValueSets bounds the seen table's sets that keep first-sighting
	// values (32 bytes a slot, 8 without): 64 KiB, about 40 bytes an
	// object at 5,000 objects had it grown to its limit with them.
	maxValueSets = 1024
	// growthShare: a table doubles once the bytes it lost since it last
	// grew reach 1/growthShare of its size. A ghost is one per set, so
	// the losses counted are a part of the real ones.
	growthShare = 8
	// missesPerSlot: a table doubles after this many misses a slot.
	missesPerSlot = 8
)

// growth is the ghosts and the losses of one table.
type growth struct {
	ghosts []uint32 // per set: the tag of the entry evicted last, 0 for none
	lost   int      // bytes lost to evictions since the table last grew
	misses int      // misses since the table last grew
}

// tagOf is the ghost tag of a hash: its high half, never 0.
func tagOf(h uint64) uint32 { return uint32(h>>32) | 1 }

// missed records a miss of the entry tagged tag in set, which costs cost
// bytes when the set had evicted it, and reports whether the table, of
// size bytes and at most maxSets sets, should double now: when its
// losses reached 1/growthShare of its size, or after missesPerSlot
// misses a slot since it last grew, whatever they were. Ghosts see a
// repeat lost once between two of its sightings, not one pushed out by a
// dozen others (3,000 label values taking turns through 128 slots): the
// misses' count grows the table with the volume of what it takes, which
// is small for a small informer.
func (g *growth) missed(set int, tag uint32, cost, size, maxSets int) (grow bool) {
	if len(g.ghosts) >= maxSets {
		return false
	}
	g.misses++
	if g.ghosts[set] == tag {
		g.ghosts[set] = 0
		g.lost += cost
	}
	return g.lost*growthShare >= size || g.misses >= missesPerSlot*2*len(g.ghosts)
}

// bytesOf returns the bytes of s, read-only, without a copy.
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// stringTable interns strings; the more recently used of a set is first.
type stringTable struct {
	slots []string
	growth
}

func (t *stringTable) reset(sets int) {
	t.slots, t.ghosts, t.lost, t.misses = make([]string, 2*sets), make([]uint32, sets), 0, 0
}

func (t *stringTable) intern(b []byte) string { return t.internHashed(b, internHash(b)) }

// internHashed is intern for b whose internHash is h.
func (t *stringTable) internHashed(b []byte, h uint64) string {
	if t.slots == nil {
		t.reset(firstSets)
	}
	set := int(h & uint64(len(t.ghosts)-1))
	pair := t.slots[2*set : 2*set+2 : 2*set+2]
	if pair[0] == string(b) {
		return pair[0]
	}
	if pair[1] == string(b) {
		pair[0], pair[1] = pair[1], pair[0]
		return pair[0]
	}
	// A copy in a typed field costs its bytes (the header is in the struct).
	if grow := t.missed(set, tagOf(h), len(b), 16*len(t.slots), maxStringSets); grow {
		t.grow()
		set = int(h & uint64(len(t.ghosts)-1))
		pair = t.slots[2*set : 2*set+2 : 2*set+2]
	}
	if pair[1] != "" && len(t.ghosts) < maxStringSets {
		// (A table at its full size no longer reads its ghosts.)
		t.ghosts[set] = tagOf(internHash(bytesOf(pair[1])))
	}
	s := string(b)
	pair[0], pair[1] = s, pair[0]
	return s
}

// grow doubles the table, keeping its entries in their order: each set
// splits into two, so that nothing is evicted.
func (t *stringTable) grow() {
	old := t.slots
	t.reset(2 * len(t.ghosts))
	for i := 0; i < len(old); i += 2 {
		for _, s := range [2]string{old[i+1], old[i]} {
			if s != "" {
				set := int(internHash(bytesOf(s)) & uint64(len(t.ghosts)-1))
				t.slots[2*set+1], t.slots[2*set] = t.slots[2*set], s
			}
		}
	}
}

// boxTable is stringTable for strings boxed in an any (JSON values of
// Unstructured), so that equal values share one box.
type boxTable struct {
	slots []any
	growth
}

func (t *boxTable) reset(sets int) {
	t.slots, t.ghosts, t.lost, t.misses = make([]any, 2*sets), make([]uint32, sets), 0, 0
}

func boxed(v any) string { s, _ := v.(string); return s }

func (t *boxTable) box(d *Decoder, b []byte) any {
	if t.slots == nil {
		t.reset(firstSets)
	}
	h := internHash(b)
	set := int(h & uint64(len(t.ghosts)-1))
	pair := t.slots[2*set : 2*set+2 : 2*set+2]
	if s, ok := pair[0].(string); ok && s == string(b) {
		return pair[0]
	}
	if s, ok := pair[1].(string); ok && s == string(b) {
		pair[0], pair[1] = pair[1], pair[0]
		return pair[0]
	}
	// A box of its own costs 16 bytes and, interned or not, a string.
	if grow := t.missed(set, tagOf(h), 16+len(b), 16*len(t.slots), maxBoxSets); grow {
		t.grow()
		set = int(h & uint64(len(t.ghosts)-1))
		pair = t.slots[2*set : 2*set+2 : 2*set+2]
	}
	if pair[1] != nil && len(t.ghosts) < maxBoxSets {
		// (A table at its full size no longer reads its ghosts.)
		t.ghosts[set] = tagOf(internHash(bytesOf(boxed(pair[1]))))
	}
	// Interned with the hash already taken (b is 1 to maxBoxLen bytes,
	// which d.String would intern).
	v := any(d.strings.internHashed(b, h))
	pair[0], pair[1] = v, pair[0]
	return v
}

func (t *boxTable) grow() {
	old := t.slots
	t.reset(2 * len(t.ghosts))
	for i := 0; i < len(old); i += 2 {
		for _, v := range [2]any{old[i+1], old[i]} {
			if v != nil {
				set := int(internHash(bytesOf(boxed(v))) & uint64(len(t.ghosts)-1))
				t.slots[2*set+1], t.slots[2*set] = t.slots[2*set], v
			}
		}
	}
}

// seenTable holds the spans seen once, each with the value decoded from
// it (its key.b picks the set): a repeated span is shared from its second
// sighting on with the value of its first, so that a value repeating once
// in a thousand objects costs one copy, not two. Most spans seen once
// (an object's metadata) never repeat; the values the table keeps for
// them are held by their objects anyway, and at most one per slot
// outlives its object. A slot is a key.b, and, unless the table keeps
// keys alone (see Decoder.Copied), the key.a (a value is handed out only
// on a match of all 128 bits, as from the shared table) and the value:
// 8 or 32 bytes. Its growth's lost counts the spans taken since it last
// grew.
type seenTable struct {
	keysOnly bool
	bs       []uint64
	as       []uint64 // nil when keysOnly
	vals     []any    // nil when keysOnly
	growth
}

func (t *seenTable) reset(sets int) {
	t.bs, t.ghosts, t.lost = make([]uint64, 2*sets), make([]uint32, sets), 0
	t.as, t.vals = nil, nil
	if !t.keysOnly {
		t.as, t.vals = make([]uint64, 2*sets), make([]any, 2*sets)
	}
}

// take reports whether k was seen once, and returns the value decoded
// then (nil when the table keeps keys alone), forgetting it here (the
// caller moves it to the shared table). A key seen without its value
// leaves its ghost, so that the value decoded now goes to the shared
// table (see sighted).
func (t *seenTable) take(k JSONKey) (any, bool) {
	if t.bs == nil {
		return nil, false
	}
	set := int(k.b & uint64(len(t.ghosts)-1))
	i := 2 * set
	switch {
	case t.bs[i] == k.b && t.matchA(i, k):
	case t.bs[i+1] == k.b && t.matchA(i+1, k):
		i++
	default:
		return nil, false
	}
	var v any
	if !t.keysOnly {
		v = t.vals[i]
	}
	if i == 2*set { // the second slot moves up
		t.move(2*set, 2*set+1)
	}
	t.clear(2*set + 1)
	if v == nil {
		t.ghosts[set] = tagOf(k.b)
	}
	return v, true
}

func (t *seenTable) matchA(i int, k JSONKey) bool { return t.keysOnly || t.as[i] == k.a }

func (t *seenTable) move(to, from int) {
	t.bs[to] = t.bs[from]
	if !t.keysOnly {
		t.as[to], t.vals[to] = t.as[from], t.vals[from]
	}
}

func (t *seenTable) clear(i int) {
	t.bs[i] = 0
	if !t.keysOnly {
		t.as[i], t.vals[i] = 0, nil
	}
}

// sighted records the first sighting of k, which v was decoded from, and
// reports false; it reports true, keeping nothing, when k was seen and
// evicted since (the caller stores v in the shared table at once).
//
// The table grows with what passes through it, not by its ghosts: a
// span lost here costs a whole collection decoded again (a label set is
// hundreds of bytes), and the spans seen once between two sightings of
// a repeated one (every object's own metadata) evict it from a table
// much smaller than their number, ghosts included. It doubles once it
// has taken twice as many spans as it has slots, up to maxSeenSets,
// keeping what it holds.
func (t *seenTable) sighted(k JSONKey, v any) bool {
	if t.bs == nil {
		t.reset(firstSets)
	}
	set := int(k.b & uint64(len(t.ghosts)-1))
	if t.ghosts[set] == tagOf(k.b) { // seen before, evicted since
		t.ghosts[set] = 0
		return true
	}
	if t.lost++; t.lost >= 2*len(t.bs) && len(t.ghosts) < maxSeenSets {
		t.grow()
		set = int(k.b & uint64(len(t.ghosts)-1))
	}
	t.insert(set, k, v)
	return false
}

func (t *seenTable) insert(set int, k JSONKey, v any) {
	i := 2 * set
	if t.bs[i+1] != 0 {
		t.ghosts[set] = tagOf(t.bs[i+1])
	}
	t.move(i+1, i)
	t.bs[i] = k.b
	if !t.keysOnly {
		t.as[i], t.vals[i] = k.a, v
	}
}

func (t *seenTable) grow() {
	bs, as, vals := t.bs, t.as, t.vals
	hadValues := !t.keysOnly
	if 2*len(t.ghosts) > maxValueSets {
		// First sightings pay off in small collections, where a value
		// repeats a few times in all; past this size the values cost
		// more slots than they save copies, and a span is shared from
		// its second sighting, with the value decoded then.
		t.keysOnly = true
	}
	t.reset(2 * len(t.ghosts))
	for i := 0; i < len(bs); i += 2 {
		for _, j := range [2]int{i + 1, i} {
			if bs[j] == 0 {
				continue
			}
			k := JSONKey{b: bs[j]}
			var v any
			if hadValues {
				k.a, v = as[j], vals[j]
			}
			t.insert(int(k.b&uint64(len(t.ghosts)-1)), k, v)
		}
	}
}

// sharedValue is a value a ReadOnly Decoder shares, and whether it was
// used since the table was last swept.
type sharedValue struct {
	v    any
	used bool
}

// sharedTable holds the collections a ReadOnly Decoder shares (JSON
// spans, CBOR values), by key. A value moves here from the seen table at
// its second sighting, and many are never used after it: a time an object's condition and the
// next object's status both hold, a pointer to a value two objects have.
// A map that kept everything kept one such entry a Certificate (300 KiB
// at 5,000 objects, more than the cache's Certificates saved by being
// shared). So the table is swept when it reaches its limit: what was not
// used since the last sweep goes, its key into the swept filter. The
// limit doubles when a sweep frees less than a quarter of it (most
// values are in use), or when swept keys keep coming back (values that
// repeat every few hundred objects, swept between two uses).
type sharedTable struct {
	m       map[JSONKey]sharedValue
	limit   int
	swept   []uint32 // tags of swept keys, in the slot of their key.a
	regrets int      // swept keys seen again since the limit last doubled
}

const firstSharedLimit = 256

func (t *sharedTable) get(k JSONKey) (any, bool) {
	e, ok := t.m[k]
	if ok && !e.used {
		t.m[k] = sharedValue{e.v, true}
	}
	return e.v, ok
}

// wasSwept reports whether k is a key a sweep removed (then forgotten):
// a value to store again at once.
func (t *sharedTable) wasSwept(k JSONKey) bool {
	if t.swept == nil {
		return false
	}
	slot := &t.swept[k.a&uint64(len(t.swept)-1)]
	if *slot != tagOf(k.b) {
		return false
	}
	*slot = 0
	if t.regrets++; t.regrets*8 >= t.limit && t.limit < maxSharedEntries {
		t.limit, t.regrets = 2*t.limit, 0
	}
	return true
}

func (t *sharedTable) put(k JSONKey, v any) {
	if t.m == nil {
		t.m, t.limit = make(map[JSONKey]sharedValue), firstSharedLimit
	}
	if len(t.m) >= t.limit {
		t.sweep()
	}
	t.m[k] = sharedValue{v, false}
}

func (t *sharedTable) sweep() {
	if len(t.swept) != t.limit {
		t.swept = make([]uint32, t.limit)
	}
	before := len(t.m)
	for k, e := range t.m {
		if e.used {
			t.m[k] = sharedValue{e.v, false}
			continue
		}
		delete(t.m, k)
		t.swept[k.a&uint64(len(t.swept)-1)] = tagOf(k.b)
	}
	if freed := before - len(t.m); freed*4 < t.limit && t.limit < maxSharedEntries {
		t.limit, t.regrets = 2*t.limit, 0
	}
	if len(t.m) >= t.limit { // at maxSharedEntries, everything in use
		clear(t.m)
	}
}
