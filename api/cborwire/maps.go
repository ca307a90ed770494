package cborwire

import "unsafe"

// Map reads a map into *m, each value through elem (which starts from
// V's zero value); null sets *m to nil. A map already present (a decode
// into a filled value) gets the new entries added. A key met twice is an
// error.
func Map[M ~map[K]V, K ~string, V any](d *Decoder, m *M, typ string, elem func(*Decoder, *V)) {
	if d.Null() {
		*m = nil
		return
	}
	n, ok := d.OpenMap(typ)
	if !ok {
		return
	}
	out := FreshMap(*m, n)
	for i := 0; d.NextKey(i, n); i++ {
		k := K(d.intern(d.Key()))
		var v V
		elem(d, &v)
		if d.err != nil {
			return
		}
		out[k] = v
		if len(out) != i+1 {
			d.DuplicateKey(string(k))
			return
		}
	}
	*m = MergeMap(*m, out)
}

// StringMap reads a map of strings (labels, annotations, selectors) into
// *m, sized to fit, keys and values interned; null sets *m to nil.
// Through a ReadOnly Table, equal maps (whatever the order of their
// keys) are one shared map. The map is made at the size the head gives
// (an indefinite map's pairs are gathered in scratch first), once, and
// no value escapes through a callback.
func StringMap[M ~map[K]V, K ~string, V ~string](d *Decoder, m *M) {
	k, ok := ReuseMap(d, m)
	if ok {
		return
	}
	if d.Null() {
		*m = nil
		return
	}
	n, ok := d.OpenMap("map[string]string")
	if !ok {
		return
	}
	if n >= 0 {
		// A definite length gives the size: the map is made at once and
		// filled as the pairs are read, with no scratch between (a
		// []string scratch costs a write barrier per string while the
		// collector runs, and clearing it as many again).
		out := FreshMap(*m, n)
		for i := 0; ; i++ {
			// A short ASCII key is read as a short value is, with no
			// NextKey and intern calls; the rest as any key.
			key, ok := "", false
			if i < n {
				key, ok = d.shortString()
			}
			if !ok {
				if !d.NextKey(i, n) {
					break
				}
				key = d.intern(d.Key())
			}
			v, ok := d.shortString()
			if !ok {
				if b, ok := d.stringBytes("string"); ok {
					v = d.intern(b)
				}
			}
			if d.err != nil {
				return
			}
			out[K(key)] = V(v)
			if len(out) != i+1 {
				d.DuplicateKey(key)
				return
			}
		}
		if d.err == nil {
			*m = MergeMap(*m, out)
			Keep(d, k, *m)
		}
		return
	}
	base := len(d.strs)
	for i := 0; d.NextKey(i, n); i++ {
		key := d.intern(d.Key())
		var v string
		if b, ok := d.stringBytes("string"); ok {
			v = d.intern(b)
		}
		d.strs = append(d.strs, key, v)
	}
	kv := d.strs[base:]
	if d.err == nil {
		out := FreshMap(*m, len(kv)/2)
		for i := 0; i < len(kv); i += 2 {
			out[K(kv[i])] = V(kv[i+1])
			if len(out) != i/2+1 {
				d.DuplicateKey(kv[i])
				break
			}
		}
		if d.err == nil {
			*m = MergeMap(*m, out)
			Keep(d, k, *m)
		}
	}
	clear(kv)
	d.strs = d.strs[:base]
}

// MapCap is the size hint to make a map with for a map whose head says n
// entries (-1: an indefinite length), bounded as a head may claim more
// entries than follow.
func MapCap(n int) int { return min(max(n, 0), maxMapHint) }

// maxPrealloc bounds the bytes a slice is made with from a head's count:
// a head may claim as many elements as there are bytes left, and an
// element may be far larger than the byte it takes at least.
const maxPrealloc = 64 << 10

// firstPrealloc bounds the bytes of the slice SliceCap sizes for a count
// it does not trust: past it, Grow sizes the slice from the bytes per
// element read so far.
const firstPrealloc = 8 << 10

// SliceCap is the capacity to make a []E with for an array whose head
// says n elements: n, when n elements take at most the bytes Grow trusts
// an estimate with (twice the input's length and maxPrealloc), else n up
// to firstPrealloc bytes of elements, which Grow grows as elements
// actually arrive. A slice made at n is never replaced: one made at the
// first bound and then grown left the first as garbage (for a list of
// Argo CD Applications, a fifth of the bytes a decode allocated).
func SliceCap[E any](d *Decoder, n int) int {
	var e E
	size := max(int(unsafe.Sizeof(e)), 1)
	if n <= 0 {
		return 0
	}
	if n <= (2*len(d.buf)+maxPrealloc)/size {
		return n
	}
	return min(n, max(firstPrealloc/size, 1))
}

// Grow returns s with one more element (zero, or what a slice decoded
// into held there), for element len(s) of an array of n elements (-1:
// indefinite) whose elements start at offset at. When s is full it
// grows to the elements still to come, estimated from the input left at
// the bytes per element read so far and bounded by n, so that a list
// of 1,000 large items is made once more, not in a run of doublings
// after SliceCap's first bound. The estimate is trusted up to twice the
// input's length in bytes of elements: beyond, it grows as append does.
func Grow[S ~[]E, E any](d *Decoder, s S, n, at int) S {
	have := len(s)
	if have < cap(s) {
		return s[:have+1]
	}
	if n < 0 || have == 0 || n <= have {
		return append(s, *new(E))
	}
	var e E
	size := max(int(unsafe.Sizeof(e)), 1)
	per := max((d.pos-at)/have, 1)
	want := min(n, have+(len(d.buf)-d.pos)/per+1)
	if want <= have || want > (2*len(d.buf)+maxPrealloc)/size {
		return append(s, *new(E))
	}
	out := make(S, have+1, want)
	copy(out, s)
	return out
}
