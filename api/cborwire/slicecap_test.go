package cborwire

import "testing"

// SliceCap sizes a slice at the head's count when that many elements fit
// in the bytes Grow trusts, and bounds it when a head claims more
// elements than the input could make (one byte each, each element a
// kilobyte in memory).
func TestSliceCapTrustsCountsTheInputBounds(t *testing.T) {
	type big [1024]byte
	d := NewDecoder(make([]byte, 1000), nil)
	for _, c := range []struct {
		n, want int
	}{
		{-1, 0}, {0, 0}, {3, 3},
		{(2*1000 + maxPrealloc) / 1024, (2*1000 + maxPrealloc) / 1024},
		{(2*1000+maxPrealloc)/1024 + 1, firstPrealloc / 1024},
		{1000, firstPrealloc / 1024},
	} {
		if got := SliceCap[big](d, c.n); got != c.want {
			t.Errorf("SliceCap[[1024]byte](%d) over 1000 bytes = %d, want %d", c.n, got, c.want)
		}
	}
	// Small elements: a count the input allows is taken as it is.
	if got := SliceCap[string](d, 1000); got != 1000 {
		t.Errorf("SliceCap[string](1000) over 1000 bytes = %d, want 1000", got)
	}
}
