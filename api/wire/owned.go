package wire

import "maps"

// A ReadOnly Decoder's values may be shared with other objects from the
// moment they are decoded (see SharedJSON): an object that holds a field
// twice (a duplicate key, which encoding/json merges into the value
// already decoded) must not merge into a value other objects hold. The
// Own functions give a decode a copy of the value already in the field
// to write into, one level deep: the decode of each nested field makes
// its own copy in turn before writing.

// OwnSlice returns s, or, when d is ReadOnly, a copy of s up to its
// capacity (the elements a decode may write into).
func OwnSlice[S ~[]E, E any](d *Decoder, s S) S {
	if d == nil || !d.ReadOnly || cap(s) == 0 {
		return s
	}
	c := make(S, len(s), cap(s))
	copy(c[:cap(s)], s[:cap(s)])
	return c
}

// OwnMap returns m, or, when d is ReadOnly, a copy of it.
func OwnMap[M ~map[K]V, K comparable, V any](d *Decoder, m M) M {
	if d == nil || !d.ReadOnly || m == nil {
		return m
	}
	return maps.Clone(m)
}

// OwnPtr returns p, or, when d is ReadOnly, a pointer to a copy of *p.
func OwnPtr[T any](d *Decoder, p *T) *T {
	if d == nil || !d.ReadOnly || p == nil {
		return p
	}
	v := *p
	return &v
}
