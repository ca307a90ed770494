package cborwire

import (
	"cmp"
	"slices"

	"github.com/kubewire/kubewire/api/wire"
)

// Sharing in typed decoders, as in package jsonwire: through a ReadOnly
// Table, a slice, map or pointer field gets the value decoded earlier
// from an equal item. kube-apiserver shuffles the keys of every map it
// sends, so items are compared by a key computed from their content
// (the sum of a map's entries), not from their bytes.
//
//	if k, ok := cborwire.ReuseSlice(d, &m.Ports); !ok {
//		... decode m.Ports ...
//		cborwire.Keep(d, k, m.Ports)
//	}

// maxReusedItem bounds the size of an item offered for sharing, as
// jsonwire's bound does.
const maxReusedItem = 32 << 10

// scanBudget bounds the bytes scannedKey reads in one decode, in
// multiples of the input's length.
const scanBudget = 4

// ReuseSlice sets *p to the slice decoded earlier, through the same
// ReadOnly Table, from an equal item, consumes the item, and reports
// true. Otherwise it reports false, consuming nothing, with the key Keep
// stores the value under once decoded (the zero key when the Table
// does not share). It offers only values that would replace *p whole: a
// slice without capacity, and not null; one already decoded is copied
// first, since the decode writes into it and it may be shared.
func ReuseSlice[S ~[]E, E any](d *Decoder, p *S) (wire.JSONKey, bool) {
	if cap(*p) != 0 { // a decode into a filled value merges into a copy
		*p = wire.OwnSlice(d.Table, *p)
		return wire.JSONKey{}, false
	}
	return reuse(d, p)
}

// ReuseMap is ReuseSlice for a map field, which must be nil.
func ReuseMap[M ~map[K]V, K comparable, V any](d *Decoder, p *M) (wire.JSONKey, bool) {
	if *p != nil {
		*p = wire.OwnMap(d.Table, *p)
		return wire.JSONKey{}, false
	}
	return reuse(d, p)
}

// ReusePtr is ReuseSlice for a pointer field, which must be nil.
func ReusePtr[T any](d *Decoder, p **T) (wire.JSONKey, bool) {
	if *p != nil {
		*p = wire.OwnPtr(d.Table, *p)
		return wire.JSONKey{}, false
	}
	return reuse(d, p)
}

func reuse[T any](d *Decoder, p *T) (wire.JSONKey, bool) {
	if d.Table == nil || !d.Table.ReadOnly || d.err != nil {
		return wire.JSONKey{}, false
	}
	if c := d.peek(); c == valNull || c == valUndefined || c == 0 {
		return wire.JSONKey{}, false
	}
	start := d.pos
	k, end, ok := d.scannedKey(start)
	if !ok {
		return wire.JSONKey{}, false
	}
	v, key, found := d.Table.SharedKey(k)
	if found {
		if t, ok := v.(T); ok {
			*p = t
			d.pos = end
			return wire.JSONKey{}, true
		}
	}
	return key, false
}

// scanBytesPerRecord is the input a scan's first record slot is sized
// by: custom resources hold a map or array per 64 to 128 bytes.
const scanBytesPerRecord = 64

// scanned is a map or array itemKey went through: its offsets and key.
type scanned struct {
	start, end int
	key        wire.JSONKey
}

// scannedKey returns the key and the end of the item at start. A scan
// records the key of every map and array inside the item it reads, so
// that the Reuse calls the decode of that item makes for them (when the
// item itself was not shared) find their keys without hashing again.
func (d *Decoder) scannedKey(start int) (wire.JSONKey, int, bool) {
	if start < d.scanEnd {
		// A decode asks for the items of a scan in the order they start:
		// step forward from the last one found (past the records of an
		// item shared whole), searching only when asked for one before.
		i := d.scanAt
		if i < len(d.scans) && d.scans[i].start <= start {
			for i < len(d.scans) && d.scans[i].start < start {
				i++
			}
		} else {
			i, _ = slices.BinarySearchFunc(d.scans, start, func(s scanned, start int) int { return cmp.Compare(s.start, start) })
		}
		if i < len(d.scans) && d.scans[i].start == start {
			d.scanAt = i + 1
			return d.scans[i].key, d.scans[i].end, true
		}
	} else {
		d.scans, d.scanAt = d.scans[:0], 0
	}
	// Scans nested in a failed one (an item past maxReusedItem) scan
	// again; the budget keeps the bytes scanned linear in the input
	// whatever the nesting, where well-formed objects scan each byte
	// about once.
	if d.scanWork > scanBudget*len(d.buf)+maxReusedItem {
		return wire.JSONKey{}, 0, false
	}
	if d.scans == nil {
		// Sized once for the input (a list's scan records about a map
		// or array per 64 to 128 bytes, up to maxReusedItem): grown from
		// nothing, it allocated about twice its final size per decode.
		d.scans = make([]scanned, 0, min(len(d.buf), maxReusedItem)/scanBytesPerRecord)
	}
	depth := d.depth
	base := len(d.scans)
	k, ok := d.itemKey(start + maxReusedItem)
	end := d.pos
	pastLimit := !ok && d.err == nil // too large, not malformed
	d.scanWork += min(end, start+maxReusedItem) - start
	d.pos, d.err, d.depth = start, nil, depth // the scan only looked
	if !ok {
		if pastLimit && base == 0 {
			d.keepCompleted()
		} else {
			d.scans, d.scanAt, d.scanEnd = d.scans[:0], 0, 0
		}
		return wire.JSONKey{}, 0, false
	}
	if start >= d.scanEnd {
		d.scanEnd = end
	}
	return k, end, true
}

// keepCompleted keeps, of a scan that passed maxReusedItem (a list's
// items, offered whole), the records of the maps and arrays it finished:
// the decode of the item asks for them next, and scanning them again
// would read up to maxReusedItem bytes twice per decode. The records
// still open at the limit (the item, and the chain of items holding the
// limit) are dropped, and the kept range ends where the first of those
// inside the item starts, so that no item asked for in it lacks a
// record.
func (d *Decoder) keepCompleted() {
	open := len(d.scans) // the first record still open, past the item's own
	for i := 1; i < len(d.scans); i++ {
		if d.scans[i].end == 0 {
			open = i
			break
		}
	}
	d.scanEnd = 0
	if open < len(d.scans) {
		d.scanEnd = d.scans[open].start
	} else {
		for _, s := range d.scans[1:] {
			d.scanEnd = max(d.scanEnd, s.end)
		}
	}
	if len(d.scans) > 0 {
		d.scans = append(d.scans[:0], d.scans[1:open]...)
	}
	d.scanAt = 0
	if len(d.scans) == 0 {
		d.scanEnd = 0
	}
}

// Keep stores v, decoded from the item a Reuse function returned key
// for, for later decodes of equal items. It does nothing after an error.
func Keep[T any](d *Decoder, key wire.JSONKey, v T) {
	// Boxing v into an any allocates; most calls have nothing to keep.
	if d.err == nil && key != (wire.JSONKey{}) {
		d.Table.ShareJSON(key, v)
	}
}

// itemKey reads one item, computing a key from its content, and reports
// false when it is malformed or passes limit (an offset). A scalar's key
// is its bytes'; a map's is the sum of its entries' (so that the order
// of keys does not matter), an entry's being that of the key's and the
// value's bytes together for a scalar value, and that of the key's bytes
// then the value's key for a map or array; an array's chains its
// elements'. Maps and arrays are recorded in d.scans, in the order they
// start.
//
// Definite strings, numbers and simple values are stepped over without
// checking their content (UTF-8, NaN): a key only finds a value decoded
// before from the same bytes, which were checked then, and an item not
// found is decoded, and checked, next.
func (d *Decoder) itemKey(limit int) (wire.JSONKey, bool) {
	d.skipTags()
	if d.err != nil || d.pos >= len(d.buf) || d.pos > limit {
		return wire.JSONKey{}, false
	}
	start := d.pos
	switch c := d.buf[d.pos]; c >> 5 {
	case majorArray:
		n, ok := d.OpenArray("array")
		if !ok {
			return wire.JSONKey{}, false
		}
		rec := len(d.scans)
		d.scans = append(d.scans, scanned{start: start})
		var chain wire.JSONKey
		count := 0
		for i := 0; d.NextElem(i, n); i++ {
			k, ok := d.itemKey(limit)
			if !ok {
				return wire.JSONKey{}, false
			}
			chain = chain.Then(k)
			count++
		}
		k := chain.Mixed('a'<<32 | uint64(count))
		d.scans[rec].end, d.scans[rec].key = d.pos, k
		return k, d.err == nil
	case majorMap:
		n, ok := d.OpenMap("map")
		if !ok {
			return wire.JSONKey{}, false
		}
		rec := len(d.scans)
		d.scans = append(d.scans, scanned{start: start})
		var sum wire.JSONKey
		count := 0
		for i := 0; ; i++ {
			keyStart := d.pos // the entry's bytes, key and value, are unambiguous
			if i < n {
				// A definite string key: no need for NextKey's checks.
				// Most keys and scalar values are strings with a
				// one-byte head, stepped over with no call.
				ke, ok := shortStringAt(d.buf, keyStart, len(d.buf))
				if !ok {
					ke, ok = d.stringEnd(keyStart)
				}
				if ok {
					ve, ok := shortStringAt(d.buf, ke, len(d.buf))
					if !ok {
						ve, ok = d.scalarEnd(ke)
					}
					if ok {
						if ve > limit {
							return wire.JSONKey{}, false
						}
						d.pos = ve
						sum = sum.Plus(d.Table.KeyOf(d.buf[keyStart:ve]))
						count++
						continue
					}
					d.pos = ke
					kk := d.Table.KeyOf(d.buf[keyStart:ke])
					vk, ok := d.itemKey(limit)
					if !ok {
						return wire.JSONKey{}, false
					}
					sum = sum.Plus(kk.Then(vk))
					count++
					continue
				}
			}
			if !d.NextKey(i, n) {
				break
			}
			keyEnd := d.pos
			if ve, ok := d.scalarEnd(keyEnd); ok {
				if ve > limit {
					return wire.JSONKey{}, false
				}
				d.pos = ve
				sum = sum.Plus(d.Table.KeyOf(d.buf[keyStart:ve]))
			} else if vs := d.nextAfterTags(d.pos); vs < len(d.buf) && d.buf[vs]>>5 != majorArray && d.buf[vs]>>5 != majorMap {
				d.Skip()
				if d.err != nil || d.pos > limit {
					return wire.JSONKey{}, false
				}
				sum = sum.Plus(d.Table.KeyOf(d.buf[keyStart:d.pos]))
			} else {
				kk := d.Table.KeyOf(d.buf[keyStart:keyEnd])
				vk, ok := d.itemKey(limit)
				if !ok {
					return wire.JSONKey{}, false
				}
				sum = sum.Plus(kk.Then(vk))
			}
			count++
		}
		k := sum.Mixed('m'<<32 | uint64(count))
		d.scans[rec].end, d.scans[rec].key = d.pos, k
		return k, d.err == nil
	}
	if end, ok := d.scalarEnd(start); ok {
		d.pos = end
	} else {
		d.Skip()
	}
	if d.err != nil {
		return wire.JSONKey{}, false
	}
	return d.Table.KeyOf(d.buf[start:d.pos]), true
}

// shortStringAt returns the end of the byte or text string at p in b,
// ending by limit (at most len(b)), when its head is one byte (under 24
// bytes long): stringAt's common case, small enough to inline where
// stringAt is a call; false for anything else.
func shortStringAt(b []byte, p, limit int) (int, bool) {
	if p >= 0 && p < limit && p < len(b) {
		if c := b[p]; c&0xc0 == 0x40 && c&0x1f < 24 {
			if end := p + 1 + int(c&0x1f); end <= limit {
				return end, true
			}
		}
	}
	return 0, false
}

// stringEnd returns the end of the definite byte or text string at p
// (its head under 2^32), not looking at its content, or false.
func (d *Decoder) stringEnd(p int) (int, bool) { return stringAt(d.buf, p, len(d.buf)) }

// scalarEnd returns the end of the definite string, integer, simple
// value (false, true, null, undefined, a float) or empty map or array
// (a managedFields leaf) at p, not looking at its content, or false for
// anything else.
func (d *Decoder) scalarEnd(p int) (int, bool) { return scalarAt(d.buf, p, len(d.buf)) }
