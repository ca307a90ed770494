package quantity

import (
	"math/bits"
	"strconv"
)

// Format is how a Quantity is written: the kind of suffix it uses.
type Format string

// The three formats. A Quantity remembers the format of the string it was
// parsed from and writes its value back in that format.
const (
	DecimalExponent = Format("DecimalExponent") // e.g., 12e6
	BinarySI        = Format("BinarySI")        // e.g., 12Mi (12 * 2^20)
	DecimalSI       = Format("DecimalSI")       // e.g., 12M  (12 * 10^6)
)

var (
	decimalSuffixes = [...]string{"n", "u", "m", "", "k", "M", "G", "T", "P", "E"} // 10^-9 .. 10^18
	binarySuffixes  = [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}          // 2^0 .. 2^60
)

// appendCanonical appends the canonical form of v in format f: no
// fractional digits and the largest exponent or suffix that loses nothing.
//
// BinarySI falls back to DecimalSI for values below 1024 in magnitude and
// for fractions, as upstream does. Where a format has no suffix for the
// exponent (DecimalSI above E or below n, BinarySI above Ei) it falls back
// to exponent notation, as upstream does since it stopped dropping the
// suffix there.
func appendCanonical(b []byte, v decimal, f Format) []byte {
	if v.isZero() {
		return append(b, '0')
	}
	if v.neg {
		b = append(b, '-')
	}
	v = v.stripZeros()
	if f == BinarySI {
		if cmpMag(v, decimal{small: 1024}) < 0 || v.exp < 0 {
			f = DecimalSI
		} else if out, ok := appendBinary(b, v); ok {
			return out
		} else {
			f = DecimalExponent
		}
	}
	// Make the exponent a multiple of 3 (at most two steps).
	for v.exp%3 != 0 {
		v = v.mulPow10(1)
	}
	b = v.appendMag(b)
	if i := v.exp/3 + 3; f == DecimalSI && i >= 0 && i < int64(len(decimalSuffixes)) {
		return append(b, decimalSuffixes[i]...)
	}
	if v.exp == 0 {
		return b
	}
	return strconv.AppendInt(append(b, 'e'), v.exp, 10)
}

// appendBinary writes the whole number v (exponent >= 0, no trailing
// zeros) with the largest binary suffix that divides it, and reports false
// when that would need a suffix past Ei.
func appendBinary(b []byte, v decimal) ([]byte, bool) {
	if v.exp >= 70 { // 10^70 already holds seven factors of 1024
		return b, false
	}
	if v.neg && v.big == nil && v.small == 1<<63 {
		// Upstream cannot take the factors out of -2^63 (its negation
		// overflows) and writes it in digits; so does kubewire, which also
		// keeps -8Ei, capped on parse, from losing a unit.
		return b, false
	}
	n := v.mulPow10(v.exp) // the whole number, exponent 0
	var k int
	if n.big == nil {
		k = bits.TrailingZeros64(n.small) / 10
	} else {
		k = int(n.big.TrailingZeroBits()) / 10
	}
	if k >= len(binarySuffixes) {
		return b, false
	}
	if n.big == nil {
		n.small >>= 10 * k
	} else {
		m := n.magBig()
		n = fromBig(false, m.Rsh(m, uint(10*k)), 0)
	}
	return append(n.appendMag(b), binarySuffixes[k]...), true
}
