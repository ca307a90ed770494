package unstructured

import (
	"encoding/json"
	"math"
)

// ThawBeside rebuilds the object as Thaw does, but shares with like
// (typically the object's next version) every value equal to its own:
// an update usually changes a few fields, and the rest of the old
// version is then taken from the new one instead of being built again.
// The result shares maps and slices with like, so both must be treated
// as read-only; Thaw gives an object of the caller's own.
func (f Frozen) ThawBeside(like *Unstructured) *Unstructured {
	if f.s == "" || like == nil {
		return f.Thaw()
	}
	_, _, _, body := f.header()
	r := reader{s: f.s, i: body}
	if body < len(f.s) && f.s[body] == tagObject {
		// The root and its metadata are not compared whole first: an
		// update's versions always differ there (resourceVersion), and
		// comparing would read them (managedFields and all) once more
		// than building does.
		r.i++
		return &Unstructured{Object: r.objectBeside(like.Object, "metadata")}
	}
	m, _ := r.valueBeside(like.Object).(map[string]any)
	return &Unstructured{Object: m}
}

// valueBeside reads one value, returning like itself when it is equal.
func (r *reader) valueBeside(like any) any {
	start := r.i
	if r.matches(like) {
		return like
	}
	r.i = start
	if r.i >= len(r.s) {
		return nil
	}
	switch r.s[r.i] {
	case tagObject:
		r.i++
		return r.objectBeside(like, "")
	case tagArray:
		la, _ := like.([]any)
		r.i++
		n := r.count()
		a := make([]any, n)
		for i := range a {
			var e any
			if i < len(la) {
				e = la[i]
			}
			a[i] = r.valueBeside(e)
		}
		return a
	}
	return r.value()
}

// objectBeside builds an object (its tag read), each entry through
// valueBeside with like's entry of the same key; the entry named build,
// when an object, is built the same way without being compared first.
func (r *reader) objectBeside(like any, build string) map[string]any {
	lm, _ := like.(map[string]any)
	n := r.count()
	m := make(map[string]any, n)
	for range n {
		k := r.str()
		if build != "" && k == build && r.i < len(r.s) && r.s[r.i] == tagObject {
			r.i++
			m[k] = r.objectBeside(lm[k], "")
			continue
		}
		m[k] = r.valueBeside(lm[k])
	}
	return m
}

// matches reads one value and reports whether it equals like: the same
// type and the same contents, as Thaw would build it.
func (r *reader) matches(like any) bool {
	if r.i >= len(r.s) {
		return false
	}
	tag := r.s[r.i]
	r.i++
	switch tag {
	case tagNull:
		return like == nil
	case tagFalse, tagTrue:
		b, ok := like.(bool)
		return ok && b == (tag == tagTrue)
	case tagInt64:
		v := unzigzag(r.uvarint())
		x, ok := like.(int64)
		return ok && x == v
	case tagInt:
		v := int(unzigzag(r.uvarint()))
		x, ok := like.(int)
		return ok && x == v
	case tagFloat64:
		if len(r.s)-r.i < 8 {
			r.i = len(r.s)
			return false
		}
		var bits uint64
		for k := range 8 {
			bits |= uint64(r.s[r.i+k]) << (8 * k)
		}
		r.i += 8
		x, ok := like.(float64)
		return ok && math.Float64bits(x) == bits
	case tagString, tagStringRef:
		var s string
		if tag == tagString {
			s = r.str()
		} else {
			s = r.stringRef(r.i - 1)
		}
		x, ok := like.(string)
		return ok && x == s
	case tagNumber:
		s := r.str()
		x, ok := like.(json.Number)
		return ok && string(x) == s
	case tagNilObject:
		m, ok := like.(map[string]any)
		return ok && m == nil
	case tagNilArray:
		a, ok := like.([]any)
		return ok && a == nil
	case tagObject:
		m, ok := like.(map[string]any)
		n := r.count()
		equal := ok && m != nil && len(m) == n
		for range n {
			k := r.str()
			var e any
			var has bool
			if equal {
				e, has = m[k]
			}
			// Read on to the value's end even once unequal.
			if !r.matches(e) || !has {
				equal = false
			}
		}
		return equal
	case tagArray:
		a, ok := like.([]any)
		n := r.count()
		equal := ok && a != nil && len(a) == n
		for i := range n {
			var e any
			if equal {
				e = a[i]
			}
			if !r.matches(e) {
				equal = false
			}
		}
		return equal
	}
	return false
}
