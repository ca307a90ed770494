package cborwire

import (
	"github.com/kubewire/kubewire/api/wire"
)

// maxMapHint caps the size a map is made with from a head's count.
const maxMapHint = 1024

// Any reads one item into the form Unstructured holds, the form the JSON
// path gives for the same object: maps as map[string]any sized to fit,
// arrays as []any, integers as int64 (float64 beyond int64's range),
// floats as float64 (CBOR keeps a float with an integral value, 2.0, a
// float, where JSON writes it as 2 and it reads back as an int64), strings (byte or text) as string, true, false and
// null. Keys and short strings are interned; through a ReadOnly Table,
// equal maps and arrays inside the value are shared, whatever the order
// kube-apiserver put their keys in. A map key that is not a string, or
// NaN or an infinity, is an error.
func (d *Decoder) Any() any {
	if d.Table == nil {
		return d.dynValue()
	}
	return d.anyValue()
}

// AnyObject reads a map (the top of an object) into a new map that is
// never shared: its owner may add to it (a list item's kind). null gives
// nil; other items are a type error.
func (d *Decoder) AnyObject() map[string]any {
	if d.Null() {
		return nil
	}
	if d.peek()>>5 != majorMap {
		d.Fail("map[string]any")
		return nil
	}
	if d.Table == nil {
		return d.dynObject()
	}
	return d.anyMap(false)
}

// anyValue reads one item. Through a ReadOnly Table, a map or an array
// is shared (see sharedItem).
func (d *Decoder) anyValue() any {
	if d.pos < len(d.buf) && d.buf[d.pos]>>5 == majorTag {
		d.skipTags()
	}
	if d.err != nil {
		return nil
	}
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return nil
	}
	switch c := d.buf[d.pos]; c >> 5 {
	case majorUint, majorNegint:
		v, u, fits, ok := d.integer("int64")
		if !ok {
			return nil
		}
		if !fits { // as the JSON path: beyond int64, a float64
			return float64(u)
		}
		return v
	case majorBytes, majorText:
		if d.Table != nil {
			if v, ok := d.knownString(); ok {
				return v
			}
		}
		b, ok := d.stringBytes("string")
		if !ok {
			return nil
		}
		if d.Table == nil {
			return d.plainString(b)
		}
		if len(b) == 0 {
			return ""
		}
		return d.stringValue(b)
	case majorArray:
		return d.anyArray(true)
	case majorMap:
		m := d.anyMap(true)
		if m == nil {
			return nil // an error: no typed nil in the any
		}
		return m
	case majorSimple:
		switch {
		case c == valTrue:
			d.pos++
			return true
		case c == valFalse:
			d.pos++
			return false
		case c == valNull || c == valUndefined:
			d.pos++
			return nil
		case c == 0xf9 || c == 0xfa || c == 0xfb:
			f, ok := d.float("float64")
			if !ok {
				return nil
			}
			return f
		}
	}
	d.Skip() // records the error
	return nil
}

// sharedItem looks the map or array at d.pos up in a ReadOnly Table by
// its content key (scannedKey: the key of a map does not depend on the
// order of its keys). On a hit it consumes the item and returns the
// value decoded earlier; otherwise it consumes nothing and returns the
// key to store the value under once decoded (the zero key: not worth
// keeping, or no table). Looking up before decoding lets an equal
// subtree be skipped whole, as the JSON path skips an equal span; the
// maps and arrays inside a missed item find their keys in d.scans
// without hashing again.
func (d *Decoder) sharedItem() (v any, store wire.JSONKey, end int, hit bool) {
	if d.Table == nil || !d.Table.ReadOnly || d.err != nil {
		return nil, wire.JSONKey{}, 0, false
	}
	k, end, ok := d.scannedKey(d.pos)
	if !ok {
		return nil, wire.JSONKey{}, 0, false
	}
	v, store, found := d.Table.SharedKey(k)
	return v, store, end, found
}

// anyMap reads a map. With share (every map but the top of an object)
// and a ReadOnly Table, an earlier map of the same content is returned
// instead of a new one, and an empty map is the table's one empty map.
func (d *Decoder) anyMap(share bool) map[string]any {
	var store wire.JSONKey
	if share && d.Table != nil && d.Table.ReadOnly {
		if d.pos < len(d.buf) && d.buf[d.pos] == 0xa0 {
			if m := d.Table.EmptyMap(); m != nil {
				d.pos++
				return m
			}
		}
		v, k, end, hit := d.sharedItem()
		if m, ok := v.(map[string]any); hit && ok {
			d.pos = end
			return m
		}
		store = k
	}
	n, ok := d.dynOpen(0xa0, 2, "map[string]any")
	if !ok {
		return nil
	}
	m := d.anyMapEntries(n)
	if m != nil && store != (wire.JSONKey{}) {
		d.Table.ShareJSON(store, m)
	}
	return m
}

// anyMapEntries reads the entries of a map of n entries (-1: an
// indefinite length), opened, straight into a map sized from the head.
// The size hint is capped: a head may claim more entries than it has,
// and a map slot outweighs the two bytes an entry takes at least.
func (d *Decoder) anyMapEntries(n int) map[string]any {
	m := make(map[string]any, MapCap(n))
	for i := 0; ; i++ {
		k, ok := d.nextKey(i, n)
		if !ok {
			break
		}
		v := d.anyValue()
		if d.err != nil {
			return nil
		}
		m[k] = v
		if len(m) != i+1 {
			// kube-apiserver refuses such maps; the JSON path keeps the last.
			d.DuplicateKey(k)
			return nil
		}
	}
	if d.err != nil {
		return nil
	}
	return m
}

// anyArray reads an array as an any holding a []any. With share and a
// ReadOnly Table, an array decoded before from an equal item comes back
// in the same any, so its slice header is boxed once, not once per
// object that holds it (as on the JSON path); empty arrays share one
// box.
func (d *Decoder) anyArray(share bool) any {
	var store wire.JSONKey
	if share && d.Table != nil && d.Table.ReadOnly {
		if d.pos < len(d.buf) && d.buf[d.pos] == 0x80 {
			if v := d.Table.EmptyArray(); v != nil {
				d.pos++
				return v
			}
		}
		v, k, end, hit := d.sharedItem()
		if _, ok := v.([]any); hit && ok {
			d.pos = end
			return v
		}
		store = k
	}
	n, ok := d.dynOpen(0x80, 1, "[]any")
	if !ok {
		return nil
	}
	base := len(d.stack)
	for i := 0; d.NextElem(i, n); i++ {
		d.stack = append(d.stack, d.anyValue())
	}
	elems := d.stack[base:]
	defer func() {
		clear(elems)
		d.stack = d.stack[:base]
	}()
	if d.err != nil {
		return nil
	}
	out := make([]any, len(elems))
	copy(out, elems)
	var boxed any = out
	if store != (wire.JSONKey{}) {
		d.Table.ShareJSON(store, boxed)
	}
	return boxed
}
