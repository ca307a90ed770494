package cborwire

import "unsafe"

// Map reads a map into *m, each value through elem (which starts from
// V's zero value); null sets *m to nil. A map already present (a
// duplicate field) gets the new entries added.
func Map[M ~map[K]V, K ~string, V any](d *Decoder, m *M, typ string, elem func(*Decoder, *V)) {
	if d.Null() {
		*m = nil
		return
	}
	n, ok := d.OpenMap(typ)
	if !ok {
		return
	}
	if *m == nil {
		*m = make(M, min(max(n, 0), maxMapHint))
	}
	for i := 0; d.NextKey(i, n); i++ {
		k := K(d.intern(d.key))
		var v V
		elem(d, &v)
		if d.err != nil {
			return
		}
		(*m)[k] = v
	}
}

// StringMap reads a map of strings (labels, annotations, selectors) into
// *m, sized to fit, keys and values interned; null sets *m to nil.
// Through a ReadOnly Table, equal maps (whatever the order of their
// keys) are one shared map.
func StringMap[M ~map[K]V, K ~string, V ~string](d *Decoder, m *M) {
	if k, ok := ReuseMap(d, m); !ok {
		Map(d, m, "map[string]string", func(d *Decoder, v *V) { String(d, v) })
		Keep(d, k, *m)
	}
}

// maxPrealloc bounds the bytes a slice is made with from a head's count:
// a head may claim as many elements as there are bytes left, and an
// element may be far larger than the byte it takes at least.
const maxPrealloc = 64 << 10

// SliceCap is the capacity to make a []E with for an array whose head
// says n elements: n, up to maxPrealloc bytes of elements; appends grow
// it past that as elements actually arrive.
func SliceCap[E any](n int) int {
	var e E
	size := max(int(unsafe.Sizeof(e)), 1)
	return max(min(n, maxPrealloc/size), 0)
}
