package quantity

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// exact writes a value as <mantissa>e<exponent> without trailing zeros, or
// "0", so that tests can state values independently of Quantity.
func exact(d decimal) string {
	if d.isZero() {
		return "0"
	}
	d = d.stripZeros()
	b := []byte{}
	if d.neg {
		b = append(b, '-')
	}
	b = d.appendMag(b)
	return string(b) + "e" + itoa(d.exp)
}

func itoa(v int64) string {
	if v < 0 {
		return "-" + itoa(-v)
	}
	if v < 10 {
		return string(rune('0' + v))
	}
	return itoa(v/10) + string(rune('0'+v%10))
}

type parseCase struct {
	In     string
	Str    string // String()
	Format Format // GetFormat()
	Value  string // exact value, see exact
}

// parseCases pin what upstream's ParseQuantity gives for each input: the
// canonical strings follow its quantity tests and golden serialization
// table, and the kept spellings its fast path (see keepsSpelling).
var parseCases = []parseCase{
	// Zeros keep the format of their suffix but always print as "0".
	{"0", "0", DecimalSI, "0"},
	{"0n", "0", DecimalSI, "0"},
	{"0m", "0", DecimalSI, "0"},
	{"0k", "0", DecimalSI, "0"},
	{"0T", "0", DecimalSI, "0"},
	{"0Ki", "0", BinarySI, "0"},
	{"0Gi", "0", BinarySI, "0"},
	{"0e3", "0", DecimalExponent, "0"},
	{"000", "0", DecimalSI, "0"},
	{"0.0", "0", DecimalSI, "0"},
	{"-0", "0", DecimalSI, "0"},

	// Canonical spellings come back as they are.
	{"1", "1", DecimalSI, "1e0"},
	{"9", "9", DecimalSI, "9e0"},
	{"100m", "100m", DecimalSI, "1e-1"},
	{"5n", "5n", DecimalSI, "5e-9"},
	{"4u", "4u", DecimalSI, "4e-6"},
	{"8k", "8k", DecimalSI, "8e3"},
	{"50k", "50k", DecimalSI, "5e4"},
	{"7M", "7M", DecimalSI, "7e6"},
	{"6G", "6G", DecimalSI, "6e9"},
	{"5T", "5T", DecimalSI, "5e12"},
	{"40T", "40T", DecimalSI, "4e13"},
	{"300T", "300T", DecimalSI, "3e14"},
	{"2P", "2P", DecimalSI, "2e15"},
	{"1E", "1E", DecimalSI, "1e18"},
	{"12E", "12E", DecimalSI, "12e18"},
	{"100E", "100E", DecimalSI, "1e20"},
	{"1Ki", "1Ki", BinarySI, "1024e0"},
	{"8Ki", "8Ki", BinarySI, "8192e0"},
	{"7Mi", "7Mi", BinarySI, "7340032e0"},
	{"6Gi", "6Gi", BinarySI, "6442450944e0"},
	{"5Ti", "5Ti", BinarySI, "549755813888e1"},
	{"4Pi", "4Pi", BinarySI, "4503599627370496e0"},
	{"3Ei", "3Ei", BinarySI, "3458764513820540928e0"},
	{"100Ti", "100Ti", BinarySI, "1099511627776e2"},
	{"1023Ki", "1023Ki", BinarySI, "1047552e0"},
	{"1e3", "1e3", DecimalExponent, "1e3"},
	{"1e9", "1e9", DecimalExponent, "1e9"},
	{"1e15", "1e15", DecimalExponent, "1e15"},
	{"80e-3", "80e-3", DecimalExponent, "8e-2"},
	{"1e21", "1e21", DecimalExponent, "1e21"},
	{"10e69", "10e69", DecimalExponent, "1e70"},
	{"9223372036854775807", "9223372036854775807", DecimalSI, "9223372036854775807e0"},

	// Non-canonical spellings are rewritten.
	{"1000m", "1", DecimalSI, "1e0"},
	{"1000M", "1G", DecimalSI, "1e9"},
	{"1024Ki", "1Mi", BinarySI, "1048576e0"},
	{"1024Mi", "1Gi", BinarySI, "1073741824e0"},
	{"2048Ki", "2Mi", BinarySI, "2097152e0"},
	{"0.5", "500m", DecimalSI, "5e-1"},
	{"0.1", "100m", DecimalSI, "1e-1"},
	{"1.5", "1500m", DecimalSI, "15e-1"},
	{"0.001", "1m", DecimalSI, "1e-3"},
	{"0.0005k", "500m", DecimalSI, "5e-1"},
	{"0.00050k", "500m", DecimalSI, "5e-1"},
	{"0.00500", "5m", DecimalSI, "5e-3"},
	{"0.50000", "500m", DecimalSI, "5e-1"},
	{".001", "1m", DecimalSI, "1e-3"},
	{".0001k", "100m", DecimalSI, "1e-1"},
	{"9.01", "9010m", DecimalSI, "901e-2"},
	{"8.1k", "8100", DecimalSI, "81e2"},
	{"40.1T", "40100G", DecimalSI, "401e11"},
	{"2.5P", "2500T", DecimalSI, "25e14"},
	{"1.01E", "1010P", DecimalSI, "101e16"},
	{"1e14", "100e12", DecimalExponent, "1e14"},
	{"1e13", "10e12", DecimalExponent, "1e13"},
	{"1.2e3", "1200", DecimalExponent, "12e2"},
	{"1.3E+6", "1300e3", DecimalExponent, "13e5"},
	{"1.40e9", "1400e6", DecimalExponent, "14e8"},
	{"1.53E12", "1530e9", DecimalExponent, "153e10"},
	{"1.7E18", "1700e15", DecimalExponent, "17e17"},
	{"0.5e0", "500e-3", DecimalExponent, "5e-1"},
	{"0.5e-2", "5e-3", DecimalExponent, "5e-3"},
	{"50e-1", "5", DecimalExponent, "5e0"},
	{"1.5Gi", "1536Mi", BinarySI, "1610612736e0"},
	{"0.5Mi", "512Ki", BinarySI, "524288e0"},
	{"-9.5Gi", "-9728Mi", BinarySI, "-10200547328e0"},
	{"1Pi", "1Pi", BinarySI, "1125899906842624e0"},
	{"+.5", "500m", DecimalSI, "5e-1"},
	{"-0.5", "-500m", DecimalSI, "-5e-1"},

	// DecimalSI past E and below n, and BinarySI past Ei, fall back to
	// exponent notation.
	{"1000E", "1e21", DecimalSI, "1e21"},
	{"1e100", "10e99", DecimalExponent, "1e100"},
	{"9223372036854775808", "9223372036854775808", DecimalSI, "9223372036854775808e0"},
	{"18446744073709551616", "18446744073709551616", DecimalSI, "18446744073709551616e0"},
	{"123456789012345678901234567890", "123456789012345678901234567890", DecimalSI, "12345678901234567890123456789e1"},

	// BinarySI below 1024, or with a fraction, prints as DecimalSI but keeps
	// its format; below 1 it becomes DecimalSI.
	{"0.5Ki", "512", BinarySI, "512e0"},
	{".001Ki", "1024m", BinarySI, "1024e-3"},
	{"100.035Ki", "102435840m", BinarySI, "10243584e-2"},
	{"0.05Gi", "53687091200m", BinarySI, "536870912e-1"},
	{"0.025Ti", "27487790694400m", BinarySI, "274877906944e-1"},
	{".000001Ki", "1024u", DecimalSI, "1024e-6"},
	{".000000001Ki", "1024n", DecimalSI, "1024e-9"},
	{"-0.0001Ki", "-102400u", DecimalSI, "-1024e-4"},

	// Rounding away from zero to 1n, and the BinarySI cap at 2^63-1.
	{"3.001n", "4n", DecimalSI, "4e-9"},
	{"1.1E-9", "2e-9", DecimalExponent, "2e-9"},
	{"0.0000000001", "1n", DecimalSI, "1e-9"},
	{"0.00000000050", "1n", DecimalSI, "1e-9"},
	{"0.5e-9", "1e-9", DecimalExponent, "1e-9"},
	{"0.9n", "1n", DecimalSI, "1e-9"},
	{"0.00000012345", "124n", DecimalSI, "124e-9"},
	{"0.000000000000001", "1n", DecimalSI, "1e-9"},
	{".000000000001Ki", "2n", DecimalSI, "2e-9"},
	{"-.484785E-7466", "-1e-9", DecimalExponent, "-1e-9"},
	{"1e-2147483647", "1e-9", DecimalExponent, "1e-9"},
	{"-9.5000000001Gi", "-10200547328107374183n", BinarySI, "-10200547328107374183e-9"},
	{"9Ei", "9223372036854775807", BinarySI, "9223372036854775807e0"},
	{"8Ei", "9223372036854775807", BinarySI, "9223372036854775807e0"},
	{"-20Ei", "-9223372036854775807", BinarySI, "-9223372036854775807e0"},
	{"9223372036854775807Ki", "9223372036854775807", BinarySI, "9223372036854775807e0"},

	// Spellings upstream keeps as they are, although they are not canonical.
	{"1.441", "1.441", DecimalSI, "1441e-3"},
	{"1.000001", "1.000001", DecimalSI, "1000001e-6"},
	{"1.500", "1.500", DecimalSI, "15e-1"},
	{"100.035k", "100.035k", DecimalSI, "100035e0"},
	{"10.035M", "10.035M", DecimalSI, "10035e3"},
	{"7.123456M", "7.123456M", DecimalSI, "7123456e0"},
	{"5.444T", "5.444T", DecimalSI, "5444e9"},
	{"+1", "+1", DecimalSI, "1e0"},
	{"01", "01", DecimalSI, "1e0"},
	{"1.", "1.", DecimalSI, "1e0"},
	{"1.G", "1.G", DecimalSI, "1e9"},
	{"1E3", "1E3", DecimalExponent, "1e3"},
	{"1E-3", "1E-3", DecimalExponent, "1e-3"},
	{"1e0", "1e0", DecimalExponent, "1e0"},
	{"123e0", "123e0", DecimalExponent, "123e0"},
	{"1e+21", "1e+21", DecimalExponent, "1e21"},
	{"1e2147483646", "1e2147483646", DecimalExponent, "1e2147483646"},
	{"+1Ki", "+1Ki", BinarySI, "1024e0"},
	{"01Ki", "01Ki", BinarySI, "1024e0"},
	{"1.Ki", "1.Ki", BinarySI, "1024e0"},

	// Upstream's scanner takes a number without digits as zero.
	{"-", "0", DecimalSI, "0"},
	{".", "0", DecimalSI, "0"},
	{"-.", "0", DecimalSI, "0"},
	{"+k", "0", DecimalSI, "0"},
	{"Ti", "0", BinarySI, "0"},
	{"e-9", "0", DecimalExponent, "0"},
	{"0Ei", "0", BinarySI, "0"},
	{"-0e-10", "0", DecimalExponent, "0"},
	{"1e2147483647", "10e2147483646", DecimalExponent, "1e2147483647"},
}

func TestParseQuantity(t *testing.T) {
	for _, tt := range parseCases {
		t.Run(tt.In, func(t *testing.T) {
			q, err := ParseQuantity(tt.In)
			if err != nil {
				t.Fatalf("ParseQuantity(%q): %v", tt.In, err)
			}
			got := parseCase{tt.In, q.String(), q.GetFormat(), exact(q.decimal())}
			if diff := cmp.Diff(tt, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseQuantityNegated parses each case with a leading '-'.
func TestParseQuantityNegated(t *testing.T) {
	for _, tt := range parseCases {
		if tt.Str == "0" || strings.ContainsAny(tt.In[:1], "+-") {
			continue
		}
		t.Run(tt.In, func(t *testing.T) {
			q, err := ParseQuantity("-" + tt.In)
			if err != nil {
				t.Fatal(err)
			}
			want := parseCase{tt.In, "-" + tt.Str, tt.Format, "-" + tt.Value}
			if tt.Value[0] == '-' {
				want.Value = tt.Value[1:]
			}
			got := parseCase{tt.In, q.String(), q.GetFormat(), exact(q.decimal())}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseQuantityStringReparses checks that every String reparses to the
// same value and String.
func TestParseQuantityStringReparses(t *testing.T) {
	for _, tt := range parseCases {
		t.Run(tt.In, func(t *testing.T) {
			q := MustParse(tt.In)
			back, err := ParseQuantity(q.String())
			if err != nil {
				t.Fatal(err)
			}
			if !back.Equal(q) || back.String() != q.String() {
				t.Errorf("reparse of %q = %q (%s), want %q (%s)", q.String(), back.String(), exact(back.decimal()), q.String(), tt.Value)
			}
		})
	}
}

func TestParseQuantityErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"", ErrFormatWrong},
		{" 1", ErrFormatWrong},
		{"1 ", ErrFormatWrong},
		{"1.1.M", ErrFormatWrong},
		{"1+1.0M", ErrFormatWrong},
		{"0.1am", ErrFormatWrong},
		{"aoeu", ErrFormatWrong},
		{"1.5.", ErrFormatWrong},
		{"1,5", ErrFormatWrong},
		{"١", ErrFormatWrong},
		{"0.1mi", ErrSuffix},
		{".5i", ErrSuffix},
		{"1i", ErrSuffix},
		{"-3.01i", ErrSuffix},
		{"1K", ErrSuffix},
		{"1kk", ErrSuffix},
		{"1Mi5", ErrSuffix},
		{"1e", ErrSuffix},
		{"1e+", ErrSuffix},
		{"-3.01e-", ErrSuffix},
		{"1ee5", ErrSuffix},
		{"--1", ErrSuffix},
		{"1e4294967297", ErrSuffix},
		{"1e2147483648", ErrSuffix},
		{"1e-2147483648", ErrSuffix},
		{"1000e2147483647", ErrNumeric},
		{"Ei", ErrNumeric},
		{"-.Pi", ErrNumeric},
		{"e-10", ErrNumeric},
		{"-.e-10", ErrNumeric},
		{"10e2147483647", ErrNumeric},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			q, err := ParseQuantity(tt.in)
			if !errors.Is(err, tt.want) {
				t.Errorf("ParseQuantity(%q) = %v, %v; want error %v", tt.in, q, err, tt.want)
			}
		})
	}
}

func TestMustParsePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustParse did not panic")
		}
	}()
	MustParse("Non-Numeric")
}
