package jsonwire

import (
	"encoding/binary"
	"math/bits"
)

// Scanning string bodies eight bytes at a time. Keys and values of the
// API are mostly printable ASCII of 5 to 60 bytes, which a byte-by-byte
// loop reads at a byte a cycle or worse; a word at a time, each test
// below flags the bytes it looks for in their high bit. A borrow in the
// subtractions only carries upward from a flagged byte, so the lowest
// flagged byte is always a true one, which is the only one used.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// zeroBytes flags the bytes of w that are 0.
func zeroBytes(w uint64) uint64 { return (w - ones) &^ w & highs }

// plainRun returns the offset of the first byte at or after i that is
// not plain (see plain: below 0x20, '"', '\\' or above 0x7f), or len(b).
func plainRun(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		control := (w - 0x20*ones) &^ w & highs
		if m := w&highs | control | zeroBytes(w^'"'*ones) | zeroBytes(w^'\\'*ones); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(b) && plain[b[i]] {
		i++
	}
	return i
}

// quoteOrEscape returns the offset of the first '"' or '\\' at or after
// i, or len(b).
func quoteOrEscape(b []byte, i int) int {
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if m := zeroBytes(w^'"'*ones) | zeroBytes(w^'\\'*ones); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(b) && b[i] != '"' && b[i] != '\\' {
		i++
	}
	return i
}
