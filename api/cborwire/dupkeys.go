package cborwire

import (
	"slices"
	"strconv"
	"unsafe"
)

// Duplicate map keys. kube-apiserver's CBOR decoder refuses a map that
// holds a key twice, where the JSON decoders keep the last value; every
// decoder here refuses it too, typed and dynamic alike, so that a
// hostile or broken server gets one answer whichever decoder reads the
// object.

// DuplicateKey records that the map being read holds key twice: a
// SyntaxError, which matches wire.ErrMalformed, naming the key.
func (d *Decoder) DuplicateKey(key string) {
	if d.err == nil {
		d.err = &SyntaxError{Offset: int64(d.pos), Msg: "map with a duplicate key " + strconv.Quote(key)}
	}
	d.pos = len(d.buf)
}

// FreshMap returns a new map to read a map of n entries (-1:
// indefinite) into, for a field holding m. Entries are counted as they
// are inserted (a duplicate key leaves the length behind the count),
// which a map holding entries already would defeat; MergeMap adds them
// to m afterwards.
func FreshMap[M ~map[K]V, K comparable, V any](m M, n int) M {
	return make(M, MapCap(n))
}

// MergeMap returns the field's new value after FreshMap's map fresh was
// read for it: fresh when m is nil, else m with fresh's entries added (a
// decode into a filled value merges, as the JSON decoders do).
func MergeMap[M ~map[K]V, K comparable, V any](m, fresh M) M {
	if m == nil {
		return fresh
	}
	for k, v := range fresh {
		m[k] = v
	}
	return m
}

// UnknownKeys remembers the keys of a struct's map that name no field,
// so that one of them met twice is refused as a known field met twice
// is. The zero value is empty; it allocates only for a second unknown
// key in the same map.
type UnknownKeys struct {
	first string // the first unknown key; may alias the input
	seen  bool
	more  map[string]struct{}
}

// SkipUnknown skips the value of a key NextField (or NextKey) read that
// names no field of the struct whose map is being read, after checking
// the key as SkipField does, and refuses the key if u saw it already in
// this map.
func (d *Decoder) SkipUnknown(u *UnknownKeys) {
	if d.err != nil || !d.checkFieldKey() {
		return
	}
	// The key is checked before the value is read, which moves Key.
	d.noteKey(u)
	d.skipChecked()
}

// noteKey records the current key in u, refusing it if u holds it.
func (d *Decoder) noteKey(u *UnknownKeys) {
	key := d.Key()
	switch {
	case !u.seen:
		u.seen, u.first = true, d.keyString(key)
	case u.first == string(key):
		d.DuplicateKey(string(key))
	default:
		if u.more == nil {
			u.more = make(map[string]struct{}, 4)
		} else if _, dup := u.more[string(key)]; dup {
			d.DuplicateKey(string(key))
			return
		}
		u.more[d.keyString(key)] = struct{}{}
	}
}

// skipChecked reads and discards one item as Skip does, and refuses a
// map in it holding a key twice, as the dynamic decoders would: the
// value of a key naming no field is skipped, where Unstructured reads
// it whole. It is for values nothing reads, rare in typed decodes.
func (d *Decoder) skipChecked() {
	d.skipTags()
	if d.err != nil || d.pos >= len(d.buf) {
		d.Skip()
		return
	}
	switch d.buf[d.pos] >> 5 {
	case majorArray:
		n, ok := d.OpenArray("array")
		for i := 0; ok && d.NextElem(i, n); i++ {
			d.skipChecked()
		}
	case majorMap:
		n, ok := d.OpenMap("map")
		// The keys go on a stack the maps inside take back before
		// this one reads its next key; sorted once at the end, equal
		// keys are neighbours.
		base := len(d.skipKeys)
		for i := 0; ok && d.NextKey(i, n); i++ {
			d.skipKeys = append(d.skipKeys, d.keyString(d.Key()))
			d.skipChecked()
		}
		if keys := d.skipKeys[base:]; d.err == nil && len(keys) > 1 {
			slices.Sort(keys)
			for i := 1; i < len(keys); i++ {
				if keys[i] == keys[i-1] {
					d.DuplicateKey(keys[i])
					break
				}
			}
		}
		clear(d.skipKeys[base:])
		d.skipKeys = d.skipKeys[:base]
	default:
		d.Skip()
	}
}

// keyString returns key, which Key returned, as a string that stays
// valid for the decode: a view of the input when the key lies in it,
// else a copy (a joined key lives in scratch).
func (d *Decoder) keyString(key []byte) string {
	if len(key) == 0 {
		return ""
	}
	if d.keyJoined == nil {
		return unsafe.String(unsafe.SliceData(key), len(key))
	}
	return string(key)
}
