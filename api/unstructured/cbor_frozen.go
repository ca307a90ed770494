package unstructured

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"unsafe"

	"github.com/kubewire/kubewire/api/cborwire"
)

// CBORFreezer reads objects from CBOR straight into their frozen form:
// Freeze of what DecodeCBOR would read, without building the maps,
// slices and boxes in between (a frozen cache keeps only the encoding).
// It checks what DecodeCBOR checks (well-formed items, UTF-8 text,
// string keys, duplicate keys, nesting depth, NaN and infinities) and
// keeps its scratch space between calls. The zero CBORFreezer is ready;
// it is not safe for concurrent use.
type CBORFreezer struct {
	tree  []byte   // the encoding of the tree, written first
	keys  [][2]int // the key spans (in tree) of the maps being read
	slots []int32  // duplicate's table of indexes into the spans, plus one
	seed  maphash.Seed

	name, rv, uid []byte // metadata's strings, spans of tree copied out
}

// Freeze reads one object (a CBOR map, or null) from d. On an error,
// which d records as well, the Frozen is zero.
func (z *CBORFreezer) Freeze(d *cborwire.Decoder) (Frozen, error) {
	z.tree, z.keys = z.tree[:0], z.keys[:0]
	z.name, z.rv, z.uid = z.name[:0], z.rv[:0], z.uid[:0]
	if d.Null() {
		f, _, _ := Freeze(nil, nil)
		return f, d.Err()
	}
	if d.NextKind() != cborwire.KindMap {
		d.Fail("map[string]any")
		return Frozen{}, d.Err()
	}
	z.value(d, 0)
	if d.Err() != nil {
		return Frozen{}, d.Err()
	}
	// Made at its exact size, as Freeze's string(buf) is: slack would put
	// a small object in a larger size class for as long as it is cached.
	size := stringSize(z.name) + stringSize(z.rv) + stringSize(z.uid) + len(z.tree)
	out := make([]byte, 0, size)
	out = appendString(out, string(z.name))
	out = appendString(out, string(z.rv))
	out = appendString(out, string(z.uid))
	out = append(out, z.tree...)
	// out is never written again: the Frozen's string is its bytes.
	return Frozen{unsafe.String(unsafe.SliceData(out), len(out))}, nil
}

// stringSize is the length of appendString's encoding of s.
func stringSize(s []byte) int {
	var head [binary.MaxVarintLen64]byte
	return len(binary.AppendUvarint(head[:0], uint64(len(s)))) + len(s)
}

// Where a value sits, for picking out the header's strings.
const (
	atTop = iota
	atMetadata
	atOther
)

// value writes the item at d with its tag; where is where it sits.
func (z *CBORFreezer) value(d *cborwire.Decoder, where int) {
	switch d.NextKind() {
	case cborwire.KindNumber:
		i, f, isInt, ok := d.Number()
		switch {
		case !ok:
		case isInt:
			z.tree = binary.AppendUvarint(append(z.tree, tagInt64), zigzag(i))
		default:
			z.tree = binary.LittleEndian.AppendUint64(append(z.tree, tagFloat64), math.Float64bits(f))
		}
	case cborwire.KindString:
		if b, ok := d.StringBytes("string"); ok {
			z.tree = binary.AppendUvarint(append(z.tree, tagString), uint64(len(b)))
			z.tree = append(z.tree, b...)
		}
	case cborwire.KindArray:
		n, ok := d.OpenArray("[]any")
		if !ok {
			return
		}
		if n >= 0 {
			z.tree = binary.AppendUvarint(append(z.tree, tagArray), uint64(n))
			for i := 0; d.NextElem(i, n); i++ {
				z.value(d, atOther)
			}
			return
		}
		// An indefinite array: its count goes before its elements.
		at := len(z.tree)
		count := 0
		for i := 0; d.NextElem(i, n); i++ {
			z.value(d, atOther)
			count++
		}
		z.insertCount(at, tagArray, count)
	case cborwire.KindMap:
		z.object(d, where)
	case cborwire.KindBool:
		var b bool
		cborwire.Bool(d, &b)
		if b {
			z.tree = append(z.tree, tagTrue)
		} else {
			z.tree = append(z.tree, tagFalse)
		}
	case cborwire.KindNull:
		d.Null()
		z.tree = append(z.tree, tagNull)
	default:
		d.Skip() // records the error
	}
}

// object writes a map; where is atTop for the object itself, atMetadata
// for its metadata.
func (z *CBORFreezer) object(d *cborwire.Decoder, where int) {
	n, ok := d.OpenMap("map[string]any")
	if !ok {
		return
	}
	at := len(z.tree)
	if n >= 0 {
		z.tree = binary.AppendUvarint(append(z.tree, tagObject), uint64(n))
	}
	base := len(z.keys)
	defer func() { z.keys = z.keys[:base] }()
	count := 0
	for i := 0; d.NextKey(i, n); i++ {
		k := d.Key()
		z.tree = binary.AppendUvarint(z.tree, uint64(len(k)))
		start := len(z.tree)
		z.tree = append(z.tree, k...)
		z.keys = append(z.keys, [2]int{start, len(z.tree)})
		inner := atOther
		if where == atTop && bytes.Equal(k, []byte("metadata")) {
			inner = atMetadata
		}
		valueAt := len(z.tree)
		z.value(d, inner)
		if where == atMetadata && d.Err() == nil {
			z.header(z.tree[start:valueAt], z.tree[valueAt:])
		}
		count++
	}
	if d.Err() != nil {
		return
	}
	if key, dup := z.duplicate(z.keys[base:]); dup {
		d.SetErr(&listError{msg: "map with a duplicate key " + strconv.Quote(string(key))})
		return
	}
	if n < 0 {
		z.insertCount(at, tagObject, count)
	}
}

// header keeps metadata's name, resourceVersion and uid when they are
// strings (as GetName and the others read them).
func (z *CBORFreezer) header(key, value []byte) {
	if len(value) == 0 || value[0] != tagString {
		return
	}
	n, w := binary.Uvarint(value[1:])
	if w <= 0 || n > uint64(len(value)-1-w) {
		return
	}
	s := value[1+w : 1+w+int(n)]
	switch string(key) {
	case "name":
		z.name = append(z.name[:0], s...)
	case "resourceVersion":
		z.rv = append(z.rv[:0], s...)
	case "uid":
		z.uid = append(z.uid[:0], s...)
	}
}

// insertCount puts a tag and count at at, before the values written
// since (an indefinite array or map learns its count at its end).
func (z *CBORFreezer) insertCount(at int, tag byte, count int) {
	head := binary.AppendUvarint([]byte{tag}, uint64(count))
	z.tree = slices.Insert(z.tree, at, head...)
	// The key spans after at moved.
	for i := range z.keys {
		if z.keys[i][0] >= at {
			z.keys[i][0] += len(head)
			z.keys[i][1] += len(head)
		}
	}
}

// duplicate reports whether two of the spans hold equal keys, and the
// key: pairwise
// for a few keys, else through an open-addressing table of key hashes
// (no key is copied or allocated).
func (z *CBORFreezer) duplicate(spans [][2]int) ([]byte, bool) {
	if len(spans) <= 8 {
		for i := 1; i < len(spans); i++ {
			a := z.tree[spans[i][0]:spans[i][1]]
			for _, s := range spans[:i] {
				if bytes.Equal(a, z.tree[s[0]:s[1]]) {
					return a, true
				}
			}
		}
		return nil, false
	}
	if z.seed == (maphash.Seed{}) {
		z.seed = maphash.MakeSeed()
	}
	size := 16
	for size < 2*len(spans) {
		size *= 2
	}
	z.slots = append(z.slots[:0], make([]int32, size)...)
	for i, s := range spans {
		k := z.tree[s[0]:s[1]]
		h := maphash.Bytes(z.seed, k)
		for j := int(h) & (size - 1); ; j = (j + 1) & (size - 1) {
			at := z.slots[j]
			if at == 0 {
				z.slots[j] = int32(i + 1)
				break
			}
			o := spans[at-1]
			if bytes.Equal(k, z.tree[o[0]:o[1]]) {
				return k, true
			}
		}
	}
	return nil, false
}
