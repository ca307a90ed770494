package wire

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"unsafe"
)

// Delta is a byte string held as a few edits of another one, a base
// shared with other values: a read-only decode keeps a managedFields
// entry that differs from an earlier one in a few places (the kubelet's
// names each Pod's IPs; a controller's names each object's owner uid)
// as a Delta of tens of bytes instead of a copy of thousands. Bytes
// rebuilds the value.
//
// A Delta is immutable and safe for concurrent use.
type Delta struct {
	// base is the start of the shared base, never modified; its length
	// is not kept: ops only copy from within it.
	base *byte
	// ops: copy: uvarint(n<<1), uvarint(offset in base); literal:
	// uvarint(n<<1|1), n bytes. A string, not a slice.
	ops string
	n   uint32 // the value's length (at most maxInternBytes)
	// 32 bytes a Delta: one is kept per unique managedFields entry.
}

// opsBytes returns x.ops as bytes to read, without a copy.
func (x *Delta) opsBytes() []byte { return unsafe.Slice(unsafe.StringData(x.ops), len(x.ops)) }

// baseBytes returns n bytes of the base from off.
func (x *Delta) baseBytes(off uint64, n int) []byte {
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(x.base), uintptr(off))), n)
}

// Len returns the length of the value.
func (x *Delta) Len() int { return int(x.n) }

// Bytes returns the value in a new slice.
func (x *Delta) Bytes() []byte { return x.AppendTo(make([]byte, 0, int(x.n))) }

// AppendTo appends the value to b.
func (x *Delta) AppendTo(b []byte) []byte {
	for ops := x.opsBytes(); len(ops) > 0; {
		v, k := binary.Uvarint(ops)
		ops = ops[k:]
		n := int(v >> 1)
		if v&1 == 1 {
			b = append(b, ops[:n]...)
			ops = ops[n:]
			continue
		}
		off, k := binary.Uvarint(ops)
		ops = ops[k:]
		b = append(b, x.baseBytes(off, n)...)
	}
	return b
}

// Equal reports whether the value is b.
func (x *Delta) Equal(b []byte) bool {
	if len(b) != int(x.n) {
		return false
	}
	for ops := x.opsBytes(); len(ops) > 0; {
		v, k := binary.Uvarint(ops)
		ops = ops[k:]
		n := int(v >> 1)
		var part []byte
		if v&1 == 1 {
			part, ops = ops[:n], ops[n:]
		} else {
			off, k := binary.Uvarint(ops)
			ops = ops[k:]
			part = x.baseBytes(off, n)
		}
		if !bytes.Equal(part, b[:n]) {
			return false
		}
		b = b[n:]
	}
	return true
}

// Limits of delta encoding. A value is kept as a Delta when its edits
// take at most a quarter of its length; it is compared with the
// deltaBases most recent values kept whole (the bases), and the one
// sharing the longest prefix and suffix with it is tried (values alike
// can differ near both ends: a workflow's entry names its node ids from
// the start to the end).
const (
	minDeltaLen = 256 // shorter values are kept whole: a Delta costs about 100 bytes
	deltaBases  = 8
	deltaAnchor = 12  // bytes that must match to take up copying again
	deltaScan   = 96  // bytes of a value searched for an anchor after a difference
	deltaWindow = 512 // bytes of the base searched for it
)

// CompactBytes is SharedBytes for a ReadOnly Decoder that may also keep
// the value as a Delta of an earlier one: it returns either the bytes
// (shared with equal values, or a copy) and a nil Delta, or nil and a
// Delta. Without ReadOnly it is SharedBytes.
func (d *Decoder) CompactBytes(b []byte) ([]byte, *Delta) {
	if d == nil || !d.ReadOnly || len(b) < minDeltaLen || len(b) > maxInternBytes {
		return d.SharedBytes(b), nil
	}
	if d.bytes != nil {
		h := maphashBytes(d, b)
		if v, ok := d.bytes[h]; ok && bytes.Equal(v, b) {
			return v, nil
		}
	}
	if x := d.delta(b); x != nil {
		return nil, x
	}
	v := d.SharedBytes(b)
	d.bases[d.nextBase%deltaBases] = v
	d.nextBase++
	return v, nil
}

// delta encodes b against the most similar base, or returns nil when the
// edits would be too large.
func (d *Decoder) delta(b []byte) *Delta {
	var base []byte
	best := 0
	for _, c := range d.bases {
		if len(c) == 0 {
			continue
		}
		if s := commonPrefix(b, c) + commonSuffix(b, c); s > best {
			base, best = c, s
		}
	}
	if best < deltaAnchor {
		return nil
	}
	// The edits may take a quarter of the value, and the search for
	// where b takes up base again after each difference a bounded number
	// of scans of a window of base (about 30 ns each; a scan of all of
	// base counts as several), so that a value unlike its base costs
	// little before it is kept whole.
	limit, budget := len(b)/4, len(b)/2
	ops := make([]byte, 0, 64)
	i, j := 0, 0
	for i < len(b) {
		if k := commonPrefix(b[i:], base[j:]); k > 0 && (k >= deltaAnchor || i+k == len(b)) {
			ops = binary.AppendUvarint(ops, uint64(k)<<1)
			ops = binary.AppendUvarint(ops, uint64(j))
			i, j = i+k, j+k
			continue
		}
		// A difference: find where b takes up base again, skipping the
		// fewest bytes of both (an anchor found far ahead in base may
		// belong to a later, similar part); failing that, anywhere in
		// base (the parts of a value can come in another order, as
		// managedFields sort their keys, node ids among them).
		lit, at, cost := -1, 0, deltaScan+deltaWindow
		window := base[j:min(len(base), j+deltaWindow)]
		for a := 0; a <= deltaScan && a < cost && i+a+deltaAnchor <= len(b); a++ {
			if budget--; budget < 0 {
				return nil
			}
			if p := bytes.Index(window, b[i+a:i+a+deltaAnchor]); p >= 0 && a+p < cost {
				lit, at, cost = a, j+p, a+p
			}
		}
		for a := 0; lit < 0 && a <= deltaScan && i+a+deltaAnchor <= len(b); a++ {
			if budget -= 1 + len(base)/deltaWindow; budget < 0 {
				return nil
			}
			if p := bytes.Index(base, b[i+a:i+a+deltaAnchor]); p >= 0 {
				lit, at = a, p
			}
		}
		if lit < 0 {
			// The rest of the value: copy the base's tail if it ends
			// alike, else take it literally.
			if k := commonSuffix(b[i:], base[j:]); k >= deltaAnchor {
				ops = appendLiteral(ops, b[i:len(b)-k])
				ops = binary.AppendUvarint(ops, uint64(k)<<1)
				ops = binary.AppendUvarint(ops, uint64(len(base)-k))
			} else {
				ops = appendLiteral(ops, b[i:])
			}
			break
		}
		if lit > 0 {
			ops = appendLiteral(ops, b[i:i+lit])
		}
		i, j = i+lit, at
		if len(ops) > limit {
			return nil
		}
	}
	if len(ops) > limit {
		return nil
	}
	return &Delta{base: unsafe.SliceData(base), ops: string(ops), n: uint32(len(b))}
}

func appendLiteral(ops, lit []byte) []byte {
	if len(lit) == 0 {
		return ops
	}
	ops = binary.AppendUvarint(ops, uint64(len(lit))<<1|1)
	return append(ops, lit...)
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i+8 <= n && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]) {
		i += 8
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// maphashBytes is the key of b in d.bytes (which must be made).
func maphashBytes(d *Decoder, b []byte) uint64 { return maphash.Bytes(d.seed, b) }
