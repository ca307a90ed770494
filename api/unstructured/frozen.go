package unstructured

import (
	"encoding/binary"
	"encoding/json"
	"math"
)

// Frozen is an object held in a compact, immutable form: one string
// encoding its JSON tree (a type tag per value, varint lengths and
// counts, keys and strings inline), preceded by the metadata an
// informer's cache reads without rebuilding the object (name,
// resourceVersion, uid). A cached object costs one allocation the size
// of its encoding instead of a Go map per JSON object and a box per
// value: a map of 1-8 entries costs 336 bytes however little it holds.
//
// Thaw rebuilds the object: every key and string of the result is a
// substring of the encoding (nothing is copied or checked again), so
// thawing allocates only maps, slices and boxes. The zero Frozen holds
// no object.
type Frozen struct{ s string }

// Value tags of the encoding. Only what a decoder produces (and the few
// types callers put in objects by hand) has one; see Freeze.
const (
	tagNull      = iota // nil
	tagFalse            // false
	tagTrue             // true
	tagInt64            // int64: zigzag varint
	tagFloat64          // float64: 8 bytes, little-endian bits
	tagString           // string: varint length, bytes
	tagObject           // map[string]any: varint count, then key (length, bytes) and value pairs
	tagArray            // []any: varint count, then values
	tagNilObject        // map[string]any(nil)
	tagNilArray         // []any(nil)
	tagNumber           // json.Number: as a string
	tagInt              // int: zigzag varint
)

// Freeze encodes obj, appending to buf[:0] as scratch space (which it
// returns, grown, for the next call). ok is false when obj holds a value
// no decoder produces (other than int, json.Number and nil maps or
// slices), such as a []string a caller stored: such an object has no
// frozen form and must be kept as it is. A nil obj freezes as an object
// whose Thaw has a nil Object. A string value repeated within obj is
// written once (see tagStringRef).
func Freeze(obj *Unstructured, buf []byte) (f Frozen, scratch []byte, ok bool) {
	var refs refTable
	return freeze(obj, buf, &refs)
}

// freeze is Freeze; a nil refs writes every string in full.
func freeze(obj *Unstructured, buf []byte, refs *refTable) (f Frozen, scratch []byte, ok bool) {
	buf = buf[:0]
	if obj == nil {
		obj = &Unstructured{}
	}
	m := obj.Object
	buf = appendString(buf, obj.GetName())
	buf = appendString(buf, obj.GetResourceVersion())
	buf = appendString(buf, obj.str("metadata", "uid"))
	if m == nil {
		buf = append(buf, tagNilObject)
	} else if buf, ok = refs.appendValue(buf, m); !ok {
		return Frozen{}, buf, false
	}
	return Frozen{string(buf)}, buf, true
}

func appendString(buf []byte, s string) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

func (t *refTable) appendValue(buf []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case nil:
		return append(buf, tagNull), true
	case bool:
		if v {
			return append(buf, tagTrue), true
		}
		return append(buf, tagFalse), true
	case int64:
		return binary.AppendUvarint(append(buf, tagInt64), zigzag(v)), true
	case float64:
		return binary.LittleEndian.AppendUint64(append(buf, tagFloat64), math.Float64bits(v)), true
	case string:
		return t.appendStringValue(buf, v), true
	case map[string]any:
		if v == nil {
			return append(buf, tagNilObject), true
		}
		buf = binary.AppendUvarint(append(buf, tagObject), uint64(len(v)))
		for k, e := range v {
			var ok bool
			if buf, ok = t.appendValue(appendString(buf, k), e); !ok {
				return buf, false
			}
		}
		return buf, true
	case []any:
		if v == nil {
			return append(buf, tagNilArray), true
		}
		buf = binary.AppendUvarint(append(buf, tagArray), uint64(len(v)))
		for _, e := range v {
			var ok bool
			if buf, ok = t.appendValue(buf, e); !ok {
				return buf, false
			}
		}
		return buf, true
	case json.Number:
		return appendString(append(buf, tagNumber), string(v)), true
	case int:
		return binary.AppendUvarint(append(buf, tagInt), zigzag(int64(v))), true
	}
	return buf, false
}

// header returns the three metadata strings and the offset of the tree.
func (f Frozen) header() (name, rv, uid string, body int) {
	r := reader{s: f.s}
	name, rv, uid = r.str(), r.str(), r.str()
	return name, rv, uid, r.i
}

// Name returns the object's metadata.name, without thawing it.
func (f Frozen) Name() string {
	r := reader{s: f.s}
	return r.str()
}

// ResourceVersion returns the object's metadata.resourceVersion.
func (f Frozen) ResourceVersion() string {
	_, rv, _, _ := f.header()
	return rv
}

// UID returns the object's metadata.uid.
func (f Frozen) UID() string {
	_, _, uid, _ := f.header()
	return uid
}

// Size is the length of the encoding in bytes.
func (f Frozen) Size() int { return len(f.s) }

// IsZero reports whether f holds no object.
func (f Frozen) IsZero() bool { return f.s == "" }

// Thaw rebuilds the object: a new Unstructured whose maps and slices are
// the caller's, deep-equal to the one frozen. The zero Frozen thaws to
// an Unstructured with a nil Object.
func (f Frozen) Thaw() *Unstructured {
	if f.s == "" {
		return &Unstructured{}
	}
	_, _, _, body := f.header()
	r := reader{s: f.s, i: body}
	m, _ := r.value().(map[string]any)
	return &Unstructured{Object: m}
}

// reader reads an encoding Freeze wrote. It never reads past the end: a
// truncated encoding (which Freeze never writes) reads as zero values.
type reader struct {
	s string
	i int
}

func (r *reader) uvarint() uint64 {
	var x uint64
	for shift := uint(0); r.i < len(r.s) && shift < 64; shift += 7 {
		b := r.s[r.i]
		r.i++
		x |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return x
		}
	}
	return x
}

// count reads a length or count, bounded by the bytes left (every
// element takes at least one).
func (r *reader) count() int {
	n := r.uvarint()
	if left := uint64(len(r.s) - r.i); n > left {
		return int(left)
	}
	return int(n)
}

func (r *reader) str() string {
	n := r.count()
	s := r.s[r.i : r.i+n]
	r.i += n
	return s
}

func (r *reader) value() any {
	if r.i >= len(r.s) {
		return nil
	}
	tag := r.s[r.i]
	r.i++
	switch tag {
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagInt64:
		return unzigzag(r.uvarint())
	case tagFloat64:
		if len(r.s)-r.i < 8 {
			r.i = len(r.s)
			return 0.0
		}
		var bits uint64
		for k := range 8 {
			bits |= uint64(r.s[r.i+k]) << (8 * k)
		}
		r.i += 8
		return math.Float64frombits(bits)
	case tagString:
		return r.str()
	case tagStringRef:
		return r.stringRef(r.i - 1)
	case tagObject:
		n := r.count()
		m := make(map[string]any, n)
		for range n {
			k := r.str()
			m[k] = r.value()
		}
		return m
	case tagArray:
		n := r.count()
		a := make([]any, n)
		for i := range a {
			a[i] = r.value()
		}
		return a
	case tagNilObject:
		return map[string]any(nil)
	case tagNilArray:
		return []any(nil)
	case tagNumber:
		return json.Number(r.str())
	case tagInt:
		return int(unzigzag(r.uvarint()))
	}
	return nil
}
