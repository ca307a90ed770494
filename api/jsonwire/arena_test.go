package jsonwire

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/kubewire/kubewire/api/wire"
)

func TestPlainStringsShareChunks(t *testing.T) {
	long := strings.Repeat("x", wire.ArenaMaxString+1)
	in := `["a","bc","` + long + `","d\"e",""]`
	d := NewDecoder([]byte(in), nil)
	var got []string
	if !d.OpenArray("[]string") {
		t.Fatal(d.Err())
	}
	for i := 0; d.NextElem(i); i++ {
		var s string
		String(d, &s)
		got = append(got, s)
	}
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "bc", long, `d"e`, ""}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
	// "a" and "bc" are one chunk, side by side; the long string has its
	// own allocation; the chunk is no longer than the input.
	if unsafe.StringData(got[1]) != (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(got[0])), 1)) {
		t.Error("short strings of one decode are not carved from one chunk")
	}
	if cap(d.arena) > len(in) {
		t.Errorf("chunk of %d bytes for %d bytes of input", cap(d.arena), len(in))
	}
	d.Reset([]byte(`"z"`))
	if d.arena != nil {
		t.Error("Reset kept the chunk of the decode before")
	}
}

func TestTableStringsAreNotCarved(t *testing.T) {
	d := NewDecoder([]byte(`["a","b"]`), &wire.Decoder{})
	var s []string
	if !d.OpenArray("[]string") {
		t.Fatal(d.Err())
	}
	for i := 0; d.NextElem(i); i++ {
		var v string
		String(d, &v)
		s = append(s, v)
	}
	if err := d.End(); err != nil || len(s) != 2 {
		t.Fatal(s, err)
	}
	if d.arena != nil {
		t.Error("a decode through a Table carved strings from a chunk")
	}
}

// Boxes come from chunks of the decode under way; Reset drops them, so
// that the values of two decodes never share a chunk.
func TestResetDropsBoxChunks(t *testing.T) {
	d := NewDecoder([]byte(`[[1],"a",1000,1.5,null,null,null,null]`), nil)
	d.Any()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if d.boxes.Chunks() != 5 {
		t.Fatalf("no chunk left after a decode of short values: %+v", d.boxes)
	}
	d.Reset([]byte(`"z"`))
	if d.boxes.Chunks() != 0 {
		t.Error("Reset kept the chunks of the decode before")
	}
}
