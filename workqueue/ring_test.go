package workqueue

import "testing"

// TestRingFIFO pushes and pops across wrap-arounds and growths and
// checks the order.
func TestRingFIFO(t *testing.T) {
	var r ring
	next, want := int32(0), int32(0)
	for round := range 50 {
		for range round * 7 {
			r.push(slot{rec: next})
			next++
		}
		for range round * 5 {
			if got := r.pop().rec; got != want {
				t.Fatalf("round %d: popped %d, want %d", round, got, want)
			}
			want++
		}
	}
	for r.n > 0 {
		if got := r.pop().rec; got != want {
			t.Fatalf("popped %d, want %d", got, want)
		}
		want++
	}
	if want != next {
		t.Fatalf("popped %d slots, pushed %d", want, next)
	}
}

// TestRingKeepsOrGivesBack: a ring that fills and drains keeps its
// buffer; one that stays small after a burst halves at each drain.
func TestRingKeepsOrGivesBack(t *testing.T) {
	var r ring
	fill := func(n int) {
		for i := range n {
			r.push(slot{rec: int32(i)})
		}
		for r.n > 0 {
			r.pop()
		}
	}
	fill(3000)
	size := len(r.buf)
	for range 100 {
		fill(size/4 + 1)
		if len(r.buf) != size {
			t.Fatalf("buffer of %d became %d while the ring fills to a quarter", size, len(r.buf))
		}
	}
	fill(10)
	if len(r.buf) != size/2 {
		t.Fatalf("buffer of %d is %d after a drain at a low level, want %d", size, len(r.buf), size/2)
	}
	for range 20 {
		fill(10)
	}
	if len(r.buf) != keepRing {
		t.Fatalf("buffer is %d after many small drains, want %d", len(r.buf), keepRing)
	}
}
