package jsonwire

import (
	"strconv"
	"unsafe"

	"github.com/kubewire/kubewire/api/wire"
)

type pair struct {
	key string
	val any
}

// Any reads one value as encoding/json would into an any, except that
// numbers are int64 when the literal is an integer that fits and float64
// otherwise: the form Unstructured holds. Objects are map[string]any
// sized to fit, arrays []any of their exact length; object keys and short
// strings are interned, and through a ReadOnly Table equal objects of
// strings are shared. A number beyond float64's range is a type error.
func (d *Decoder) Any() any {
	switch c := d.peek(); {
	case c == '{':
		return d.anyObject(true)
	case c == '[':
		return d.anyArray()
	case c == '"':
		b := d.readString(&d.strBuf)
		if d.err != nil {
			return nil
		}
		return d.boxString(b)
	case c == 't':
		d.literal("true")
		return true
	case c == 'f':
		d.literal("false")
		return false
	case c == 'n':
		d.literal("null")
		return nil
	case c == '-' || '0' <= c && c <= '9':
		at := d.pos
		lit, integer := d.readNumber()
		if d.err != nil {
			return nil
		}
		if integer && !d.floats {
			if v, ok := parseInt(lit); ok {
				if d.Table == nil {
					return d.boxes.Int(v, len(d.buf)-d.pos)
				}
				return v
			}
		}
		f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(lit), len(lit)), 64)
		if err != nil {
			d.failNumber(at, lit, "float64")
			return nil
		}
		if d.Table == nil {
			return d.boxes.Float(f, len(d.buf)-d.pos)
		}
		return f
	}
	d.Skip() // records the syntax error
	return nil
}

// Interface reads one value as encoding/json does into an any: numbers
// are float64. It is for interface{} fields of typed objects (a Table's
// cells); Unstructured uses Any.
func (d *Decoder) Interface() any {
	d.floats = true
	v := d.Any()
	d.floats = false
	return v
}

// AnyObject reads an object as Any does; null gives nil, other values a
// type error.
func (d *Decoder) AnyObject() map[string]any {
	switch d.peek() {
	case '{':
		return d.anyObject(false)
	case 'n':
		d.literal("null")
		return nil
	}
	d.Fail("map[string]any")
	return nil
}

// anyObject reads an object; through a ReadOnly Table a nested one
// (share) may be a map decoded before from the same bytes. The top of a
// value is never shared: its owner may add to it (a list item's kind).
func (d *Decoder) anyObject(share bool) map[string]any {
	if d.Table == nil {
		return d.plainObject()
	}
	start := d.pos
	if !d.enter() {
		return nil
	}
	d.pos++
	base := len(d.pairs)
	for i := 0; d.NextField(i); i++ {
		k := d.intern(d.key)
		v := d.Any()
		d.pairs = append(d.pairs, pair{k, v})
	}
	kv := d.pairs[base:]
	defer func() {
		clear(kv)
		d.pairs = d.pairs[:base]
	}()
	if d.err != nil {
		return nil
	}
	if share && len(kv) == 0 {
		if m := d.Table.EmptyMap(); m != nil {
			return m
		}
	}
	var key wire.JSONKey
	if share && len(kv) > 0 {
		var v any
		var found bool
		if v, key, found = d.shared(d.buf[start:d.pos]); found {
			if m, ok := v.(map[string]any); ok {
				return m
			}
		}
	}
	m := make(map[string]any, len(kv))
	for _, p := range kv {
		m[p.key] = p.val
	}
	d.Table.ShareJSON(key, m)
	return m
}

// smallObject is the most members an object can have to be read
// through plainObject's array on the stack: a Go map holds eight
// entries in its first group, whatever its size hint, so a map of up to
// eight is made at its full size without knowing the count first.
const smallObject = 8

// plainObject is anyObject without a Table. The members of an object go
// to an array on the stack, where storing them needs no write barrier
// and clearing them nothing; past the eighth they move to d.pairs, so
// that a larger map is still made at its full size once.
func (d *Decoder) plainObject() map[string]any {
	if !d.enter() {
		return nil
	}
	d.pos++
	var small [smallObject]pair
	n := 0
	for i := 0; d.NextField(i); i++ {
		if n == len(small) {
			return d.largeObject(small[:], i)
		}
		small[n].key = d.plainString(d.key)
		small[n].val = d.Any()
		n++
	}
	if d.err != nil {
		return nil
	}
	m := make(map[string]any, n)
	for _, p := range small[:n] {
		m[p.key] = p.val
	}
	return m
}

// largeObject goes on with plainObject's object at member i (at whose
// value the decoder stands), the members before it in first.
func (d *Decoder) largeObject(first []pair, i int) map[string]any {
	base := len(d.pairs)
	d.pairs = append(d.pairs, first...)
	defer func() {
		clear(d.pairs[base:])
		d.pairs = d.pairs[:base]
	}()
	for more := true; more; more = d.NextField(i) {
		k := d.plainString(d.key)
		v := d.Any()
		d.pairs = append(d.pairs, pair{k, v})
		i++
	}
	if d.err != nil {
		return nil
	}
	kv := d.pairs[base:]
	m := make(map[string]any, len(kv))
	for _, p := range kv {
		m[p.key] = p.val
	}
	return m
}

// anyArray reads an array as an any holding a []any. Through a ReadOnly
// Table an array decoded before from the same bytes comes back in the
// same any, so that its slice header is boxed once, not once per object.
func (d *Decoder) anyArray() any {
	start := d.pos
	if !d.enter() {
		return nil
	}
	d.pos++
	base := len(d.stack)
	for i := 0; d.NextElem(i); i++ {
		v := d.Any()
		d.stack = append(d.stack, v)
	}
	elems := d.stack[base:]
	defer func() {
		clear(elems)
		d.stack = d.stack[:base]
	}()
	if d.err != nil {
		return nil
	}
	if d.Table == nil {
		out := d.boxes.Elems(len(elems), len(d.buf)-d.pos)
		copy(out, elems)
		return d.boxes.Slice(out, len(d.buf)-d.pos)
	}
	var key wire.JSONKey
	if len(elems) == 0 {
		if v := d.Table.EmptyArray(); v != nil {
			return v
		}
	} else {
		var v any
		var found bool
		if v, key, found = d.shared(d.buf[start:d.pos]); found {
			if _, ok := v.([]any); ok {
				return v
			}
		}
	}
	out := make([]any, len(elems))
	copy(out, elems)
	var boxed any = out
	if key != (wire.JSONKey{}) {
		d.Table.ShareJSON(key, boxed)
	}
	return boxed
}

// boxString returns b as an any holding a string, sharing the box of an
// equal short string through the Table.
func (d *Decoder) boxString(b []byte) any {
	if d.Table == nil {
		return d.boxes.String(d.plainString(b), len(d.buf)-d.pos)
	}
	return d.Table.StringValue(b)
}
