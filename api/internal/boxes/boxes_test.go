package boxes

import (
	"math"
	"runtime"
	"strconv"
	"testing"
)

// Boxed values read back as given, of the same dynamic types the
// runtime's own boxing gives, negative zero included.
func TestBoxesHoldTheirValues(t *testing.T) {
	var a Arena
	const left = 1 << 10
	cases := []struct{ got, want any }{
		{a.String("", left), ""},
		{a.String("name", left), "name"},
		{a.Int(0, left), int64(0)},
		{a.Int(255, left), int64(255)},
		{a.Int(256, left), int64(256)},
		{a.Int(-1, left), int64(-1)},
		{a.Int(math.MinInt64, left), int64(math.MinInt64)},
		{a.Float(0, left), float64(0)},
		{a.Float(1.5, left), 1.5},
		{a.Float(math.MaxFloat64, left), math.MaxFloat64},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %#v, want %#v", i, c.got, c.want)
		}
	}
	neg := a.Float(math.Copysign(0, -1), left).(float64)
	if neg != 0 || !math.Signbit(neg) {
		t.Errorf("negative zero came back as %v (sign %v)", neg, math.Signbit(neg))
	}
	s := a.Slice([]any{"x", int64(1)}, left).([]any)
	if len(s) != 2 || s[0] != "x" || s[1] != int64(1) {
		t.Errorf("slice came back as %#v", s)
	}
}

// Values in one chunk are independent: a later box does not change an
// earlier one, and appending to a carved array moves it instead of
// writing over the next array carved from the same chunk.
func TestNeighboursAreIndependent(t *testing.T) {
	var a Arena
	const left = 1 << 10
	first, second := a.String("first", left), a.String("second", left)
	if first != "first" || second != "second" {
		t.Fatalf("got %v and %v", first, second)
	}
	x, y := a.Elems(2, left), a.Elems(2, left)
	if cap(x) != 2 || cap(y) != 2 {
		t.Fatalf("carved arrays have spare capacity: %d, %d", cap(x), cap(y))
	}
	if &x[1] == &y[0] {
		t.Fatal("two carved arrays overlap")
	}
	y[0], y[1] = "y0", "y1"
	x = append(x, "over")
	x[0] = "x0"
	if y[0] != "y0" || y[1] != "y1" {
		t.Errorf("appending to one carved array changed its neighbour: %v", y)
	}
}

// Elems gives zeroed arrays; an empty one is not nil (an empty JSON or
// CBOR array decodes as []any{}), and a long one is not carved.
func TestElemsLengths(t *testing.T) {
	var a Arena
	if e := a.Elems(0, 10); e == nil || len(e) != 0 {
		t.Errorf("Elems(0) = %#v, want an empty non-nil slice", e)
	}
	if a.Chunks() != 0 {
		t.Error("an empty array started a chunk")
	}
	long := a.Elems(MaxCarvedElem+1, 1<<10)
	if len(long) != MaxCarvedElem+1 || a.Chunks() != 0 {
		t.Errorf("a long array (%d) was carved from a chunk", len(long))
	}
	for _, n := range []int{1, 5, MaxCarvedElem} {
		e := a.Elems(n, 1<<10)
		if len(e) != n || cap(e) != n {
			t.Errorf("Elems(%d): len %d cap %d", n, len(e), cap(e))
		}
		for i, v := range e {
			if v != nil {
				t.Errorf("Elems(%d)[%d] = %v, want nil", n, i, v)
			}
		}
	}
}

// Boxing costs an allocation per chunk, not per value: 1,000 strings,
// integers and floats take a few dozen allocations where the runtime's
// boxing takes 3,000.
func TestAllocatesPerChunk(t *testing.T) {
	strs := make([]string, 1000)
	for i := range strs {
		strs[i] = "value-" + strconv.Itoa(i)
	}
	var sink []any
	allocs := testing.AllocsPerRun(10, func() {
		var a Arena
		sink = sink[:0]
		for i, s := range strs {
			sink = append(sink, a.String(s, 1<<20), a.Int(int64(1000+i), 1<<20), a.Float(float64(i)+0.5, 1<<20))
		}
	})
	// Chunks of 8, 16, 32, 64 then 128: 12 per kind for 1,000 values.
	if allocs > 40 {
		t.Errorf("%v allocations for 3,000 boxes, want at most 40", allocs)
	}
}

// A chunk is never longer than the values the input left can hold, so a
// short input does not allocate a full chunk.
func TestChunkBoundedByInputLeft(t *testing.T) {
	var a Arena
	for range 20 { // grow the next chunk to its limit
		a.Int(1000, 1<<20)
	}
	a.ints.used = len(a.ints.vals)
	a.Int(1000, 3) // three bytes left: at most four integers
	if n := len(a.ints.vals); n > 4 {
		t.Errorf("a chunk of %d integers for 3 bytes of input", n)
	}
	a.Elems(MaxCarvedElem, 0) // the array itself must fit, whatever left says
	if n := len(a.elems.vals); n < MaxCarvedElem {
		t.Errorf("a chunk of %d elements for an array of %d", n, MaxCarvedElem)
	}
}

// Drop forgets every chunk; values boxed before keep theirs alive.
func TestDropKeepsValuesAlive(t *testing.T) {
	var a Arena
	kept := []any{a.String("kept string", 64), a.Int(4096, 64), a.Float(2.5, 64), a.Slice(a.Elems(1, 64), 64)}
	if a.Chunks() != 5 {
		t.Fatalf("%d chunks held, want 5", a.Chunks())
	}
	a.Drop()
	if a.Chunks() != 0 {
		t.Fatalf("%d chunks held after Drop", a.Chunks())
	}
	for range 3 {
		a.String("other", 64)
		a.Int(9999, 64)
		a.Drop()
		runtime.GC()
	}
	if kept[0] != "kept string" || kept[1] != int64(4096) || kept[2] != 2.5 || len(kept[3].([]any)) != 1 {
		t.Errorf("values changed after Drop and GC: %#v", kept)
	}
}
