package quantity

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
)

// Errors returned by ParseQuantity, with upstream's names.
var (
	// ErrFormatWrong reports a string that is not a number and a suffix.
	ErrFormatWrong = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	// ErrNumeric reports a number that cannot be read: one without digits
	// where upstream rejects it ("Ei", "e-10"), or a value of 10^2147483648
	// or more, which upstream accepts but cannot print back.
	ErrNumeric = errors.New("unable to parse numeric part of quantity")
	// ErrSuffix reports an unknown suffix or an exponent outside ±(2^31-1).
	ErrSuffix = errors.New("unable to parse quantity's suffix")
)

// spelling locates the parts of a quantity string. It accepts what
// upstream's scanner accepts, including its leniencies: a missing integer or
// fraction part ("1.", ".5") and, mostly, no digits at all ("-", "."),
// which is zero (see parse for where upstream rejects that).
type spelling struct {
	neg              bool
	numStart, numEnd int // integer digits, leading zeros left out
	fracStart        int // fraction digits run from here to fracEnd
	fracEnd          int
	suffix           int // the suffix runs from here to the end
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isSuffixLetter reports the letters a suffix may start with.
func isSuffixLetter(c byte) bool {
	switch c {
	case 'e', 'E', 'i', 'n', 'u', 'm', 'k', 'K', 'M', 'G', 'T', 'P':
		return true
	}
	return false
}

func scan[S string | []byte](s S) (sp spelling, err error) {
	pos, end := 0, len(s)
	if pos < end && (s[0] == '-' || s[0] == '+') {
		sp.neg = s[0] == '-'
		pos++
	}
	for pos < end && s[pos] == '0' {
		pos++
	}
	sp.numStart = pos
	for pos < end && isDigit(s[pos]) {
		pos++
	}
	sp.numEnd = pos
	sp.fracStart, sp.fracEnd = pos, pos
	if pos < end && s[pos] == '.' {
		pos++
		sp.fracStart = pos
		for pos < end && isDigit(s[pos]) {
			pos++
		}
		sp.fracEnd = pos
	}
	sp.suffix = pos
	for pos < end && isSuffixLetter(s[pos]) {
		pos++
	}
	if pos < end && (s[pos] == '-' || s[pos] == '+') {
		pos++
	}
	for pos < end && isDigit(s[pos]) {
		pos++
	}
	if pos < end {
		return sp, ErrFormatWrong
	}
	return sp, nil
}

// suffixInfo is what a suffix multiplies the number by: 10^exp, or 2^exp
// when base2 is set.
type suffixInfo struct {
	base2  bool
	exp    int64
	format Format
}

func interpretSuffix[S string | []byte](s S) (suffixInfo, bool) {
	switch string(s) {
	case "":
		return suffixInfo{exp: 0, format: DecimalSI}, true
	case "n":
		return suffixInfo{exp: -9, format: DecimalSI}, true
	case "u":
		return suffixInfo{exp: -6, format: DecimalSI}, true
	case "m":
		return suffixInfo{exp: -3, format: DecimalSI}, true
	case "k":
		return suffixInfo{exp: 3, format: DecimalSI}, true
	case "M":
		return suffixInfo{exp: 6, format: DecimalSI}, true
	case "G":
		return suffixInfo{exp: 9, format: DecimalSI}, true
	case "T":
		return suffixInfo{exp: 12, format: DecimalSI}, true
	case "P":
		return suffixInfo{exp: 15, format: DecimalSI}, true
	case "E":
		return suffixInfo{exp: 18, format: DecimalSI}, true
	case "Ki":
		return suffixInfo{base2: true, exp: 10, format: BinarySI}, true
	case "Mi":
		return suffixInfo{base2: true, exp: 20, format: BinarySI}, true
	case "Gi":
		return suffixInfo{base2: true, exp: 30, format: BinarySI}, true
	case "Ti":
		return suffixInfo{base2: true, exp: 40, format: BinarySI}, true
	case "Pi":
		return suffixInfo{base2: true, exp: 50, format: BinarySI}, true
	case "Ei":
		return suffixInfo{base2: true, exp: 60, format: BinarySI}, true
	}
	if len(s) < 2 || (s[0] != 'e' && s[0] != 'E') {
		return suffixInfo{}, false
	}
	exp, ok := parseExponent(s[1:])
	return suffixInfo{exp: exp, format: DecimalExponent}, ok
}

// parseExponent reads [+-]digits within ±(2^31-1), the bound upstream puts
// on exponents so that its int32 scales cannot wrap.
func parseExponent[S string | []byte](s S) (int64, bool) {
	neg := false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		if v = v*10 + int64(s[i]-'0'); v > math.MaxInt32 {
			return 0, false
		}
	}
	if neg {
		v = -v
	}
	return v, true
}

// value returns the exact value s spells, before parse-time rounding.
func value[S string | []byte](s S, sp spelling, si suffixInfo) decimal {
	num, frac := s[sp.numStart:sp.numEnd], s[sp.fracStart:sp.fracEnd]
	d := decimal{neg: sp.neg, exp: -int64(len(frac))}
	if len(num)+len(frac) <= 19 { // 10^19-1 fits in a uint64
		for i := 0; i < len(num); i++ {
			d.small = d.small*10 + uint64(num[i]-'0')
		}
		for i := 0; i < len(frac); i++ {
			d.small = d.small*10 + uint64(frac[i]-'0')
		}
	} else {
		d.big, _ = new(big.Int).SetString(string(num)+string(frac), 10)
	}
	if !si.base2 {
		d.exp += si.exp
		return d.norm()
	}
	if d.big == nil && bits.Len64(d.small)+int(si.exp) <= 64 {
		d.small <<= si.exp
		return d.norm()
	}
	m := d.magBig()
	d.big = m.Lsh(m, uint(si.exp))
	return d.norm()
}

// keepsSpelling reports whether upstream's parser keeps s as its string
// form instead of printing the value canonically. It does so when its fast
// path finds the spelling already canonical-looking, which also keeps
// spellings such as "+1", "1." and "1.500"; kubewire keeps the same ones so
// that values re-encode byte for byte as client-go re-encodes them.
func keepsSpelling[S string | []byte](s S, sp spelling, si suffixInfo) bool {
	num, frac := s[sp.numStart:sp.numEnd], s[sp.fracStart:sp.fracEnd]
	if len(num) == 0 { // a zero integer part is never kept
		return false
	}
	if si.base2 {
		// Small whole numbers of Ki..Ti not divisible by 8.
		precision := 14 - len(num) - 3*int(si.exp/10)
		return len(frac) == 0 && precision >= 0 && lastDigitsMod8(num) != 0
	}
	// At most 18 digits (v1.36's limit; later releases take 19) at a
	// scale of 10^-9 or more that is a multiple of 3.
	digits, scale := len(num)+len(frac), si.exp-int64(len(frac))
	if digits > 18 || scale < -9 || scale%3 != 0 {
		return false
	}
	zeros := 0 // trailing zeros of num+frac, up to three
	for i := digits - 1; i >= 0 && zeros < 3; i-- {
		c := byte('0')
		if i < len(num) {
			c = num[i]
		} else {
			c = frac[i-len(num)]
		}
		if c != '0' {
			break
		}
		zeros++
	}
	return zeros < 3
}

// lastDigitsMod8 returns the number num spells modulo 8, from its last
// three digits.
func lastDigitsMod8[S string | []byte](num S) int {
	v := 0
	for i := max(0, len(num)-3); i < len(num); i++ {
		v = v*10 + int(num[i]-'0')
	}
	return v % 8
}

// parse reads a quantity as upstream's ParseQuantity does: the value is
// rounded away from zero to a multiple of 10^-9, a BinarySI value is capped
// at ±(2^63-1), and a BinarySI value below 1 in magnitude becomes DecimalSI.
func parse[S string | []byte](s S) (v decimal, f Format, keep bool, err error) {
	if len(s) == 0 {
		return decimal{}, "", false, ErrFormatWrong
	}
	sp, err := scan(s)
	if err != nil {
		return decimal{}, "", false, err
	}
	si, ok := interpretSuffix(s[sp.suffix:])
	if !ok {
		return decimal{}, "", false, ErrSuffix
	}
	if !hasDigits(s, sp) && (si.base2 && si.exp >= 50 || !si.base2 && si.exp < -9) {
		// Upstream takes these through math on the spelled number, which
		// rejects one without digits; elsewhere it reads it as zero.
		return decimal{}, "", false, ErrNumeric
	}
	v, f = value(s, sp, si), si.format
	if v.exp < -9 {
		v, _ = v.quoPow10Away(-9 - v.exp)
	}
	if v.exp+v.numDigits() > math.MaxInt32 && v.stripZeros().exp > math.MaxInt32 {
		return decimal{}, "", false, ErrNumeric
	}
	if f == BinarySI {
		if max := (decimal{small: math.MaxInt64}); cmpMag(v, max) > 0 {
			v = decimal{neg: v.neg, small: math.MaxInt64}
		}
		if !v.isZero() && v.exp+v.numDigits() <= 0 { // 0 < |v| < 1
			f = DecimalSI
		}
	}
	return v, f, keepsSpelling(s, sp, si), nil
}

// hasDigits reports whether the number part of s has a digit: the zeros
// scan skipped, or integer or fraction digits.
func hasDigits[S string | []byte](s S, sp spelling) bool {
	lead := 0
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		lead = 1
	}
	return sp.numStart > lead || sp.numEnd > sp.numStart || sp.fracEnd > sp.fracStart
}

// spelledValue returns the exact value and the format of a string held by a
// Quantity. Such strings always parse, and none needs rounding or capping.
func spelledValue[S string | []byte](s S) (decimal, Format) {
	sp, err := scan(s)
	if err != nil {
		return decimal{}, ""
	}
	si, ok := interpretSuffix(s[sp.suffix:])
	if !ok {
		return decimal{}, ""
	}
	return value(s, sp, si), si.format
}
