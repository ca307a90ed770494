package unstructured

import (
	"github.com/kubewire/kubewire/api/jsonwire"
)

// EncodeJSON appends u as MarshalJSON writes it, without reflection for
// the values decoding gives (maps, slices, strings, int64 and float64
// numbers, bools); a nil u or Object is null.
func (u *Unstructured) EncodeJSON(e *jsonwire.Encoder) error {
	if u == nil {
		e.Null()
		return e.Err()
	}
	e.Any(u.Object)
	return e.Err()
}

// EncodeJSON appends l as MarshalJSON writes it: the members of l.Object
// and "items", in key order; a nil l is null.
func (l *UnstructuredList) EncodeJSON(e *jsonwire.Encoder) error {
	if l == nil {
		e.Null()
		return e.Err()
	}
	if !e.Enter() {
		return e.Err()
	}
	var small [16]string
	keys := jsonwire.SortedKeys(l.Object, small[:0])
	e.Byte('{')
	n, wroteItems := 0, false
	for _, k := range keys {
		if !wroteItems && k >= "items" {
			l.encodeItems(e, n)
			n, wroteItems = n+1, true
			if k == "items" {
				continue // l.Items replaces it
			}
		}
		if n > 0 {
			e.Byte(',')
		}
		e.String(k)
		e.Byte(':')
		e.Any(l.Object[k])
		n++
	}
	if !wroteItems {
		l.encodeItems(e, n)
	}
	e.Byte('}')
	e.Leave()
	return e.Err()
}

// encodeItems writes the "items" member, the n-th.
func (l *UnstructuredList) encodeItems(e *jsonwire.Encoder, n int) {
	if n > 0 {
		e.Byte(',')
	}
	e.Literal(`"items":[`)
	for i := range l.Items {
		if i > 0 {
			e.Byte(',')
		}
		e.Any(l.Items[i].Object)
	}
	e.Byte(']')
}
