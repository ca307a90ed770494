package wire

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
)

// Interning limits. Strings longer than maxInternLen are rarely repeated
// (annotations holding JSON, for example); byte slices up to
// maxInternBytes are (managedFields). The string table is a two-way
// set-associative cache of at most internSlots entries (see table.go):
// a lookup is a hash of at most 24 bytes and one or two compares, far
// cheaper than a map, and a collision only costs a copy.
const (
	maxInternLen     = 256
	maxInternBytes   = 4096
	maxInternEntries = 1 << 16
	maxSharedBytes   = 1 << 13 // values of up to maxInternBytes: 32 MiB at most
	internSlots      = 8192
	maxStringSets    = internSlots / 2
)

// Decoder holds the state of one or more protobuf decodes: a table of the
// strings and byte slices seen so far, so that equal values decoded into
// different objects share one backing array.
//
// The zero value is ready to use. A Decoder is not safe for concurrent use;
// give each goroutine its own. Objects decoded through a shared Decoder may
// share the backing arrays of []byte fields that hold repeated content (such
// as managedFields' FieldsV1): treat decoded objects as read-only, or
// DeepCopy them before changing bytes in place.
type Decoder struct {
	// ReadOnly promises that nobody modifies the objects decoded through
	// this Decoder (an informer's cache, for example). The Decoder then
	// also shares equal maps between objects, which cuts the memory of a
	// cache of similar objects by a third or more. Modifying a shared map
	// changes every object that holds it: DeepCopy first.
	ReadOnly bool

	// Copied promises that the caller copies each decoded object into a
	// form of its own and drops it (a cache keeping objects frozen). A
	// ReadOnly Decoder then keeps a value for sharing only once its bytes
	// repeat: kept from their first sighting, the values of the many
	// spans seen once would be held by the Decoder alone.
	Copied bool

	// MaxDepth bounds the nesting of recursive messages; zero means
	// DefaultMaxDepth.
	MaxDepth int

	depth   int
	strings stringTable
	bytes   map[uint64][]byte // by maphash of the content, under seed
	seed    maphash.Seed
	shared  map[string]any
	memo    map[string]any
	scratch []byte
	json    *jsonTable // collections shared by JSON decoders
	boxes   boxTable
	// bases are recent values CompactBytes kept whole, which later values
	// may be Deltas of; nextBase counts them.
	bases    [deltaBases][]byte
	nextBase int
}

// String returns b as a string, reusing an equal string this Decoder
// returned before when it still has it.
func (d *Decoder) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if d == nil || len(b) > maxInternLen {
		return string(b)
	}
	return d.strings.intern(b)
}

// internHash mixes the length and every byte of b. (It once read only
// 24 bytes, the start, middle and end; strings that differ elsewhere,
// "widget widget-001375 is serving" and "...376...", then fell into one
// set, and the tables took each for a repeat of the other.)
//
// Words are mixed in two lanes, even and odd words, so that one step
// takes 16 bytes and the two multiplies do not wait on each other; the
// lanes start apart, so that swapping two words changes the hash. A
// string under 8 bytes is one word, read at once when b's capacity holds
// it (most input slices), else assembled byte by byte: the same value.
func internHash(b []byte) uint64 {
	n := len(b)
	h := uint64(n) * 0x9e3779b97f4a7c15
	if n >= 8 {
		// The last word overlaps the ones before it.
		last := binary.LittleEndian.Uint64(b[n-8:])
		g := h ^ 0x6a09e667f3bcc909
		for ; len(b) > 16; b = b[16:] {
			h = (h ^ binary.LittleEndian.Uint64(b)) * 0xff51afd7ed558ccd
			g = (g ^ binary.LittleEndian.Uint64(b[8:])) * 0xff51afd7ed558ccd
			h ^= h >> 29
			g ^= g >> 29
		}
		if len(b) > 8 {
			h = (h ^ binary.LittleEndian.Uint64(b)) * 0xff51afd7ed558ccd
			h ^= h >> 29
		}
		h = (h ^ g) * 0xc4ceb9fe1a85ec53
		h ^= last
	} else {
		var w uint64
		if cap(b) >= 8 {
			w = binary.LittleEndian.Uint64(b[:8]) & (1<<(8*n) - 1)
		} else {
			for i, c := range b {
				w |= uint64(c) << (8 * i)
			}
		}
		h = (h ^ w) * 0xff51afd7ed558ccd
	}
	// Mix every input bit into every output bit (murmur3's finalizer):
	// the table's slots take the low bits, and without a full mix, values
	// that differ only in their last byte ("image:v1.4.0", "image:v1.4.1")
	// all fell into one slot and evicted each other.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// UniqueString returns b as a new string without consulting the table: for
// fields whose values are unique per object (names, uids, resource
// versions), where interning would only grow the table.
func (d *Decoder) UniqueString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return string(b)
}

// Bytes returns a copy of b that does not alias the input buffer. An empty
// non-nil input gives an empty non-nil slice, so that presence survives a
// round trip.
func (d *Decoder) Bytes(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

// SharedBytes is Bytes for content that repeats across objects (such as
// FieldsV1): equal values decoded through the same Decoder share one
// backing array, which callers must not modify.
//
// The table is keyed by a hash of the content, not by a copy of it: much
// of what passes is unique (the managedFields entry a kubelet writes
// names the Pod's IPs), and a string key would keep a second copy of each
// for as long as the table lives. It starts over when full, so that it
// does not keep the values of objects long gone.
func (d *Decoder) SharedBytes(b []byte) []byte {
	if d == nil || len(b) == 0 || len(b) > maxInternBytes {
		return d.Bytes(b)
	}
	if d.bytes == nil {
		d.bytes = make(map[uint64][]byte, 16)
		d.seed = maphash.MakeSeed()
	}
	h := maphash.Bytes(d.seed, b)
	if v, ok := d.bytes[h]; ok && bytes.Equal(v, b) {
		return v
	}
	v := d.Bytes(b)
	if len(d.bytes) >= maxSharedBytes {
		clear(d.bytes)
	}
	d.bytes[h] = v // a colliding value, if any, gives way
	return v
}

// Memo returns what a decoder of kind (a type name) stored for the input b
// before, so that a type whose decoding is costly (parsing a Quantity, say)
// does the work once per distinct input of a list or a stream.
func (d *Decoder) Memo(kind string, b []byte) (any, bool) {
	if d == nil || d.memo == nil {
		return nil, false
	}
	d.scratch = append(append(d.scratch[:0], kind...), b...)
	v, ok := d.memo[string(d.scratch)]
	return v, ok
}

// SetMemo stores v as the result of decoding b for kind.
func (d *Decoder) SetMemo(kind string, b []byte, v any) {
	if d == nil {
		return
	}
	if d.memo == nil || len(d.memo) >= maxInternEntries {
		d.memo = make(map[string]any, 64)
	}
	d.memo[kind+string(b)] = v
}
