package wire

import (
	"encoding/binary"
	"hash/maphash"
)

// seenSlots bounds the cache of spans seen once (8 bytes a slot), where
// a set would grow by some 30 bytes for every unique span (an object's
// metadata, its annotations) until cleared. A collision only means a
// span waits for one more sighting.
const (
	seenSlots   = 1 << 13
	maxSeenSets = seenSlots / 2
)

// JSONKey identifies a JSON span by two keyed 64-bit hashes: 128 bits, so
// that two different spans of one stream get the same key with a chance
// of about n²/2¹²⁹, and the seeds are random, so input cannot aim at it.
// Keeping a copy of each span to compare instead would cost the table
// more memory than the sharing saves on small maps.
type JSONKey struct{ a, b uint64 }

type jsonTable struct {
	seed1, seed2 maphash.Seed
	// short1 and short2 seed shortKey, drawn from seed1 and seed2.
	short1, short2 uint64
	mid            midSecrets // midKey's
	seen           seenTable
	shared         sharedTable
	empty          map[string]any
	emptyArray     any // a []any{}
}

// SharedJSON returns the value a JSON decoder stored with ShareJSON for
// the same bytes (a map or slice decoded from an object or array). When
// there is none it returns the key to store the value under once
// decoded: the value of a span's first sighting is kept (by a table of
// bounded size) and given to the objects that hold the same span later.
// It reports false, with the zero key, when d is not ReadOnly.
func (d *Decoder) SharedJSON(span []byte) (v any, key JSONKey, ok bool) {
	if d == nil || !d.ReadOnly {
		return nil, JSONKey{}, false
	}
	t := d.jsonTable()
	return t.lookup(JSONKey{maphash.Bytes(d.json.seed1, span), maphash.Bytes(d.json.seed2, span)})
}

// lookup returns the value shared under k, or decoded from k's first
// sighting (which it shares from now on), or else k, to store the value
// under once decoded.
func (t *jsonTable) lookup(k JSONKey) (v any, key JSONKey, ok bool) {
	if v, ok := t.shared.get(k); ok {
		return v, k, true
	}
	if v, ok := t.seen.take(k); ok && v != nil {
		t.shared.put(k, v)
		return v, k, true
	}
	return nil, k, false
}

// keep stores v, decoded from the span keyed k seen for the first time
// (as far as the tables know), in the seen table (the key alone when
// Copied); or in the shared table when k was seen before and forgotten
// since.
func (t *jsonTable) keep(k JSONKey, v any) {
	if t.shared.wasSwept(k) || t.seen.sighted(k, v) {
		t.shared.put(k, v)
	}
}

// EmptyMap returns the empty map a ReadOnly Decoder gives every empty
// JSON object of Unstructured values (each would otherwise cost a map
// header of its own: the leaves of a managedFields entry are all empty
// objects), and nil when d is not ReadOnly.
func (d *Decoder) EmptyMap() map[string]any {
	if d == nil || !d.ReadOnly {
		return nil
	}
	d.jsonTable()
	if d.json.empty == nil {
		d.json.empty = map[string]any{}
	}
	return d.json.empty
}

// EmptyArray returns the boxed empty array a ReadOnly Decoder gives every
// empty JSON array of Unstructured values (each would otherwise cost a
// 24-byte box of its own), and nil when d is not ReadOnly. Its capacity
// is zero, so that appending to it never writes into the shared value.
func (d *Decoder) EmptyArray() any {
	if d == nil || !d.ReadOnly {
		return nil
	}
	t := d.jsonTable()
	if t.emptyArray == nil {
		t.emptyArray = []any{}
	}
	return t.emptyArray
}

// KeyOf returns a key for the bytes b, for decoders that compute the key
// of a value from its parts (CBOR, whose maps come with their keys in
// any order: see Then and Plus), one call per map entry. It returns the
// zero key when d is not ReadOnly.
func (d *Decoder) KeyOf(b []byte) JSONKey {
	if d == nil || !d.ReadOnly {
		return JSONKey{}
	}
	t := d.jsonTable()
	if len(b) <= 16 {
		return t.shortKey(b)
	}
	if len(b) <= maxMidKey {
		return t.midKey(b)
	}
	return JSONKey{maphash.Bytes(t.seed1, b), maphash.Bytes(t.seed2, b)}
}

// shortKey is KeyOf for up to 16 bytes (most map entries: a key and a
// scalar), without maphash's per-call cost: two words that, with the
// length, determine the bytes, mixed under the table's two random seeds.
func (t *jsonTable) shortKey(b []byte) JSONKey {
	var lo, hi uint64
	switch n := len(b); {
	case n >= 8: // the first and the last eight bytes overlap
		lo, hi = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		lo, hi = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	case n > 0:
		lo = uint64(b[0])<<16 | uint64(b[n/2])<<8 | uint64(b[n-1])
	}
	n := uint64(len(b))
	return JSONKey{
		mix64(mix64(lo^t.short1) ^ hi ^ n*0x9e3779b97f4a7c15),
		mix64(mix64(hi^t.short2) ^ lo ^ n*0xc2b2ae3d27d4eb4f),
	}
}

// Then combines k with the key of what follows it (an array's elements,
// in order).
func (k JSONKey) Then(o JSONKey) JSONKey {
	return JSONKey{mix64(k.a*0x9e3779b97f4a7c15 ^ o.a), mix64(k.b*0xc2b2ae3d27d4eb4f ^ o.b)}
}

// Plus combines k with o in either order (the entries of a map).
func (k JSONKey) Plus(o JSONKey) JSONKey { return JSONKey{k.a + o.a, k.b + o.b} }

// Mixed returns k mixed with a small number n (a kind and a length), so
// that a map's sum of entries and an array's chain of elements are
// keys unlike their parts.
func (k JSONKey) Mixed(n uint64) JSONKey {
	return JSONKey{mix64(k.a ^ n*0xff51afd7ed558ccd), mix64(k.b ^ n*0xc4ceb9fe1a85ec53)}
}

func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// SharedKey is SharedJSON for a key the caller computed: it returns the
// value stored under k, or, when there is none, k itself to store the
// value under once decoded.
func (d *Decoder) SharedKey(k JSONKey) (v any, key JSONKey, ok bool) {
	if d == nil || !d.ReadOnly || k == (JSONKey{}) {
		return nil, JSONKey{}, false
	}
	return d.jsonTable().lookup(k)
}

func newJSONTable() *jsonTable {
	t := &jsonTable{seed1: maphash.MakeSeed(), seed2: maphash.MakeSeed()}
	t.short1, t.short2 = maphash.String(t.seed1, "short"), maphash.String(t.seed2, "short")
	t.mid = newMidSecrets()
	return t
}

func (d *Decoder) jsonTable() *jsonTable {
	if d.json == nil {
		d.json = newJSONTable()
		d.json.seen.keysOnly = d.Copied
	}
	return d.json
}

// ShareJSON stores v, decoded from the span SharedJSON gave key for, for
// later decodes of the same bytes.
func (d *Decoder) ShareJSON(k JSONKey, v any) {
	if d == nil || d.json == nil || k == (JSONKey{}) {
		return
	}
	d.json.keep(k, v)
}

// Boxed strings: a string stored in an any (a JSON value of Unstructured)
// needs a header of its own on the heap; equal values can share it (long
// ones too: an annotation holding a runbook URL or a provider's JSON
// repeats across objects as well as a label does).
const (
	boxSlots   = 4096
	maxBoxSets = boxSlots / 2
	maxBoxLen  = maxInternLen
)

// StringValue returns b as an any holding a string, reusing the box of an
// equal string returned before when the table still has it. Strings
// longer than maxInternLen (256 bytes) get a box of their own.
func (d *Decoder) StringValue(b []byte) any {
	if len(b) == 0 {
		return ""
	}
	if d == nil || len(b) > maxBoxLen {
		return string(b)
	}
	return d.boxes.box(d, b)
}
