package cborwire

import (
	"bytes"
	"slices"
	"unsafe"

	"github.com/kubewire/kubewire/api/jsonwire"
)

// ToJSON returns the JSON of the CBOR item b holds, with map keys in
// sorted order, as kube-apiserver's JSON writes the same content: the
// values Unstructured would hold, strings escaped as encoding/json
// escapes them, integers as integers, floats as encoding/json formats a
// float64. Tags are dropped; NaN and infinities are errors.
func ToJSON(b []byte) ([]byte, error) {
	d := NewDecoder(b, nil)
	out, ok := d.transcodeItem()
	if !ok {
		return nil, d.err
	}
	if err := d.End(); err != nil {
		return nil, err
	}
	return bytes.Clone(out), nil
}

// transcodeItem reads one item and returns its JSON, in the Decoder's
// scratch buffer (valid until the next transcoding).
func (d *Decoder) transcodeItem() ([]byte, bool) {
	e := jsonwire.NewEncoder(d.jsonBuf[:0])
	d.toJSON(e)
	d.jsonBuf = e.Bytes()
	return d.jsonBuf, d.err == nil
}

// member is a map entry being transcoded: its key, and where its JSON
// (the key, a colon and the value) starts and ends in the output.
type member struct {
	key        []byte
	start, end int
}

func (d *Decoder) toJSON(e *jsonwire.Encoder) {
	d.skipTags()
	if d.err != nil {
		return
	}
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return
	}
	switch c := d.buf[d.pos]; c >> 5 {
	case majorUint, majorNegint:
		v, u, fits, ok := d.integer("integer")
		if !ok {
			return
		}
		if fits {
			e.Int(v)
		} else {
			e.Uint(u)
		}
	case majorBytes, majorText:
		b, ok := d.stringBytes("string")
		if ok {
			e.String(unsafe.String(unsafe.SliceData(b), len(b)))
		}
	case majorArray:
		n, ok := d.OpenArray("array")
		if !ok {
			return
		}
		e.Byte('[')
		for i := 0; d.NextElem(i, n); i++ {
			if i > 0 {
				e.Byte(',')
			}
			d.toJSON(e)
		}
		e.Byte(']')
	case majorMap:
		n, ok := d.OpenMap("map")
		if !ok {
			return
		}
		start := e.Len()
		e.Byte('{')
		base := len(d.members)
		for i := 0; d.NextKey(i, n); i++ {
			if i > 0 {
				e.Byte(',')
			}
			key := d.key
			if !aliases(d.buf, key) { // an indefinite key, in scratch
				key = bytes.Clone(key)
			}
			m := member{key: key, start: e.Len()}
			e.String(unsafe.String(unsafe.SliceData(d.key), len(d.key)))
			e.Byte(':')
			d.toJSON(e)
			m.end = e.Len()
			d.members = append(d.members, m)
		}
		e.Byte('}')
		members := d.members[base:]
		if d.err == nil && len(members) > 1 {
			dup := false
			if slices.IsSortedFunc(members, cmpMember) {
				for i := 1; i < len(members); i++ {
					dup = dup || bytes.Equal(members[i].key, members[i-1].key)
				}
			} else {
				d.sorted, dup = sortMembers(e, start, members, d.sorted[:0])
			}
			if dup {
				d.syntax("map with a duplicate key")
			}
		}
		clear(members)
		d.members = d.members[:base]
	case majorSimple:
		switch {
		case c == valTrue:
			d.pos++
			e.Literal("true")
		case c == valFalse:
			d.pos++
			e.Literal("false")
		case c == valNull || c == valUndefined:
			d.pos++
			e.Null()
		case c == 0xf9 || c == 0xfa || c == 0xfb:
			if f, ok := d.float("float64"); ok {
				e.Float64(f)
			}
		default:
			d.Skip() // reports the error
		}
	}
	if err := e.Err(); err != nil {
		d.SetErr(err)
	}
}

func cmpMember(a, b member) int { return bytes.Compare(a.key, b.key) }

// sortMembers rewrites the object that starts at start in e's buffer with
// its members in the order of their keys' bytes, as encoding/json writes
// a map, through scratch, which it returns for reuse; dup reports two
// members with the same key.
func sortMembers(e *jsonwire.Encoder, start int, members []member, scratch []byte) (_ []byte, dup bool) {
	buf := e.Bytes()
	// Sorting indexes is faster than moving members around.
	order := make([]int32, 0, 32)[:0]
	for i := range members {
		order = append(order, int32(i))
	}
	slices.SortFunc(order, func(a, b int32) int { return bytes.Compare(members[a].key, members[b].key) })
	sorted := append(scratch, '{')
	for i, k := range order {
		if i > 0 {
			sorted = append(sorted, ',')
			dup = dup || bytes.Equal(members[k].key, members[order[i-1]].key)
		}
		m := members[k]
		sorted = append(sorted, buf[m.start:m.end]...)
	}
	sorted = append(sorted, '}')
	copy(buf[start:], sorted)
	return sorted[:0], dup
}

// aliases reports whether b lies within buf.
func aliases(buf, b []byte) bool {
	if len(b) == 0 || len(buf) == 0 {
		return len(b) == 0
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	return p >= lo && p < lo+uintptr(len(buf))
}

// TranscodeJSON reads one item and returns its JSON (map keys sorted),
// valid until the next transcoding; a string item gives its bytes, taken
// to be JSON already (a FieldsV1 written by a typed encoder). ok is false
// on error.
func (d *Decoder) TranscodeJSON() ([]byte, bool) {
	if c := d.peek(); c>>5 == majorBytes || c>>5 == majorText {
		b, ok := d.stringBytes("JSON")
		return b, ok
	}
	return d.transcodeItem()
}
