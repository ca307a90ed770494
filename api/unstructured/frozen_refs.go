package unstructured

import "encoding/binary"

// A string value that repeats within one object (a Helm values block
// copied into every history entry, an alert's description in every rule,
// "Synced" and "Healthy" in every resource entry) is written once; later
// copies are a tagStringRef naming the earlier copy's bytes, which Thaw
// takes as a substring like any other string, so a repeat costs a few
// bytes in the cache and nothing more once thawed.
const (
	tagStringRef = 12 // string: varint offset of an earlier copy's bytes, varint length

	// minRefLen is the shortest string worth a reference: a reference
	// takes a tag and two varints, 4-6 bytes.
	minRefLen = 8
	refSlots  = 256
)

// refTable remembers where strings of the encoding being written start,
// by a cheap hash of their ends; a slot holds the last string that
// hashed to it. A Freeze keeps one on its stack.
type refTable struct {
	slots [refSlots]struct{ off, n uint32 }
}

func refHash(s string) uint32 {
	n := len(s)
	h := uint64(n) * 0x9e3779b97f4a7c15
	h ^= binary.LittleEndian.Uint64([]byte(s[:8]))
	h = (h ^ h>>29) * 0xbf58476d1ce4e5b9
	h ^= binary.LittleEndian.Uint64([]byte(s[n-8:]))
	h = (h ^ h>>32) * 0x94d049bb133111eb
	return uint32(h >> 56)
}

// appendStringValue writes s as a tagged string, or as a reference to an
// equal string written before it in buf.
func (t *refTable) appendStringValue(buf []byte, s string) []byte {
	if t == nil || len(s) < minRefLen || len(buf) > 1<<31 {
		return appendString(append(buf, tagString), s)
	}
	slot := &t.slots[refHash(s)%refSlots]
	if slot.n == uint32(len(s)) && slot.off != 0 && string(buf[slot.off:slot.off+slot.n]) == s {
		buf = binary.AppendUvarint(append(buf, tagStringRef), uint64(slot.off))
		return binary.AppendUvarint(buf, uint64(slot.n))
	}
	buf = binary.AppendUvarint(append(buf, tagString), uint64(len(s)))
	slot.off, slot.n = uint32(len(buf)), uint32(len(s))
	return append(buf, s...)
}

// stringRef reads a tagStringRef's operands (its tag at start, already
// read): the earlier bytes it names, or "" when they are not wholly
// before start (which Freeze never writes).
func (r *reader) stringRef(start int) string {
	off, n := r.uvarint(), r.uvarint()
	if off > uint64(start) || n > uint64(start)-off {
		return ""
	}
	return r.s[off : off+n]
}
