package cborwire

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
)

// A decode without a ReadOnly Table (a Get, a List handed to the
// caller) transcodes each managedFields entry to the JSON its FieldsV1
// keeps. The entries repeat across a list's objects (a controller's
// status writes own the same fields in every object), but arrive with
// their maps' keys in a different order each time (kube-apiserver writes
// Go maps in Go's random order), so equal entries are found by a key
// computed from their content, order-independent as Reuse's keys are:
// the first is transcoded, the later ones copy its JSON. The memo lives
// in the Decoder, so it never spans two decodes, and each object still
// gets its own copy of the bytes.

// maxMemoItem bounds the size of an item the memo keys (larger ones are
// transcoded each time), as maxReusedItem bounds what a Table shares.
const maxMemoItem = 32 << 10

// memoKey identifies an item's content by two 64-bit lanes hashed under
// random seeds, as wire.JSONKey does: 128 bits, so that input cannot aim
// at a collision and chance ones are about n²/2¹²⁹.
type memoKey struct{ a, b uint64 }

// memoSlots is the size of the memo's table: a list's objects repeat a
// handful of entries (one per controller writing the same fields), and a
// slot taken by another entry only costs a transcoding.
const memoSlots = 128

// memoSlot is an entry of the memo's table: a content key and where its
// JSON lies in the memo's buffer (offsets, so that the table holds no
// pointers), or end -1 for an item seen once and not kept: an item is
// kept at its second sighting, so that unique ones (a controller's entry
// naming its object's owner) cost no copy.
type memoSlot struct {
	key        memoKey
	start, end int
}

// jsonMemo holds the JSON of the items transcoded in one decode, by
// their content keys.
type jsonMemo struct {
	short1, short2 uint64 // random seeds of the two lanes of a key
	slots          [memoSlots]memoSlot
	buf            []byte
	// The maps of the item being transcoded (the item itself first), in
	// the order they start, with their keys, and the next one to look
	// at: while subsActive the transcoder looks each up before
	// transcoding it, as an entry unique to its object (naming the
	// object's owner) still repeats most of its subtrees.
	subs       []memoSub
	subAt      int
	subsActive bool
}

// memoSub is a map of the item TranscodeJSONMemo keyed.
type memoSub struct {
	start, end int
	key        memoKey
}

// TranscodeJSONMemo is TranscodeJSON for decodes that share nothing
// between objects: an item with the same content as one transcoded
// earlier in this decode (whatever the order of its maps' keys) gives
// the same JSON without transcoding again. The bytes are valid until the
// next transcoding; callers copy them.
func (d *Decoder) TranscodeJSONMemo() ([]byte, bool) {
	if c := d.peek(); c>>5 != majorMap || c == 0xa0 {
		return d.TranscodeJSON()
	}
	m := d.memo
	if m == nil {
		m = &jsonMemo{short1: rand.Uint64(), short2: rand.Uint64()}
		d.memo = m
	}
	start := d.pos
	m.subs = m.subs[:0]
	k, end, ok := m.itemKey(d.buf, d.nextAfterTags(start), min(len(d.buf), start+maxMemoItem), 0)
	if !ok {
		return d.transcodeItem()
	}
	if js, found := m.lookup(k); found {
		d.pos = end
		return js, true
	}
	// The item is the first of subs: the transcoder keeps it as it
	// keeps every map of it (see memoMapToJSON).
	m.subAt, m.subsActive = 0, true
	js, ok := d.transcodeItem()
	m.subsActive = false
	return js, ok
}

// lookup returns the JSON kept for k.
func (m *jsonMemo) lookup(k memoKey) ([]byte, bool) {
	slot := &m.slots[k.a%memoSlots]
	if slot.key == k && slot.end > 0 {
		return m.buf[slot.start:slot.end], true
	}
	return nil, false
}

// keep records a sighting of the map of key k, transcoded to js: the
// second keeps js.
func (m *jsonMemo) keep(k memoKey, js []byte) {
	slot := &m.slots[k.a%memoSlots]
	switch {
	case slot.key != k: // first sighting: it takes no slot kept
		if slot.end <= 0 {
			*slot = memoSlot{key: k, end: -1}
		}
	case slot.end < 0 && len(m.buf)+len(js) <= maxMemoBytes:
		slot.start = len(m.buf)
		m.buf = append(m.buf, js...)
		slot.end = len(m.buf)
	}
}

// memoMapToJSON is mapToJSON for a map of the item TranscodeJSONMemo
// keyed: a map whose JSON the memo keeps is copied, others are
// transcoded and offered to the memo.
func (d *Decoder) memoMapToJSON(out []byte) []byte {
	m := d.memo
	for m.subAt < len(m.subs) && m.subs[m.subAt].start < d.pos {
		m.subAt++
	}
	if m.subAt >= len(m.subs) || m.subs[m.subAt].start != d.pos {
		return d.mapToJSON(out)
	}
	sub := m.subs[m.subAt]
	m.subAt++
	if js, ok := m.lookup(sub.key); ok {
		d.pos = sub.end
		return append(out, js...)
	}
	start := len(out)
	out = d.mapToJSON(out)
	if d.err == nil && d.pos == sub.end {
		m.keep(sub.key, out[start:])
	}
	return out
}

// maxMemoBytes bounds the JSON a memo holds; past it, items not in it
// are transcoded each time until the decode ends.
const maxMemoBytes = 1 << 20

// reset empties m for another decode.
func (m *jsonMemo) reset() {
	if m == nil {
		return
	}
	m.slots = [memoSlots]memoSlot{}
	m.buf, m.subs = m.buf[:0], m.subs[:0]
	// A stream's Decoder lives long: it keeps no large scratch.
	if cap(m.buf) > 64<<10 {
		m.buf = nil
	}
	if cap(m.subs) > 1024 {
		m.subs = nil
	}
}

// maxMemoDepth bounds the nesting itemKey follows (managedFields nest a
// level per field path step); deeper items are transcoded each time.
const maxMemoDepth = 64

// itemKey returns the content key of the item at p in b, and its end,
// for an item made of definite-length maps with definite string keys,
// definite strings, integers and simple values, ending by limit, nested
// at most maxMemoDepth; anything else reports false (the caller
// transcodes, which checks it). A map's key is the sum of its entries'
// (the order of keys does not matter), an entry's that of its key's and
// scalar value's bytes, or of its key's bytes then the value's key for a
// map. Content is not checked (UTF-8, floats): a key only finds JSON
// transcoded, and so checked, from the same entries.
func (m *jsonMemo) itemKey(b []byte, p, limit, depth int) (memoKey, int, bool) {
	if p >= limit {
		return memoKey{}, 0, false
	}
	c := b[p]
	if c>>5 != majorMap {
		end, ok := scalarAt(b, p, limit)
		if !ok {
			return memoKey{}, 0, false
		}
		return m.bytesKey(b[p:end]), end, true
	}
	if depth >= maxMemoDepth {
		return memoKey{}, 0, false
	}
	n, h, ok := countAt(b, p, limit)
	if !ok {
		return memoKey{}, 0, false
	}
	rec := len(m.subs)
	m.subs = append(m.subs, memoSub{start: p})
	p += h
	var sum memoKey
	for range n {
		ks := p
		// Most members of a FieldsV1 are a short key and an empty map
		// ("f:name": {}): read with no calls.
		if p+1 < limit {
			if c := b[p]; c&0x1f <= 24 && (c>>5 == majorBytes || c>>5 == majorText) {
				ke := p + 1 + int(c&0x1f)
				if c&0x1f == 24 {
					ke = p + 2 + int(b[p+1])
				}
				if ke < limit && b[ke] == 0xa0 {
					p = ke + 1
					sum = sum.plus(m.bytesKey(b[ks:p]))
					continue
				}
			}
		}
		ke, ok := shortStringAt(b, p, limit)
		if !ok {
			ke, ok = stringAt(b, p, limit)
		}
		if !ok {
			return memoKey{}, 0, false
		}
		if ke < limit && b[ke]>>5 == majorMap && b[ke] != 0xa0 {
			vk, end, ok := m.itemKey(b, ke, limit, depth+1)
			if !ok {
				return memoKey{}, 0, false
			}
			sum = sum.plus(m.bytesKey(b[ks:ke]).then(vk))
			p = end
			continue
		}
		end, ok := shortStringAt(b, ke, limit)
		if !ok {
			end, ok = scalarAt(b, ke, limit)
		}
		if !ok {
			return memoKey{}, 0, false
		}
		sum = sum.plus(m.bytesKey(b[ks:end]))
		p = end
	}
	k := sum.mixed('m'<<32 | uint64(n))
	m.subs[rec].end, m.subs[rec].key = p, k
	return k, p, true
}

// countAt reads the definite count (under 2^32) of the map or string
// head at p and the head's size.
func countAt(b []byte, p, limit int) (n, size int, ok bool) {
	switch info := b[p] & 0x1f; {
	case info < 24:
		return int(info), 1, true
	case info == 24 && p+1 < limit:
		return int(b[p+1]), 2, true
	case info == 25 && p+2 < limit:
		return int(binary.BigEndian.Uint16(b[p+1:])), 3, true
	case info == 26 && p+4 < limit:
		if v := binary.BigEndian.Uint32(b[p+1:]); uint64(v) <= uint64(limit) { // fits an int
			return int(v), 5, true
		}
	}
	return 0, 0, false
}

// stringAt returns the end of the definite string at p, ending by limit.
func stringAt(b []byte, p, limit int) (int, bool) {
	if p >= limit || (b[p]>>5 != majorBytes && b[p]>>5 != majorText) {
		return 0, false
	}
	n, h, ok := countAt(b, p, limit)
	if !ok || n > limit-p-h {
		return 0, false
	}
	return p + h + n, true
}

// scalarAt returns the end of the definite string, integer, simple
// value or empty map or array at p, ending by limit.
func scalarAt(b []byte, p, limit int) (int, bool) {
	if p >= limit {
		return 0, false
	}
	c := b[p]
	size := 0
	switch c >> 5 {
	case majorBytes, majorText:
		return stringAt(b, p, limit)
	case majorArray, majorMap:
		if c != 0x80 && c != 0xa0 {
			return 0, false
		}
		size = 1
	case majorUint, majorNegint:
		switch info := c & 0x1f; {
		case info < 24:
			size = 1
		case info <= 27:
			size = 1 + 1<<(info-24)
		default:
			return 0, false
		}
	case majorSimple:
		switch c {
		case valFalse, valTrue, valNull, valUndefined:
			size = 1
		case 0xf9:
			size = 3
		case 0xfa:
			size = 5
		case 0xfb:
			size = 9
		default:
			return 0, false
		}
	default:
		return 0, false
	}
	if size > limit-p {
		return 0, false
	}
	return p + size, true
}

// bytesKey returns the key of the bytes b: two lanes under their own
// seeds, each folding eight bytes at a time through a 128-bit multiply
// (as wyhash does), the length mixed in.
func (m *jsonMemo) bytesKey(b []byte) memoKey {
	n := uint64(len(b))
	a, c := m.short1^n*0x9e3779b97f4a7c15, m.short2^n*0xc2b2ae3d27d4eb4f
	for len(b) > 16 {
		w1, w2 := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[8:])
		a = mum(a^w1, w2^0xa0761d6478bd642f)
		c = mum(c^w2, w1^0xe7037ed1a0b428db)
		b = b[16:]
	}
	var lo, hi uint64
	switch l := len(b); {
	case l >= 8: // the first and the last eight bytes overlap
		lo, hi = binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[l-8:])
	case l >= 4:
		lo, hi = uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[l-4:]))
	case l > 0:
		lo = uint64(b[0])<<16 | uint64(b[l/2])<<8 | uint64(b[l-1])
	}
	a = mum(a^lo, hi^0x8ebc6af09c88c6e3)
	c = mum(c^hi, lo^0x589965cc75374cc3)
	return memoKey{mum(a, 0x1d8e4e27c47d124f^m.short2), mum(c, 0x2d358dccaa6c78a5^m.short1)}
}

// mum folds the 128-bit product of x and y into 64 bits.
func mum(x, y uint64) uint64 {
	hi, lo := bits.Mul64(x, y)
	return hi ^ lo
}

// then combines k with the key of what follows it.
func (k memoKey) then(o memoKey) memoKey {
	return memoKey{memoMix(k.a*0x9e3779b97f4a7c15 ^ o.a), memoMix(k.b*0xc2b2ae3d27d4eb4f ^ o.b)}
}

// plus combines k with o in either order (the entries of a map).
func (k memoKey) plus(o memoKey) memoKey { return memoKey{k.a + o.a, k.b + o.b} }

// mixed returns k mixed with a small number (a kind and a count).
func (k memoKey) mixed(n uint64) memoKey {
	return memoKey{memoMix(k.a ^ n*0xff51afd7ed558ccd), memoMix(k.b ^ n*0xc4ceb9fe1a85ec53)}
}

func memoMix(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}
