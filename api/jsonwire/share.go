package jsonwire

import "github.com/kubewire/kubewire/api/wire"

// Sharing in typed decoders. Through a ReadOnly Table (an informer's
// cache), generated decoders give a slice, map or pointer field the
// value decoded earlier from the same bytes, rather than a copy: the
// templates of an Argo Workflow, the conditions and owner references
// Pods of one ReplicaSet have alike, the pointers of a Crossplane
// resource's parameters. The objects share it, which is safe only
// because cached objects are never modified (DeepCopy first).
//
//	if k, ok := jsonwire.Reuse(d, &m.Ports); !ok {
//		... decode m.Ports ...
//		jsonwire.Keep(d, k, m.Ports)
//	}

// maxReusedSpan bounds the JSON of a value a typed decoder offers for
// sharing; larger values rarely repeat whole, and each costs a scan and a
// hash before it is decoded.
const maxReusedSpan = 32 << 10

// ReuseSlice sets *p to the slice decoded earlier, through the same
// ReadOnly Table, from the bytes of the value at the decoder's position,
// consumes them, and reports true. Otherwise it reports false, consuming
// nothing, with the key Keep stores the value under once decoded (the
// zero key when the Table does not share). It offers only values that
// would replace *p whole: a slice without capacity, and not null; a
// slice already decoded (a duplicate field) is copied first, since the
// decode merges into it and it may be shared.
func ReuseSlice[S ~[]E, E any](d *Decoder, p *S) (wire.JSONKey, bool) {
	if cap(*p) != 0 { // a duplicate field: the decode merges into a copy
		*p = wire.OwnSlice(d.Table, *p)
		return wire.JSONKey{}, false
	}
	return reuse(d, p)
}

// ReuseMap is ReuseSlice for a map field, which must be nil.
func ReuseMap[M ~map[K]V, K comparable, V any](d *Decoder, p *M) (wire.JSONKey, bool) {
	if *p != nil {
		*p = wire.OwnMap(d.Table, *p)
		return wire.JSONKey{}, false
	}
	return reuse(d, p)
}

// ReusePtr is ReuseSlice for a pointer field, which must be nil: the
// pointer itself is shared, whatever the JSON of its target.
func ReusePtr[T any](d *Decoder, p **T) (wire.JSONKey, bool) {
	if *p != nil {
		*p = wire.OwnPtr(d.Table, *p)
		return wire.JSONKey{}, false
	}
	return reuse(d, p)
}

func reuse[T any](d *Decoder, p *T) (wire.JSONKey, bool) {
	if d.Table == nil || !d.Table.ReadOnly || d.err != nil {
		return wire.JSONKey{}, false
	}
	c := d.peek()
	if c == 'n' || c == 0 {
		return wire.JSONKey{}, false
	}
	start := d.pos
	end, elems := d.scanValue(start, maxReusedSpan)
	if end < 0 {
		return wire.JSONKey{}, false
	}
	v, key, found := d.Table.SharedJSON(d.buf[start:end])
	if found {
		if t, ok := v.(T); ok {
			*p = t
			d.pos = end
			return wire.JSONKey{}, true
		}
	}
	if c == '[' || c == '{' {
		d.counted, d.count = start+1, elems // for Count
	}
	return key, false
}

// Keep stores v, decoded from the value a Reuse function returned key
// for, for later decodes of the same bytes. It does nothing after an
// error.
func Keep[T any](d *Decoder, key wire.JSONKey, v T) {
	if d.err == nil {
		d.Table.ShareJSON(key, v)
	}
}

// Count returns the number of elements of the array (or members of the
// object) just opened by OpenArray (OpenObject), looking ahead without
// consuming anything, so that a decoder allocates a slice or map of the
// right size at once: no growth, no spare capacity kept. It returns 0
// for an empty or malformed value (the decode then reports the error).
func (d *Decoder) Count() int {
	open := d.pos - 1
	if open >= 0 && open+1 == d.counted {
		d.counted = 0
		return d.count
	}
	if open < 0 || d.buf[open] != '[' && d.buf[open] != '{' {
		return 0
	}
	if d.buf[open] == '[' {
		return d.countArray(open)
	}
	_, n := d.scanValue(open, len(d.buf))
	return n
}

// scanValue returns the end of the value starting at start (which is
// not whitespace), or -1 when it is malformed or longer than limit, and
// for an array the number of its elements. It does not validate: what
// it finds is either decoded afterwards, which validates it, or equal to
// bytes decoded before.
func (d *Decoder) scanValue(start, limit int) (end, elems int) {
	b := d.buf
	if start >= len(b) {
		return -1, 0
	}
	stop := min(len(b), start+limit)
	switch b[start] {
	case '"':
		for i := start + 1; i < stop; i++ {
			switch b[i] {
			case '\\':
				i++
			case '"':
				return i + 1, 0
			}
		}
		return -1, 0
	case '{', '[':
		depth, nonEmpty := 0, false
		for i := start; i < stop; i++ {
			switch c := b[i]; c {
			case '"':
				for i++; i < stop && b[i] != '"'; i++ {
					if b[i] == '\\' {
						i++
					}
				}
				nonEmpty = true
			case '{', '[':
				if depth == 1 {
					nonEmpty = true
				}
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					if nonEmpty {
						elems++
					}
					return i + 1, elems
				}
			case ',':
				if depth == 1 {
					elems++
				}
			case ' ', '\t', '\n', '\r':
			default:
				if depth == 1 {
					nonEmpty = true
				}
			}
		}
		return -1, 0
	}
	// A literal or a number.
	i := start
	for i < stop {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i, 0
		}
		i++
	}
	if i == len(b) {
		return i, 0
	}
	return -1, 0
}
