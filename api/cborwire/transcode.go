package cborwire

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strconv"
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
	d.jsonBuf = d.toJSON(d.jsonBuf[:0])
	return d.jsonBuf, d.err == nil
}

// member is a map entry being transcoded: where its key lies (in the
// input, or for a key joined from an indefinite string in the Decoder's
// key scratch) and where its JSON (the key, a colon and the value) starts
// and ends in the output. Offsets, not slices: a member holds no
// pointer, so growing and clearing the members costs no write barriers.
type member struct {
	keyStart, keyEnd int
	start, end       int
	scratch          bool // the key is in d.keyScratch
}

// memberKey returns m's key bytes.
func (d *Decoder) memberKey(m member) []byte {
	if m.scratch {
		return d.keyScratch[m.keyStart:m.keyEnd]
	}
	return d.buf[m.keyStart:m.keyEnd]
}

// toJSON appends the JSON of the item at d.pos to out and returns it.
// The output is a value passed along, not a buffer behind a pointer:
// each append then stores no slice in the heap, which would cost a
// write barrier while the collector runs (the structural bytes of a
// managedFields entry are most of what it writes).
func (d *Decoder) toJSON(out []byte) []byte {
	d.skipTags()
	if d.err != nil {
		return out
	}
	if d.pos >= len(d.buf) {
		d.short("unexpected end of input")
		return out
	}
	switch c := d.buf[d.pos]; c >> 5 {
	case majorUint, majorNegint:
		v, u, fits, ok := d.integer("integer")
		if !ok {
			return out
		}
		if fits {
			return strconv.AppendInt(out, v, 10)
		}
		return strconv.AppendUint(out, u, 10)
	case majorBytes, majorText:
		b, ok := d.stringBytes("string")
		if !ok {
			return out
		}
		return d.appendString(out, b)
	case majorArray:
		n, ok := d.OpenArray("array")
		if !ok {
			return out
		}
		out = append(out, '[')
		for i := 0; d.NextElem(i, n); i++ {
			if i > 0 {
				out = append(out, ',')
			}
			out = d.toJSON(out)
		}
		return append(out, ']')
	case majorMap:
		if c == 0xa0 { // an empty map: a managedFields leaf
			d.pos++
			return append(out, "{}"...)
		}
		if d.memo != nil && d.memo.subsActive {
			return d.memoMapToJSON(out) // see TranscodeJSONMemo
		}
		return d.mapToJSON(out)
	case majorSimple:
		switch {
		case c == valTrue:
			d.pos++
			return append(out, "true"...)
		case c == valFalse:
			d.pos++
			return append(out, "false"...)
		case c == valNull || c == valUndefined:
			d.pos++
			return append(out, "null"...)
		case c == 0xf9 || c == 0xfa || c == 0xfb:
			f, ok := d.float("float64")
			if !ok {
				return out
			}
			e := jsonwire.NewEncoder(out)
			e.Float64(f)
			d.SetErr(e.Err())
			return e.Bytes()
		}
		d.Skip() // reports the error
	}
	return out
}

// appendString appends b as a JSON string, escaped as encoding/json
// escapes it.
func (d *Decoder) appendString(out, b []byte) []byte {
	if jsonSafe(b) {
		out = append(out, '"')
		out = append(out, b...)
		return append(out, '"')
	}
	e := jsonwire.NewEncoder(out)
	e.String(unsafe.String(unsafe.SliceData(b), len(b)))
	d.SetErr(e.Err())
	return e.Bytes()
}

// mapToJSON appends the map at d.pos to out, its keys sorted, and
// returns out. Keys that are short strings needing no escape (every
// managedFields key but the "k:{...}" ones) are copied without going
// through NextKey and escaping.
func (d *Decoder) mapToJSON(out []byte) []byte {
	n, ok := d.OpenMap("map")
	if !ok {
		return out
	}
	start := len(out)
	out = append(out, '{')
	base, scratchBase := len(d.members), len(d.keyScratch)
	sorted := true
	var prev []byte
	for i := 0; ; i++ {
		var key []byte
		safe := true // key needs no escaping
		if p := d.pos; n >= 0 && i < n && p < len(d.buf) && (d.buf[p]>>5 == majorBytes || d.buf[p]>>5 == majorText) && d.buf[p]&0x1f < 24 {
			if end := p + 1 + int(d.buf[p]&0x1f); end <= len(d.buf) && jsonSafe(d.buf[p+1:end]) {
				key = d.buf[p+1 : end]
				d.pos = end
			}
		}
		if key == nil {
			if !d.NextKey(i, n) {
				break
			}
			key = d.Key()
			safe = jsonSafe(key)
		}
		if i > 0 {
			out = append(out, ',')
		}
		m := member{start: len(out)}
		switch {
		case len(key) == 0:
		case aliases(d.buf, key):
			m.keyStart = int(uintptr(unsafe.Pointer(unsafe.SliceData(key))) - uintptr(unsafe.Pointer(unsafe.SliceData(d.buf))))
			m.keyEnd = m.keyStart + len(key)
		default: // an indefinite key, joined in scratch
			m.scratch, m.keyStart = true, len(d.keyScratch)
			d.keyScratch = append(d.keyScratch, key...)
			m.keyEnd = len(d.keyScratch)
		}
		if sorted && i > 0 {
			sorted = bytes.Compare(prev, key) < 0
		}
		prev = d.memberKey(m)
		if safe {
			out = append(out, '"')
			out = append(out, key...)
			out = append(out, '"', ':')
		} else {
			out = d.appendString(out, key)
			out = append(out, ':')
		}
		out = d.toJSON(out)
		m.end = len(out)
		d.members = append(d.members, m)
	}
	out = append(out, '}')
	if members := d.members[base:]; d.err == nil && !sorted {
		var dup int
		d.sorted, dup = d.sortMembers(out, start, members, d.sorted[:0])
		if dup >= 0 {
			d.DuplicateKey(string(d.memberKey(members[dup])))
		}
	}
	d.members = d.members[:base]
	d.keyScratch = d.keyScratch[:scratchBase]
	return out
}

// jsonSafe reports whether b needs no escaping in a JSON string as
// encoding/json writes it: printable ASCII other than ", \\, <, > and &.
func jsonSafe(b []byte) bool {
	for _, c := range b {
		var mask uint64 = jsonSafeLow
		if c >= 64 {
			mask = jsonSafeHigh
		}
		if c >= 0x80 || mask&(1<<(c&63)) == 0 {
			return false
		}
	}
	return true
}

// The bytes jsonSafe accepts, as bit sets of 0-63 and 64-127.
const (
	jsonSafeLow  = 0xafffffbb00000000
	jsonSafeHigh = 0xffffffffefffffff
)

// sortMembers rewrites the object that starts at start in buf with
// its members in the order of their keys' bytes, as encoding/json writes
// a map, through scratch, which it returns for reuse; dup is the index
// of a member whose key another member has too, or -1.
func (d *Decoder) sortMembers(buf []byte, start int, members []member, scratch []byte) (_ []byte, dup int) {
	dup = -1
	order := d.order[:0]
	mask := ^uint64(0) // what of a sort word is the index
	byKey := func(a, b uint64) int {
		return bytes.Compare(d.memberKey(members[a&mask]), d.memberKey(members[b&mask]))
	}
	if len(members) <= indexMask {
		mask = indexMask
		// Sort words holding the first six bytes of a key (zero-padded,
		// big-endian, so that comparing words compares bytes) over its
		// index: slices.Sort compares them inline, and most keys differ
		// early (managedFields: "f:spec", "f:status"). Keys sharing
		// their first six bytes are then ordered by their whole bytes.
		for i, m := range members {
			order = append(order, keyPrefix(d.memberKey(m))<<indexBits|uint64(i))
		}
		slices.Sort(order)
		for i := 0; i < len(order); {
			j := i + 1
			for j < len(order) && order[j]>>indexBits == order[i]>>indexBits {
				j++
			}
			if run := order[i:j]; len(run) > 1 {
				slices.SortFunc(run, byKey)
			}
			i = j
		}
	} else {
		for i := range members {
			order = append(order, uint64(i))
		}
		slices.SortFunc(order, byKey)
	}
	sorted := append(scratch, '{')
	for i, k := range order {
		if i > 0 {
			sorted = append(sorted, ',')
			// Keys with different prefixes differ.
			if dup < 0 && (mask != indexMask || order[i-1]>>indexBits == k>>indexBits) && byKey(order[i-1], k) == 0 {
				dup = int(k & mask)
			}
		}
		m := members[k&mask]
		sorted = append(sorted, buf[m.start:m.end]...)
	}
	sorted = append(sorted, '}')
	copy(buf[start:], sorted)
	d.order = order[:0]
	return sorted[:0], dup
}

// A sort word: a key's first six bytes over its member's index.
const (
	indexBits = 16
	indexMask = 1<<indexBits - 1
)

// keyPrefix returns key's first six bytes, zero-padded, as a big-endian
// number.
func keyPrefix(key []byte) uint64 {
	if len(key) >= 6 {
		return uint64(binary.BigEndian.Uint32(key))<<16 | uint64(binary.BigEndian.Uint16(key[4:]))
	}
	var w uint64
	for i, c := range key {
		w |= uint64(c) << (40 - 8*i)
	}
	return w
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
