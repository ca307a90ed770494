package jsonwire

import (
	"encoding/json"
	"strings"
	"testing"
)

// walkCounts reads one value, checking at every array that Count (the
// memo of one counting scan) agrees with a scan of that array alone.
func walkCounts(t *testing.T, d *Decoder, check bool) {
	switch d.peek() {
	case '[':
		open := d.pos
		if !d.OpenArray("[]any") {
			return
		}
		_, want := d.scanValue(open, len(d.buf))
		if got := d.Count(); check && got != want {
			t.Fatalf("Count of the array at %d = %d, want %d (%s)", open, got, want, d.buf)
		}
		for i := 0; d.NextElem(i); i++ {
			walkCounts(t, d, check)
		}
	case '{':
		if !d.OpenObject("map[string]any") {
			return
		}
		for i := 0; d.NextField(i); i++ {
			if strings.HasPrefix(string(d.Key()), "skip") {
				d.Skip() // arrays the decode never counts
				continue
			}
			walkCounts(t, d, check)
		}
	default:
		d.Skip()
	}
}

var countInputs = []string{
	`[]`, `[ ]`, `[1]`, `[1,2,3]`, `[[],[[]],[[],[]]]`, `[{},{"a":[1,2]},[]]`,
	`{"a":[1,[2,3],{"b":[]}],"c":[[[[4]]]]}`,
	`["[", "]", "\"]", "\\", "a,b", "\\\"[", {"k,":"[,"}]`,
	`{"skip":[1,2,[3,4]],"x":[5,6],"skip2":[[7]],"y":[[8,9],[]]}`,
	` [ 1 , "x" , [ ] , { "a" : [ true , false , null ] } ] `,
	`{"items":[{"c":[{"env":[1,2]},{"env":[]}],"v":[{"p":["a"]}]},{"c":[],"v":[[],[1]]}]}`,
}

func TestCountMemo(t *testing.T) {
	for _, in := range countInputs {
		d := NewDecoder([]byte(in), nil)
		walkCounts(t, d, true)
		if err := d.End(); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// TestCountMemoAcrossReset checks that a Decoder reused for another
// input does not answer from the counts of the one before.
func TestCountMemoAcrossReset(t *testing.T) {
	d := NewDecoder([]byte(`[[1,2,3],[4]]`), nil)
	walkCounts(t, d, true)
	d.Reset([]byte(`[[1],[2,3,4]]`))
	walkCounts(t, d, true)
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
}

// FuzzCount checks that counting ahead ends on any input, and agrees
// with a scan of each array alone on input that decodes.
func FuzzCount(f *testing.F) {
	for _, in := range countInputs {
		f.Add(in)
	}
	f.Add(`[1,[2,`)
	f.Add(`["\`)
	f.Add(`[}]`)
	f.Fuzz(func(t *testing.T, in string) {
		// Malformed input may count wrong (only a capacity); its
		// decode fails.
		d := NewDecoder([]byte(in), nil)
		walkCounts(t, d, json.Valid([]byte(in)))
		_ = d.End()
	})
}

// TestCountBudget checks that a scan meeting more arrays than it keeps
// counts for still answers every Count right.
func TestCountBudget(t *testing.T) {
	in := `{"items":[` + strings.Repeat(`[[],[1,2]],`, 2000) + `[3]],"after":[4,5]}`
	if countBudget(len(in)) >= 2*2000 {
		t.Fatalf("the input does not exceed the budget of %d", countBudget(len(in)))
	}
	d := NewDecoder([]byte(in), nil)
	walkCounts(t, d, true)
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if len(d.memo.counts) > countBudget(len(in)) {
		t.Errorf("%d counts kept, budget %d", len(d.memo.counts), countBudget(len(in)))
	}
}

// TestCountDeepInput checks that counting ahead keeps no stack deeper
// than a decode may go.
func TestCountDeepInput(t *testing.T) {
	n := DefaultMaxDepth * 3
	in := "[" + strings.Repeat("[", n) + strings.Repeat("]", n) + ",1]"
	d := NewDecoder([]byte(in), nil)
	if !d.OpenArray("[]any") {
		t.Fatal(d.Err())
	}
	if got := d.Count(); got != 2 {
		t.Errorf("Count = %d, want 2", got)
	}
	if cap(d.countStack) > 2*DefaultMaxDepth+2 {
		t.Errorf("a stack of %d for a decode limited to %d levels", cap(d.countStack), DefaultMaxDepth)
	}
}
