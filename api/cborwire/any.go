package cborwire

import (
	"github.com/kubewire/kubewire/api/wire"
)

// maxMapHint caps the size a map is made with from a head's count.
const maxMapHint = 1024

type pair struct {
	key string
	val any
	k   wire.JSONKey // the value's key, for sharing
}

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
	v, _ := d.anyValue(false)
	return v
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
	v, _ := d.anyMap(false)
	return v
}

// anyValue reads one item; keyed asks for its sharing key (the zero key
// when there is no ReadOnly table).
func (d *Decoder) anyValue(keyed bool) (any, wire.JSONKey) {
	d.skipTags()
	if d.err != nil {
		return nil, wire.JSONKey{}
	}
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return nil, wire.JSONKey{}
	}
	share := d.Table != nil && d.Table.ReadOnly
	leaf := share && keyed // the key of a scalar is wanted
	start := d.pos
	switch c := d.buf[d.pos]; c >> 5 {
	case majorUint, majorNegint:
		v, u, fits, ok := d.integer("int64")
		if !ok {
			return nil, wire.JSONKey{}
		}
		var out any = v
		if !fits { // as the JSON path: beyond int64, a float64
			out = float64(u)
		}
		return out, d.leafKey(leaf, start)
	case majorBytes, majorText:
		b, ok := d.stringBytes("string")
		if !ok {
			return nil, wire.JSONKey{}
		}
		var k wire.JSONKey
		if leaf {
			k = d.Table.KeyOf(d.buf[start:d.pos])
		}
		if d.Table == nil {
			return d.plainString(b), k
		}
		return d.Table.StringValue(b), k
	case majorArray:
		v, k := d.anyArray(true)
		return v, k
	case majorMap:
		m, k := d.anyMap(true)
		return m, k
	case majorSimple:
		switch {
		case c == valTrue:
			d.pos++
			return true, d.leafKey(leaf, start)
		case c == valFalse:
			d.pos++
			return false, d.leafKey(leaf, start)
		case c == valNull || c == valUndefined:
			d.pos++
			return nil, d.leafKey(leaf, start)
		case c == 0xf9 || c == 0xfa || c == 0xfb:
			f, ok := d.float("float64")
			if !ok {
				return nil, wire.JSONKey{}
			}
			return f, d.leafKey(leaf, start)
		}
	}
	d.Skip() // records the error
	return nil, wire.JSONKey{}
}

// leafKey is the sharing key of the scalar item just read from start.
func (d *Decoder) leafKey(share bool, start int) wire.JSONKey {
	if !share {
		return wire.JSONKey{}
	}
	return d.Table.KeyOf(d.buf[start:d.pos])
}

// anyMap reads a map. With share, its key is the sum of its entries'
// (so that the order of keys does not matter), and an earlier map of the
// same content is returned instead of a new one; the top of an object
// is read without share.
func (d *Decoder) anyMap(share bool) (map[string]any, wire.JSONKey) {
	n, ok := d.OpenMap("map[string]any")
	if !ok {
		return nil, wire.JSONKey{}
	}
	keyed := d.Table != nil && d.Table.ReadOnly
	if !keyed && n >= 0 {
		return d.anyMapDirect(n), wire.JSONKey{}
	}
	base := len(d.pairs)
	var sum wire.JSONKey
	for i := 0; ; i++ {
		entry := d.pos
		if !d.NextKey(i, n) {
			break
		}
		k := d.intern(d.key)
		if keyed {
			// A scalar entry's key is that of its bytes, key and value
			// together; a map's or array's combines the two keys.
			if vs := d.nextAfterTags(d.pos); vs < len(d.buf) && d.buf[vs]>>5 != majorArray && d.buf[vs]>>5 != majorMap {
				v, _ := d.anyValue(false)
				if d.err != nil {
					break
				}
				sum = sum.Plus(d.Table.KeyOf(d.buf[entry:d.pos]))
				d.pairs = append(d.pairs, pair{key: k, val: v})
				continue
			}
			kk := d.Table.KeyOf(d.key)
			v, vk := d.anyValue(true)
			sum = sum.Plus(kk.Then(vk))
			d.pairs = append(d.pairs, pair{key: k, val: v})
			continue
		}
		v, _ := d.anyValue(false)
		d.pairs = append(d.pairs, pair{key: k, val: v})
	}
	kv := d.pairs[base:]
	defer func() {
		clear(kv)
		d.pairs = d.pairs[:base]
	}()
	if d.err != nil {
		return nil, wire.JSONKey{}
	}
	var key wire.JSONKey
	if keyed {
		key = sum.Mixed('m'<<32 | uint64(len(kv)))
	}
	if share && len(kv) == 0 {
		if m := d.Table.EmptyMap(); m != nil {
			return m, key
		}
	}
	var store wire.JSONKey
	if share && len(kv) > 0 {
		v, sk, found := d.Table.SharedKey(key)
		if m, ok := v.(map[string]any); found && ok {
			return m, key
		}
		store = sk
	}
	m := make(map[string]any, len(kv))
	for _, p := range kv {
		m[p.key] = p.val
	}
	if len(m) != len(kv) {
		// kube-apiserver refuses such maps; the JSON path keeps the last.
		d.syntax("map with a duplicate key")
		return nil, wire.JSONKey{}
	}
	if store != (wire.JSONKey{}) {
		d.Table.ShareJSON(store, m)
	}
	return m, key
}

// anyMapDirect reads the entries of a map of n entries, opened, straight
// into a map sized from the head: without sharing, nothing needs the
// entries gathered first. The size hint is capped: a head may claim
// more entries than it has, and a map slot outweighs the two bytes an
// entry takes at least.
func (d *Decoder) anyMapDirect(n int) map[string]any {
	m := make(map[string]any, min(n, maxMapHint))
	for i := 0; d.NextKey(i, n); i++ {
		k := d.intern(d.key)
		v, _ := d.anyValue(false)
		if d.err != nil {
			return nil
		}
		m[k] = v
	}
	if d.err != nil {
		return nil
	}
	if len(m) != n {
		// kube-apiserver refuses such maps; the JSON path keeps the last.
		d.syntax("map with a duplicate key")
		return nil
	}
	return m
}

// anyArray reads an array as an any holding a []any. With share, an
// array decoded before from an equal item comes back in the same any, so
// its slice header is boxed once, not once per object that holds it (as
// on the JSON path); empty arrays share one box.
func (d *Decoder) anyArray(share bool) (any, wire.JSONKey) {
	n, ok := d.OpenArray("[]any")
	if !ok {
		return nil, wire.JSONKey{}
	}
	keyed := d.Table != nil && d.Table.ReadOnly
	base := len(d.stack)
	var chain wire.JSONKey
	for i := 0; d.NextElem(i, n); i++ {
		v, vk := d.anyValue(true)
		if keyed {
			chain = chain.Then(vk)
		}
		d.stack = append(d.stack, v)
	}
	elems := d.stack[base:]
	defer func() {
		clear(elems)
		d.stack = d.stack[:base]
	}()
	if d.err != nil {
		return nil, wire.JSONKey{}
	}
	var key wire.JSONKey
	if keyed {
		key = chain.Mixed('a'<<32 | uint64(len(elems)))
	}
	if share && len(elems) == 0 {
		if v := d.Table.EmptyArray(); v != nil {
			return v, key
		}
	}
	var store wire.JSONKey
	if share && len(elems) > 0 {
		v, sk, found := d.Table.SharedKey(key)
		if _, ok := v.([]any); found && ok {
			return v, key
		}
		store = sk
	}
	out := make([]any, len(elems))
	copy(out, elems)
	var boxed any = out
	if store != (wire.JSONKey{}) {
		d.Table.ShareJSON(store, boxed)
	}
	return boxed, key
}
