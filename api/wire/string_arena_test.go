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

// CarveShort copies 32 bytes whatever the length: the bytes it writes
// past a string must never reach a string carved before, the strings
// sit one after another as Carve's do, and each case it cannot serve (an
// empty or longer string, a capacity or chunk short of 32 bytes) carves
// nothing.
func TestStringArenaCarveShort(t *testing.T) {
	var a StringArena
	a.Carve([]byte("x"), 4000) // a chunk of 4001 bytes
	var got, want []string
	for round := 0; round < 3; round++ {
		for n := 1; n <= 32; n++ {
			src := make([]byte, n, n+32)
			for i := range src[:cap(src)] {
				src[:cap(src)][i] = 0xff // past n: bytes that must not show
			}
			for i := range src {
				src[i] = byte('a' + (n+i)%26)
			}
			before := a.Left()
			s, ok := a.CarveShort(src)
			if !ok {
				if before >= 32 {
					t.Fatalf("%d bytes with %d left in the chunk: not carved", n, before)
				}
				continue
			}
			if a.Left() != before-n {
				t.Fatalf("%d bytes took %d of the chunk", n, before-a.Left())
			}
			if len(got) > 0 {
				last := got[len(got)-1]
				if unsafe.StringData(s) != (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(last)), len(last))) {
					t.Fatalf("%d bytes not carved right after the last string", n)
				}
			}
			got, want = append(got, s), append(want, string(src))
			clear(src[:cap(src)])
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("after carving %d bytes, string %d is %q, want %q", n, i, got[i], want[i])
				}
			}
		}
	}
	if len(got) < 3*32-5 {
		t.Errorf("only %d of %d strings carved by CarveShort", len(got), 3*32)
	}

	var b StringArena
	b.Carve([]byte("x"), 100)
	for _, c := range []struct {
		name string
		src  []byte
	}{
		{"empty", make([]byte, 0, 64)},
		{"33 bytes", make([]byte, 33, 64)},
		{"capacity of 31", make([]byte, 5, 31)},
	} {
		left := b.Left()
		if s, ok := b.CarveShort(c.src); ok || s != "" || b.Left() != left {
			t.Errorf("%s: carved %q, ok %v, %d -> %d left", c.name, s, ok, left, b.Left())
		}
	}
	for b.Left() >= 32 {
		b.CarveShort(make([]byte, 1, 32))
	}
	left := b.Left()
	if _, ok := b.CarveShort(make([]byte, 1, 32)); ok || b.Left() != left {
		t.Errorf("a chunk of %d bytes left took a 32-byte copy", left)
	}
}
