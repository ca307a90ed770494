package quantity

import (
	"math"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

func TestSize(t *testing.T) {
	if n := unsafe.Sizeof(Quantity{}); n != 16 {
		t.Errorf("Quantity is %d bytes, want 16", n)
	}
}

func TestZeroValue(t *testing.T) {
	var q Quantity
	got := []any{q.String(), q.IsZero(), q.Sign(), q.Value(), q.MilliValue(), q.GetFormat(), q.AsApproximateFloat64()}
	want := []any{"0", true, 0, int64(0), int64(0), Format(""), 0.0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if !q.Equal(MustParse("0Ki")) || q.Cmp(MustParse("1n")) != -1 {
		t.Error("the zero value does not compare as 0")
	}
}

func TestConstructors(t *testing.T) {
	tests := []struct {
		name   string
		q      *Quantity
		str    string
		format Format
	}{
		{"NewQuantity 1", NewQuantity(1, DecimalSI), "1", DecimalSI},
		{"NewQuantity 1000", NewQuantity(1000, DecimalSI), "1k", DecimalSI},
		{"NewQuantity 1234000", NewQuantity(1234000, DecimalSI), "1234k", DecimalSI},
		{"NewQuantity 1024 binary", NewQuantity(1024, BinarySI), "1Ki", BinarySI},
		{"NewQuantity 1Mi", NewQuantity(1024*1024, BinarySI), "1Mi", BinarySI},
		{"NewQuantity 5 binary", NewQuantity(5, BinarySI), "5", BinarySI},
		{"NewQuantity unknown format", NewQuantity(1000000, "invalidFormatDefaultsToExponent"), "1e6", DecimalExponent},
		{"NewQuantity min int64", NewQuantity(math.MinInt64, DecimalSI), "-9223372036854775808", DecimalSI},
		{"NewQuantity min int64 binary", NewQuantity(math.MinInt64, BinarySI), "-9223372036854775808", BinarySI},
		{"NewQuantity -4Ei binary", NewQuantity(-1<<62, BinarySI), "-4Ei", BinarySI},
		{"NewQuantity zero no format", NewQuantity(0, ""), "0", ""},
		{"NewMilliQuantity 1", NewMilliQuantity(1, DecimalSI), "1m", DecimalSI},
		{"NewMilliQuantity 1000", NewMilliQuantity(1000, DecimalSI), "1", DecimalSI},
		{"NewMilliQuantity 1234000", NewMilliQuantity(1234000, DecimalSI), "1234", DecimalSI},
		{"NewMilliQuantity 1441", NewMilliQuantity(1441, DecimalSI), "1441m", DecimalSI},
		{"NewMilliQuantity 1024 binary", NewMilliQuantity(1024, BinarySI), "1024m", BinarySI},
		{"NewMilliQuantity 1048576 binary", NewMilliQuantity(1024*1024, BinarySI), "1048576m", BinarySI},
		{"NewMilliQuantity unknown format", NewMilliQuantity(1000000, "x"), "1e3", DecimalExponent},
		{"NewScaledQuantity 1n", NewScaledQuantity(1, Nano), "1n", DecimalSI},
		{"NewScaledQuantity 1000n", NewScaledQuantity(1000, Nano), "1u", DecimalSI},
		{"NewScaledQuantity 1000u", NewScaledQuantity(1000, Micro), "1m", DecimalSI},
		{"NewScaledQuantity 1000m", NewScaledQuantity(1000, Milli), "1", DecimalSI},
		{"NewScaledQuantity 0", NewScaledQuantity(0, Nano), "0", DecimalSI},
		{"NewScaledQuantity max*10", NewScaledQuantity(math.MaxInt64, 1), "92233720368547758070", DecimalSI},
		{"NewScaledQuantity 1e21", NewScaledQuantity(1, 21), "1e21", DecimalSI},
		{"NewScaledQuantity below n", NewScaledQuantity(1, -12), "1e-12", DecimalSI},
		{"NewScaledQuantity 1e-10", NewScaledQuantity(1, -10), "100e-12", DecimalSI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.q.String(); got != tt.str {
				t.Errorf("String() = %q, want %q", got, tt.str)
			}
			if got := tt.q.GetFormat(); got != tt.format {
				t.Errorf("GetFormat() = %q, want %q", got, tt.format)
			}
		})
	}
}

func TestSetKeepsFormat(t *testing.T) {
	tests := []struct {
		name string
		set  func(q *Quantity)
		from Format
		want string
	}{
		{"Set binary", func(q *Quantity) { q.Set(2048) }, BinarySI, "2Ki"},
		{"Set decimal", func(q *Quantity) { q.Set(2000) }, DecimalSI, "2k"},
		{"Set exponent", func(q *Quantity) { q.Set(2000) }, DecimalExponent, "2e3"},
		{"SetMilli", func(q *Quantity) { q.SetMilli(1500) }, DecimalSI, "1500m"},
		{"SetMilli binary", func(q *Quantity) { q.SetMilli(1024) }, BinarySI, "1024m"},
		{"SetScaled", func(q *Quantity) { q.SetScaled(3, Giga) }, DecimalSI, "3G"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := NewQuantity(0, tt.from)
			tt.set(q)
			if q.String() != tt.want || q.GetFormat() != tt.from {
				t.Errorf("got %q in %s, want %q in %s", q.String(), q.GetFormat(), tt.want, tt.from)
			}
		})
	}
}

func TestSetFormat(t *testing.T) {
	q := MustParse("1Ki")
	q.SetFormat(DecimalSI)
	if q.String() != "1024" || q.GetFormat() != DecimalSI {
		t.Errorf("SetFormat(DecimalSI) = %q in %s", q.String(), q.GetFormat())
	}
	q.SetFormat(BinarySI)
	if q.String() != "1Ki" || q.GetFormat() != BinarySI {
		t.Errorf("SetFormat(BinarySI) = %q in %s", q.String(), q.GetFormat())
	}
	q.SetFormat(DecimalExponent)
	if q.String() != "1024" || q.GetFormat() != DecimalExponent {
		t.Errorf("SetFormat(DecimalExponent) = %q in %s", q.String(), q.GetFormat())
	}
}

func TestCmp(t *testing.T) {
	tests := []struct {
		x, y string
		want int
	}{
		{"0", "0", 0},
		{"100m", "50m", 1},
		{"50m", "100m", -1},
		{"10000T", "100Gi", 1},
		{"1.500", "1500m", 0},
		{"1Ki", "1024", 0},
		{"1Ki", "1025", -1},
		{"-1", "1n", -1},
		{"-1", "-2", 1},
		{"-1n", "0", -1},
		{"1n", "0", 1},
		{"9223372036854775808", "9223372036854775807", 1},
		{"-9223372036854775809", "-9223372036854775808", -1},
		{"1e2147483646", "1", 1},
		{"1e2147483646", "99999999999999999999999e2147483620", 1},
		{"123456789012345678901234567890", "123456789012345678901234567891", -1},
		{"1e-2147483647", "2n", -1},
		{"0Ki", "0e9", 0},
	}
	for _, tt := range tests {
		t.Run(tt.x+" vs "+tt.y, func(t *testing.T) {
			x, y := MustParse(tt.x), MustParse(tt.y)
			if got := x.Cmp(y); got != tt.want {
				t.Errorf("Cmp = %d, want %d", got, tt.want)
			}
			if got := y.Cmp(x); got != -tt.want {
				t.Errorf("reverse Cmp = %d, want %d", got, -tt.want)
			}
			if got := x.Equal(y); got != (tt.want == 0) {
				t.Errorf("Equal = %v", got)
			}
		})
	}
}

func TestCmpInt64(t *testing.T) {
	tests := []struct {
		q    string
		y    int64
		want int
	}{
		{"1Ki", 1024, 0},
		{"1Ki", 1023, 1},
		{"1023999m", 1024, -1},
		{"1024001m", 1024, 1},
		{"-9223372036854775808", math.MinInt64, 0},
		{"9223372036854775808", math.MaxInt64, 1},
		{"0", 0, 0},
		{"1n", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			if got := MustParse(tt.q).CmpInt64(tt.y); got != tt.want {
				t.Errorf("CmpInt64(%d) = %d, want %d", tt.y, got, tt.want)
			}
		})
	}
}

func TestAddSub(t *testing.T) {
	tests := []struct {
		name   string
		x, y   Quantity
		sub    bool
		str    string
		format Format
	}{
		{"zero plus keeps y's format", MustParse("0"), MustParse("1Gi"), false, "1Gi", BinarySI},
		{"zero value plus", Quantity{}, MustParse("100m"), false, "100m", DecimalSI},
		{"plus zero keeps x", MustParse("100m"), MustParse("0"), false, "100m", DecimalSI},
		{"binary plus decimal", MustParse("1Gi"), MustParse("1"), false, "1073741825", BinarySI},
		{"decimal plus binary", MustParse("1"), MustParse("1Gi"), false, "1073741825", DecimalSI},
		{"fractions", MustParse("1.5"), MustParse("500m"), false, "2", DecimalSI},
		{"mixed signs", MustParse("1"), MustParse("-3"), false, "-2", DecimalSI},
		{"cancel", MustParse("10"), MustParse("1e1"), true, "0", DecimalSI},
		{"past int64", MustParse("4Ei"), MustParse("4Ei"), false, "8Ei", BinarySI},
		{"past uint64", MustParse("18446744073709551615"), MustParse("1"), false, "18446744073709551616", DecimalSI},
		{"far exponents", MustParse("1e30"), MustParse("1n"), false, "1000000000000000000000000000000000000001e-9", DecimalExponent},
		{"too far: smaller dropped", MustParse("1e100002"), MustParse("1"), false, "1e100002", DecimalExponent},
		{"zero minus", MustParse("0"), MustParse("1Gi"), true, "-1Gi", BinarySI},
		{"minus zero", MustParse("100m"), MustParse("0"), true, "100m", DecimalSI},
		{"minus", MustParse("10"), MustParse("1"), true, "9", DecimalSI},
		{"binary minus", MustParse("10"), NewQuantity(1, BinarySI).DeepCopy(), true, "9", DecimalSI},
		{"minus min int64", Quantity{}, *NewQuantity(math.MinInt64, DecimalSI), true, "9223372036854775808", DecimalSI},
		{"one minus min int64", MustParse("1"), *NewQuantity(math.MinInt64, DecimalSI), true, "9223372036854775809", DecimalSI},
		{"scaled min int64", MustParse("1m"), *NewScaledQuantity(math.MinInt64, Milli), true, "9223372036854775809m", DecimalSI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := tt.x
			if tt.sub {
				q.Sub(tt.y)
			} else {
				q.Add(tt.y)
			}
			if q.String() != tt.str || q.GetFormat() != tt.format {
				t.Errorf("got %q in %s, want %q in %s", q.String(), q.GetFormat(), tt.str, tt.format)
			}
		})
	}
	// 4Ei + 4Ei is exactly 2^63, kept as such although it prints as 8Ei,
	// which would parse capped at 2^63-1.
	q := MustParse("4Ei")
	q.Add(MustParse("4Ei"))
	if _, ok := q.AsInt64(); ok || q.Cmp(MustParse("9223372036854775808")) != 0 {
		t.Errorf("4Ei+4Ei = %s, want exactly 2^63", exact(q.decimal()))
	}
}

// TestBinaryPastEi grows a BinarySI value past the largest binary suffix:
// it is then written exactly in decimal, as upstream does.
func TestBinaryPastEi(t *testing.T) {
	q := MustParse("4Ei")
	for range 8 {
		q.Add(q) // up to 2^70
	}
	if q.String() != "1180591620717411303424" || q.GetFormat() != BinarySI {
		t.Errorf("2^70 = %q in %s, want 1180591620717411303424 in BinarySI", q.String(), q.GetFormat())
	}
	if back := MustParse(q.String()); !back.Equal(q) {
		t.Errorf("reparse = %s, want %s", back.String(), q.String())
	}
}

func TestNeg(t *testing.T) {
	tests := []struct {
		in, want string
		format   Format
	}{
		{"0", "0", DecimalSI},
		{"9.01", "-9010m", DecimalSI},
		{"-9.01", "9010m", DecimalSI},
		{"+1", "-1", DecimalSI},
		{"1Ki", "-1Ki", BinarySI},
		{"-9223372036854775808", "9223372036854775808", DecimalSI},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			q := MustParse(tt.in)
			orig := q
			q.Neg()
			if q.String() != tt.want || q.GetFormat() != tt.format {
				t.Errorf("Neg() = %q in %s, want %q in %s", q.String(), q.GetFormat(), tt.want, tt.format)
			}
			if orig.String() != MustParse(tt.in).String() {
				t.Error("Neg changed a copy")
			}
		})
	}
	var z Quantity
	z.Neg()
	if z != (Quantity{}) {
		t.Errorf("zero value Neg() = %#v", z)
	}
}

func TestValues(t *testing.T) {
	tests := []struct {
		in                 string
		value, milli, nano int64
	}{
		{"0", 0, 0, 0},
		{"1", 1, 1000, 1e9},
		{"100m", 1, 100, 1e8},
		{"1500m", 2, 1500, 15e8},
		{"-1500m", -2, -1500, -15e8},
		{"0.0005", 1, 1, 500000},
		{"-0.0005", -1, -1, -500000},
		{".484785E-1", 1, 49, 48478500},
		{"-.484785E-1", -1, -49, -48478500},
		{"-.484785E-7466", -1, -1, -1},
		{"9.5000000001Gi", 10200547329, 10200547328108, math.MaxInt64},
		{"-9.5000000001Gi", -10200547329, -10200547328108, math.MinInt64},
		{"128Mi", 134217728, 134217728000, 134217728000000000},
		{"9223372036854775807", math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{"-9223372036854775808", math.MinInt64, math.MinInt64, math.MinInt64},
		{"1e100", math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{"-1e2147483646", math.MinInt64, math.MinInt64, math.MinInt64},
		{"1n", 1, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			q := MustParse(tt.in)
			got := []int64{q.Value(), q.MilliValue(), q.ScaledValue(Nano)}
			if diff := cmp.Diff([]int64{tt.value, tt.milli, tt.nano}, got); diff != "" {
				t.Errorf("Value, MilliValue, ScaledValue(Nano) mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestScaledValue(t *testing.T) {
	tests := []struct {
		from, to Scale
		want     int64
	}{
		{Nano, Nano, 1}, {Nano, Micro, 1}, {Nano, Milli, 1}, {Nano, 0, 1},
		{Micro, Nano, 1000}, {Micro, Micro, 1}, {Micro, Milli, 1}, {Micro, 0, 1},
		{Milli, Nano, 1000 * 1000}, {Milli, Micro, 1000}, {Milli, Milli, 1}, {Milli, 0, 1},
		{0, Nano, 1000 * 1000 * 1000}, {0, Micro, 1000 * 1000}, {0, Milli, 1000}, {0, 0, 1},
		{2, -2, 100 * 100},
		{Exa, Kilo, 1e15},
	}
	for _, tt := range tests {
		if got := NewScaledQuantity(1, tt.from).ScaledValue(tt.to); got != tt.want {
			t.Errorf("NewScaledQuantity(1, %d).ScaledValue(%d) = %d, want %d", tt.from, tt.to, got, tt.want)
		}
	}
}

func TestAsInt64(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"1", 1, true},
		{"1000m", 1, true},
		{"1500m", 0, false},
		{"1Pi", 1125899906842624, true},
		{"1e18", 1e18, true},
		{"1e19", 0, false},
		{"9223372036854775808", 0, false},
		{"-9223372036854775808", math.MinInt64, true},
		{"-9223372036854775809", 0, false},
		{"1n", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v, ok := MustParse(tt.in).AsInt64()
			if v != tt.want || ok != tt.ok {
				t.Errorf("AsInt64() = %d, %v; want %d, %v", v, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestAsApproximateFloat64(t *testing.T) {
	tests := []struct {
		in   string
		want float64
	}{
		{"0", 0},
		{"100m", 0.1},
		{"1.5Gi", 1610612736},
		{"-1n", -1e-9},
		{"12E", 1.2e19},
		{"123456789012345678901234567890", 1.2345678901234568e29},
		{"1e308", 1e308},
		{"1e400", math.Inf(1)},
		{"-1e400", math.Inf(-1)},
		{"1e2147483646", math.Inf(1)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := MustParse(tt.in).AsApproximateFloat64(); got != tt.want {
				t.Errorf("AsApproximateFloat64() = %g, want %g", got, tt.want)
			}
		})
	}
}

func TestCopies(t *testing.T) {
	q := MustParse("1.5Gi")
	c := q.Copy()
	c.Add(MustParse("1"))
	if q.String() != "1536Mi" {
		t.Errorf("Copy shares state: %s", q.String())
	}
	var out Quantity
	q.DeepCopyInto(&out)
	if out != q || q.DeepCopy() != q {
		t.Error("DeepCopy/DeepCopyInto gave a different value")
	}
	if (*Quantity)(nil).Copy() != nil {
		t.Error("nil Copy() != nil")
	}
}
