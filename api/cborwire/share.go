package cborwire

import "github.com/kubewire/kubewire/api/wire"

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
// stores the value under once decoded (the zero key: not worth keeping).
// It offers only values that would replace *p whole: a slice without
// capacity, and not null.
func ReuseSlice[S ~[]E, E any](d *Decoder, p *S) (wire.JSONKey, bool) {
	if cap(*p) != 0 {
		return wire.JSONKey{}, false
	}
	return reuse(d, p)
}

// ReuseMap is ReuseSlice for a map field, which must be nil.
func ReuseMap[M ~map[K]V, K comparable, V any](d *Decoder, p *M) (wire.JSONKey, bool) {
	if *p != nil {
		return wire.JSONKey{}, false
	}
	return reuse(d, p)
}

// ReusePtr is ReuseSlice for a pointer field, which must be nil.
func ReusePtr[T any](d *Decoder, p **T) (wire.JSONKey, bool) {
	if *p != nil {
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
	start, depth := d.pos, d.depth
	k, ok := d.itemKey(start + maxReusedItem)
	end := d.pos
	d.pos, d.err, d.depth = start, nil, depth // the scan only looked
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

// Keep stores v, decoded from the item a Reuse function returned key
// for, for later decodes of equal items. It does nothing after an error.
func Keep[T any](d *Decoder, key wire.JSONKey, v T) {
	if d.err == nil {
		d.Table.ShareJSON(key, v)
	}
}

// itemKey reads one item, computing its content key as Any does, and
// reports false when it is malformed or passes limit (an offset).
func (d *Decoder) itemKey(limit int) (wire.JSONKey, bool) {
	d.skipTags()
	if d.err != nil || d.pos >= len(d.buf) || d.pos > limit {
		return wire.JSONKey{}, false
	}
	start := d.pos
	switch c := d.buf[d.pos]; c >> 5 {
	case majorUint, majorNegint:
		if _, _, _, ok := d.head(); !ok {
			return wire.JSONKey{}, false
		}
		return d.Table.KeyOf(d.buf[start:d.pos]), true
	case majorBytes, majorText:
		b, ok := d.stringBytes("string")
		if !ok {
			return wire.JSONKey{}, false
		}
		return d.Table.KeyOf(b).Mixed('s'), true
	case majorArray:
		n, ok := d.OpenArray("array")
		if !ok {
			return wire.JSONKey{}, false
		}
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
		return chain.Mixed('a'<<32 | uint64(count)), d.err == nil
	case majorMap:
		n, ok := d.OpenMap("map")
		if !ok {
			return wire.JSONKey{}, false
		}
		var sum wire.JSONKey
		count := 0
		for i := 0; d.NextKey(i, n); i++ {
			kk := d.Table.KeyOf(d.key)
			vk, ok := d.itemKey(limit)
			if !ok {
				return wire.JSONKey{}, false
			}
			sum = sum.Plus(kk.Then(vk))
			count++
		}
		return sum.Mixed('m'<<32 | uint64(count)), d.err == nil
	case majorSimple:
		d.Skip()
		if d.err != nil {
			return wire.JSONKey{}, false
		}
		return d.Table.KeyOf(d.buf[start:d.pos]), true
	}
	return wire.JSONKey{}, false
}
