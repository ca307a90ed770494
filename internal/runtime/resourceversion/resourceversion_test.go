package resourceversion

import "testing"

func TestComparable(t *testing.T) {
	for rv, want := range map[string]bool{
		"1": true, "42": true, "184467440737095516160": true,
		"": false, "0": false, "007": false, "-1": false, "12a": false, "lagging-7": false, " 1": false,
	} {
		if got := Comparable(rv); got != want {
			t.Errorf("Comparable(%q) = %v, want %v", rv, got, want)
		}
	}
}

func TestLess(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"9", "10", true}, {"10", "9", false}, {"5", "5", false},
		{"18446744073709551615", "18446744073709551616", true},
		{"99999999999999999999", "100000000000000000000", true},
		{"123", "122", false},
	} {
		if got := Less(tt.a, tt.b); got != tt.want {
			t.Errorf("Less(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
