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
		var members []member
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
			members = append(members, m)
		}
		e.Byte('}')
		if d.err == nil && len(members) > 1 {
			if !slices.IsSortedFunc(members, cmpMember) {
				sortMembers(e, start, members)
			}
			for i := 1; i < len(members); i++ {
				if bytes.Equal(members[i].key, members[i-1].key) {
					d.syntax("map with a duplicate key")
				}
			}
		}
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
// a map.
func sortMembers(e *jsonwire.Encoder, start int, members []member) {
	buf := e.Bytes()
	slices.SortStableFunc(members, cmpMember)
	sorted := make([]byte, 0, len(buf)-start)
	sorted = append(sorted, '{')
	for i, m := range members {
		if i > 0 {
			sorted = append(sorted, ',')
		}
		sorted = append(sorted, buf[m.start:m.end]...)
	}
	sorted = append(sorted, '}')
	copy(buf[start:], sorted)
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
