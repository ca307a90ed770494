package wire

import (
	"strings"
	"testing"
	"unsafe"
)

// Carve gives strings equal to their bytes, carved one after another
// from one chunk no larger than the input left; a long string, or one
// past the chunk's end, is allocated on its own or starts a new chunk;
// Drop starts over.
func TestStringArenaCarve(t *testing.T) {
	var a StringArena
	if s := a.Carve(nil, 100); s != "" || a.Left() != 0 {
		t.Fatalf("empty carve: %q, %d left", s, a.Left())
	}
	src := []byte("name")
	first := a.Carve(src, 10)
	src[0] = 'X' // the string does not alias its source
	second := a.Carve([]byte("uid"), 7)
	if first != "name" || second != "uid" {
		t.Fatalf("carved %q, %q", first, second)
	}
	if unsafe.StringData(second) != (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(first)), 4)) {
		t.Error("two short strings were not carved one after the other")
	}
	if a.Left() != 14-4-3 { // chunk of 4+10 bytes: the input left bounds it
		t.Errorf("%d bytes left, want 7", a.Left())
	}
	past := a.Carve([]byte("longer-than-left"), 0)
	if past != "longer-than-left" || a.Left() != 0 {
		t.Errorf("carve past the chunk: %q, %d left", past, a.Left())
	}
	long := strings.Repeat("x", ArenaMaxString+1)
	if got := a.Carve([]byte(long), 1000); got != long || a.Left() != 0 {
		t.Errorf("long string: %d bytes, %d left (a long string takes no chunk)", len(got), a.Left())
	}
	a.Carve([]byte("ab"), 10000)
	if a.Left() != ArenaChunk-2 {
		t.Errorf("%d left, want a full chunk less 2", a.Left())
	}
	a.Drop()
	if a.Left() != 0 {
		t.Error("Drop kept the chunk")
	}
	if first != "name" || second != "uid" {
		t.Errorf("strings changed: %q, %q", first, second)
	}
}
