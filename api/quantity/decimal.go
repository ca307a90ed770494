package quantity

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// decimal is the exact value ±mag × 10^exp that every Quantity operation
// works on. The magnitude lives in small unless it does not fit in a uint64;
// then big holds it, so that math/big is paid for only by values that need
// it. A decimal is never modified in place once built: operations return a
// new one.
type decimal struct {
	neg   bool
	small uint64
	big   *big.Int // never negative; nil when small holds the magnitude
	exp   int64
}

// maxAlignDigits bounds how far apart two exponents may be for Add and Sub
// to align them exactly: beyond it the smaller operand is dropped, because
// writing 10^gap out would take unbounded time (1e2147483647 + 1).
const maxAlignDigits = 100_000

var pow10u = [...]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

func (d decimal) isZero() bool { return d.big == nil && d.small == 0 }

func (d decimal) sign() int {
	switch {
	case d.isZero():
		return 0
	case d.neg:
		return -1
	}
	return 1
}

func (d decimal) negate() decimal {
	if !d.isZero() {
		d.neg = !d.neg
	}
	return d
}

// fromInt64 returns v × 10^exp.
func fromInt64(v int64, exp int64) decimal {
	d := decimal{neg: v < 0, small: uint64(v), exp: exp}
	if d.neg {
		d.small = -d.small // two's complement: also right for MinInt64
	}
	return d.norm()
}

// fromBig returns ±mag × 10^exp; mag must not be negative and is kept.
func fromBig(neg bool, mag *big.Int, exp int64) decimal {
	return decimal{neg: neg, big: mag, exp: exp}.norm()
}

// norm moves a magnitude that fits back into small and gives zero one form.
func (d decimal) norm() decimal {
	if d.big != nil && d.big.IsUint64() {
		d.small, d.big = d.big.Uint64(), nil
	}
	if d.isZero() {
		return decimal{}
	}
	return d
}

// magBig returns a new big.Int holding the magnitude.
func (d decimal) magBig() *big.Int {
	if d.big != nil {
		return new(big.Int).Set(d.big)
	}
	return new(big.Int).SetUint64(d.small)
}

func bigPow10(n int64) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil)
}

// numDigits is the number of decimal digits of the magnitude, 1 for zero.
func (d decimal) numDigits() int64 {
	if d.big != nil {
		return int64(len(d.big.String()))
	}
	n := int64(1)
	for n < int64(len(pow10u)) && d.small >= pow10u[n] {
		n++
	}
	return n
}

// mulPow10 returns the same value with the magnitude multiplied by 10^n and
// the exponent lowered by n (n >= 0).
func (d decimal) mulPow10(n int64) decimal {
	if n == 0 || d.isZero() {
		return d
	}
	if d.big == nil && n < int64(len(pow10u)) {
		if hi, lo := bits.Mul64(d.small, pow10u[n]); hi == 0 {
			d.small, d.exp = lo, d.exp-n
			return d
		}
	}
	m := d.magBig()
	return decimal{neg: d.neg, big: m.Mul(m, bigPow10(n)), exp: d.exp - n}
}

// stripZeros moves trailing zeros of the magnitude into the exponent.
func (d decimal) stripZeros() decimal {
	if d.isZero() {
		return d
	}
	if d.big == nil {
		for d.small%10 == 0 {
			d.small /= 10
			d.exp++
		}
		return d
	}
	s := d.big.String()
	t := strings.TrimRight(s, "0")
	m, _ := new(big.Int).SetString(t, 10)
	return fromBig(d.neg, m, d.exp+int64(len(s)-len(t)))
}

// quoPow10Away divides the magnitude by 10^n (n > 0), rounding away from
// zero, and raises the exponent by n. exact reports whether nothing was lost.
func (d decimal) quoPow10Away(n int64) (q decimal, exact bool) {
	if d.isZero() {
		return d, true
	}
	out := decimal{neg: d.neg, exp: d.exp + n}
	if n > d.numDigits() {
		out.small = 1
		return out, false
	}
	if d.big == nil {
		var quo, rem uint64
		if n < int64(len(pow10u)) {
			quo, rem = d.small/pow10u[n], d.small%pow10u[n]
		} else {
			rem = d.small
		}
		if rem != 0 {
			quo++
		}
		out.small = quo
		return out.norm(), rem == 0
	}
	quo, rem := new(big.Int).QuoRem(d.big, bigPow10(n), new(big.Int))
	if rem.Sign() != 0 {
		quo.Add(quo, big.NewInt(1))
	}
	out.big = quo
	return out.norm(), rem.Sign() == 0
}

// cmpMag compares the magnitudes of a and b.
func cmpMag(a, b decimal) int {
	switch {
	case a.isZero() || b.isZero():
		return boolInt(!a.isZero()) - boolInt(!b.isZero())
	}
	// 10^(top-1) <= |x| < 10^top: different tops settle it without
	// aligning, which could take as long as the exponents are far apart.
	ta, tb := a.exp+a.numDigits(), b.exp+b.numDigits()
	if ta != tb {
		return cmpInt64(ta, tb)
	}
	// The tops agree, so the exponents differ by less than the digits.
	if a.exp > b.exp {
		a = a.mulPow10(a.exp - b.exp)
	} else {
		b = b.mulPow10(b.exp - a.exp)
	}
	if a.big == nil && b.big == nil {
		return cmpUint64(a.small, b.small)
	}
	return a.magBig().Cmp(b.magBig())
}

func cmpDecimal(a, b decimal) int {
	if sa, sb := a.sign(), b.sign(); sa != sb || sa == 0 {
		return cmpInt64(int64(sa), int64(sb))
	}
	if a.neg {
		return -cmpMag(a, b)
	}
	return cmpMag(a, b)
}

// add returns a + b, exact unless the exponents are more than
// maxAlignDigits apart (see maxAlignDigits).
func add(a, b decimal) decimal {
	switch {
	case a.isZero():
		return b
	case b.isZero():
		return a
	}
	gap := a.exp - b.exp
	if gap < -maxAlignDigits || gap > maxAlignDigits {
		if cmpMag(a, b) >= 0 {
			return a
		}
		return b
	}
	if gap > 0 {
		a = a.mulPow10(gap)
	} else {
		b = b.mulPow10(-gap)
	}
	if a.neg != b.neg {
		switch c := cmpMag(a, b); {
		case c == 0:
			return decimal{}
		case c < 0:
			a, b = b, a // a is now the larger magnitude and gives the sign
		}
		if a.big == nil && b.big == nil {
			a.small -= b.small
			return a
		}
		return fromBig(a.neg, a.magBig().Sub(a.magBig(), b.magBig()), a.exp)
	}
	if a.big == nil && b.big == nil {
		if sum, carry := bits.Add64(a.small, b.small, 0); carry == 0 {
			a.small = sum
			return a
		}
	}
	m := a.magBig()
	return fromBig(a.neg, m.Add(m, b.magBig()), a.exp)
}

// scaled returns the value divided by 10^scale and rounded away from zero.
// exact reports whether the division lost nothing; when the result does not
// fit in an int64, fits is false and v is the int64 limit of its sign.
func (d decimal) scaled(scale int64) (v int64, exact, fits bool) {
	if d.isZero() {
		return 0, true, true
	}
	limit, rail := uint64(math.MaxInt64), int64(math.MaxInt64)
	if d.neg {
		limit, rail = 1<<63, math.MinInt64
	}
	m := d
	exact = true
	if shift := d.exp - scale; shift >= 0 {
		if d.numDigits()+shift > 20 { // at least 10^20, past any int64
			return rail, true, false
		}
		m = d.mulPow10(shift)
	} else {
		m, exact = d.quoPow10Away(-shift)
	}
	if m.big != nil || m.small > limit {
		return rail, exact, false
	}
	if d.neg {
		return -int64(m.small), exact, true // also right for 2^63
	}
	return int64(m.small), exact, true
}

// float64 returns the nearest float64, ±Inf or ±0 outside its range.
func (d decimal) float64() float64 {
	if d.isZero() {
		return 0
	}
	if d.big == nil && d.small < 1<<53 && d.exp >= -22 && d.exp <= 22 {
		// Both operands are exact, so the result is rounded once.
		f := float64(d.small)
		if d.exp >= 0 {
			f *= math.Pow10(int(d.exp))
		} else {
			f /= math.Pow10(int(-d.exp))
		}
		if d.neg {
			f = -f
		}
		return f
	}
	b := make([]byte, 0, 32)
	if d.neg {
		b = append(b, '-')
	}
	b = d.appendMag(b)
	b = strconv.AppendInt(append(b, 'e'), d.exp, 10)
	f, _ := strconv.ParseFloat(string(b), 64) // ±Inf or 0 on range errors
	return f
}

// appendMag appends the decimal digits of the magnitude.
func (d decimal) appendMag(b []byte) []byte {
	if d.big != nil {
		return d.big.Append(b, 10)
	}
	return strconv.AppendUint(b, d.small, 10)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpUint64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
