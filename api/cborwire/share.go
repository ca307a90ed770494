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

// ReuseSlice sets *p to the slice decoded earlier, through the same
// ReadOnly Table, from an equal item, consumes the item, and reports
// true. Otherwise it reports false, consuming nothing, with the key Keep
// stores the value under once decoded (the zero key when the Table
// does not share). It offers only values that would replace *p whole: a
// slice without capacity, and not null; one already decoded is copied
// first, since the decode writes into it and it may be shared.
func ReuseSlice[S ~[]E, E any](d *Decoder, p *S) (wire.JSONKey, bool) {
	if cap(*p) != 0 { // a duplicate field: the decode merges into a copy
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
		i, found := slices.BinarySearchFunc(d.scans, start, func(s scanned, start int) int { return cmp.Compare(s.start, start) })
		if found {
			return d.scans[i].key, d.scans[i].end, true
		}
	} else {
		d.scans = d.scans[:0]
	}
	depth := d.depth
	k, ok := d.itemKey(start + maxReusedItem)
	end := d.pos
	d.pos, d.err, d.depth = start, nil, depth // the scan only looked
	if !ok {
		d.scans = d.scans[:0]
		return wire.JSONKey{}, 0, false
	}
	if start >= d.scanEnd {
		d.scanEnd = end
	}
	return k, end, true
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
// of keys does not matter), an entry's being that of the key and the
// value's bytes together for a scalar value; an array's chains its
// elements'. Maps and arrays are recorded in d.scans, in the order they
// start.
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
			if !d.NextKey(i, n) {
				break
			}
			vs := d.nextAfterTags(d.pos)
			if vs < len(d.buf) && d.buf[vs]>>5 != majorArray && d.buf[vs]>>5 != majorMap {
				d.Skip()
				if d.err != nil || d.pos > limit {
					return wire.JSONKey{}, false
				}
				sum = sum.Plus(d.Table.KeyOf(d.buf[keyStart:d.pos]))
			} else {
				kk := d.Table.KeyOf(d.key)
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
	d.Skip()
	if d.err != nil {
		return wire.JSONKey{}, false
	}
	return d.Table.KeyOf(d.buf[start:d.pos]), true
}
