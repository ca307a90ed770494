package quantity

import "fmt"

// Quantity is an exact decimal number with a unit suffix, such as "100m"
// CPUs or "128Mi" bytes. It mirrors resource.Quantity of
// k8s.io/apimachinery: same parsing, same canonical strings, same
// arithmetic rounding; see the package documentation for the differences.
//
// A Quantity is 16 bytes (upstream's is 56): it holds only its string form.
// Values decoded from protobuf keep the server's string, shared with every
// equal value decoded through the same wire.Decoder, so a cache of 100,000
// Pods decoded from one list and watch holds each distinct request and limit
// string once. Accessors parse the string on each call (tens of
// nanoseconds), without allocating for numbers that fit in 64 bits; math/big
// is used only for values that do not.
//
// The zero value is 0. Quantity is a plain, comparable value that nothing
// else points into: copy it freely; methods with a value receiver are safe
// for concurrent use. Two Quantities may be equal in value but spelled
// differently ("1.500" and "1500m"): compare with Cmp or Equal, not ==.
type Quantity struct {
	// s is "" for the zero value, or the string form, preceded by a
	// one-byte format tag (tagBinarySI...) when the format differs from the
	// one the string implies (MustParse("0.5Ki") is "512" in BinarySI).
	s string
}

// Scale is a power of ten, used to read and build values in a unit such as
// milli (10^-3). Its constants are those of upstream.
type Scale int32

// Scales with a DecimalSI suffix.
const (
	Nano  Scale = -9
	Micro Scale = -6
	Milli Scale = -3
	Kilo  Scale = 3
	Mega  Scale = 6
	Giga  Scale = 9
	Tera  Scale = 12
	Peta  Scale = 15
	Exa   Scale = 18
)

// ParseQuantity parses str, such as "100m", "1.5Gi" or "2e3". Like upstream
// it rounds values finer than 1n up (away from zero) to a multiple of 1n and
// caps BinarySI values at 2^63-1 in magnitude. String returns str itself
// where upstream's String would, and the canonical form otherwise.
func ParseQuantity(str string) (Quantity, error) {
	v, f, keep, err := parse(str)
	if err != nil {
		return Quantity{}, err
	}
	if keep {
		return Quantity{s: str}, nil
	}
	return newQuantity(v, f), nil
}

// MustParse is ParseQuantity for values known to be valid, such as
// constants in code and tests; it panics on error.
func MustParse(str string) Quantity {
	q, err := ParseQuantity(str)
	if err != nil {
		panic(fmt.Errorf("cannot parse '%v': %w", str, err))
	}
	return q
}

// NewQuantity returns value in format. An unknown format is DecimalExponent.
func NewQuantity(value int64, format Format) *Quantity {
	q := newQuantity(fromInt64(value, 0), format)
	return &q
}

// NewMilliQuantity returns value/1000 in format.
func NewMilliQuantity(value int64, format Format) *Quantity {
	q := newQuantity(fromInt64(value, -3), format)
	return &q
}

// NewScaledQuantity returns value × 10^scale in DecimalSI format.
func NewScaledQuantity(value int64, scale Scale) *Quantity {
	q := newQuantity(fromInt64(value, int64(scale)), DecimalSI)
	return &q
}

// Format tags, stored before the string when the format differs from the
// one the string implies. No quantity string starts with a letter.
const (
	tagBinarySI        = 'B'
	tagDecimalSI       = 'D'
	tagDecimalExponent = 'X'
)

// newQuantity returns v in format f, spelled canonically.
func newQuantity(v decimal, f Format) Quantity {
	var buf [40]byte
	return Quantity{s: string(render(buf[:0], v, f))}
}

// render appends the stored form of v in format f to b: the canonical
// string, with a format tag when the string implies another format, or
// nothing for the zero value with no format. An unknown format is
// DecimalExponent, as upstream prints it.
func render(b []byte, v decimal, f Format) []byte {
	switch f {
	case DecimalSI, BinarySI, DecimalExponent:
	default:
		if f == "" && v.isZero() {
			return b
		}
		f = DecimalExponent
	}
	start := len(b)
	b = appendCanonical(append(b, 0), v, f)
	if _, implied := spelledValue(b[start+1:]); implied == f {
		return append(b[:start], b[start+1:]...)
	}
	switch f {
	case BinarySI:
		b[start] = tagBinarySI
	case DecimalSI:
		b[start] = tagDecimalSI
	default:
		b[start] = tagDecimalExponent
	}
	return b
}

// text returns the string form without its tag, "" for the zero value.
func (q Quantity) text() string {
	if q.s != "" && q.s[0] >= 'A' {
		return q.s[1:]
	}
	return q.s
}

// value returns the exact value and the format of q.
func (q Quantity) value() (decimal, Format) {
	if q.s == "" {
		return decimal{}, ""
	}
	v, f := spelledValue(q.text())
	switch q.s[0] {
	case tagBinarySI:
		f = BinarySI
	case tagDecimalSI:
		f = DecimalSI
	case tagDecimalExponent:
		f = DecimalExponent
	}
	return v, f
}

func (q Quantity) decimal() decimal {
	v, _ := q.value()
	return v
}

// String returns q in canonical form, such as "1500m" or "1Gi" (or the
// parsed string where upstream keeps it; see ParseQuantity).
func (q Quantity) String() string {
	if q.s == "" {
		return "0"
	}
	return q.text()
}

// GetFormat returns the format q is written in: the one of the string it
// was parsed from, or the one it was built with. It is "" for the zero
// value, as upstream's Format field is. (Upstream exposes a Format field;
// kubewire keeps it in the string to stay 16 bytes.)
func (q Quantity) GetFormat() Format {
	_, f := q.value()
	return f
}

// SetFormat changes the format q is written in and rewrites its string in
// that format. An unknown format is DecimalExponent.
func (q *Quantity) SetFormat(f Format) { *q = newQuantity(q.decimal(), f) }

// IsZero reports whether q is zero.
func (q Quantity) IsZero() bool {
	t := q.text()
	return t == "" || t == "0"
}

// Sign returns -1, 0 or 1 as q is negative, zero or positive.
func (q Quantity) Sign() int {
	switch t := q.text(); {
	case t == "" || t == "0":
		return 0
	case t[0] == '-':
		return -1
	}
	return 1
}

// Value returns q rounded away from zero to a whole number, saturated at
// the int64 limits.
func (q Quantity) Value() int64 { return q.ScaledValue(0) }

// MilliValue returns q × 1000 rounded away from zero, saturated at the int64
// limits.
func (q Quantity) MilliValue() int64 { return q.ScaledValue(Milli) }

// ScaledValue returns q / 10^scale rounded away from zero, saturated at the
// int64 limits: NewQuantity(1, DecimalSI).ScaledValue(Milli) is 1000.
func (q Quantity) ScaledValue(scale Scale) int64 {
	v, _, _ := q.decimal().scaled(int64(scale))
	return v
}

// AsInt64 returns q as an int64 when it is a whole number that fits. Upstream
// also answers false for some whole numbers, depending on how it stores
// them; kubewire answers true for all of them.
func (q Quantity) AsInt64() (int64, bool) {
	v, exact, fits := q.decimal().scaled(0)
	if !exact || !fits {
		return 0, false
	}
	return v, true
}

// AsApproximateFloat64 returns the float64 nearest to q, or ±Inf beyond the
// float64 range.
func (q Quantity) AsApproximateFloat64() float64 { return q.decimal().float64() }

// Cmp returns -1, 0 or 1 as q is less than, equal to or greater than y.
func (q Quantity) Cmp(y Quantity) int {
	if q.s == y.s {
		return 0
	}
	return cmpDecimal(q.decimal(), y.decimal())
}

// CmpInt64 returns -1, 0 or 1 as q is less than, equal to or greater than y.
func (q Quantity) CmpInt64(y int64) int { return cmpDecimal(q.decimal(), fromInt64(y, 0)) }

// Equal reports whether q and v are the same number, whatever their
// formats and spellings. go-cmp uses it.
func (q Quantity) Equal(v Quantity) bool { return q.Cmp(v) == 0 }

// Add sets q to q + y. When q is zero it takes y's format.
//
// Sums are exact, except that when the exponents of q and y are more than
// 100,000 apart (only exponent notation such as 1e99999 gets there) the
// smaller operand is dropped rather than written out digit by digit.
func (q *Quantity) Add(y Quantity) {
	qv, f := q.value()
	yv, yf := y.value()
	if qv.isZero() {
		f = yf
	}
	*q = newQuantity(add(qv, yv), f)
}

// Sub sets q to q - y. When q is zero it takes y's format. See Add.
func (q *Quantity) Sub(y Quantity) {
	qv, f := q.value()
	yv, yf := y.value()
	if qv.isZero() {
		f = yf
	}
	*q = newQuantity(add(qv, yv.negate()), f)
}

// Neg sets q to -q.
func (q *Quantity) Neg() {
	v, f := q.value()
	*q = newQuantity(v.negate(), f)
}

// Set sets q to value, keeping its format.
func (q *Quantity) Set(value int64) { q.SetScaled(value, 0) }

// SetMilli sets q to value/1000, keeping its format.
func (q *Quantity) SetMilli(value int64) { q.SetScaled(value, Milli) }

// SetScaled sets q to value × 10^scale, keeping its format.
func (q *Quantity) SetScaled(value int64, scale Scale) {
	*q = newQuantity(fromInt64(value, int64(scale)), q.GetFormat())
}

// Copy returns a pointer to a copy of q, nil for nil.
func (q *Quantity) Copy() *Quantity {
	if q == nil {
		return nil
	}
	c := *q
	return &c
}

// DeepCopy returns q: a Quantity shares nothing mutable, so a copy is deep.
func (q Quantity) DeepCopy() Quantity { return q }

// DeepCopyInto copies q into out.
func (q *Quantity) DeepCopyInto(out *Quantity) { *out = *q }
