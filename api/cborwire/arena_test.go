package cborwire

import (
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/kubewire/kubewire/api/wire"
)

// A plain decode's strings are carved from chunks no larger than its
// input: the values are right, a chunk never outlives what the input
// could hold, and two decodes through one Decoder (Reset) never share a
// chunk.
func TestPlainStringsFromChunks(t *testing.T) {
	long := strings.Repeat("x", wire.ArenaMaxString+1)
	in := item(h(majorMap, 3), bstr("name"), bstr("widget-1"), bstr("uid"), bstr("6b3f"), bstr("long"), bstr(long))
	d := NewDecoder(in, nil)
	m := d.AnyObject()
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	if m["name"] != "widget-1" || m["uid"] != "6b3f" || m["long"] != long {
		t.Fatalf("decoded %v", m)
	}
	name, uid := m["name"].(string), m["uid"].(string)
	if gap := uintptr(unsafe.Pointer(unsafe.StringData(uid))) - uintptr(unsafe.Pointer(unsafe.StringData(name))); gap > uintptr(len(in)) {
		t.Errorf("two short strings of one object %d bytes apart: not one chunk", gap)
	}
	if left := d.arena.Left(); left > len(in) {
		t.Errorf("chunk left %d bytes for an input of %d", left, len(in))
	}
	d.Reset(item(h(majorMap, 1), bstr("name"), bstr("widget-2")))
	if d.arena.Left() != 0 {
		t.Error("Reset keeps the chunk of the last decode")
	}
	m2 := d.AnyObject()
	if m2["name"] != "widget-2" || m["name"] != "widget-1" {
		t.Errorf("after Reset: %v, and the first object's name is now %v", m2, m["name"])
	}
}

// Pointer fields to scalars get distinct zero targets carved from
// chunks: the first chunk of a decode is small, later ones grow to
// maxSlots, a chunk is never larger than the input left could fill, and
// Reset starts a new one.
func TestScalarSlots(t *testing.T) {
	in := make([]byte, 1000)
	d := NewDecoder(in, nil)
	var strs []*string
	var words []*int32
	for i := range 100 {
		s := NewString[string](d)
		w := NewScalar[int32](d)
		if *s != "" || *w != 0 {
			t.Fatalf("slot %d not zero: %q %d", i, *s, *w)
		}
		*s, *w = strings.Repeat("v", i), int32(i)
		strs, words = append(strs, s), append(words, w)
	}
	for i := range 100 {
		if *strs[i] != strings.Repeat("v", i) || *words[i] != int32(i) {
			t.Fatalf("slot %d overwritten: %q %d", i, *strs[i], *words[i])
		}
	}
	if got := cap(d.slots.strs); got != maxSlots {
		t.Errorf("chunk after 100 strings has %d slots, want %d", got, maxSlots)
	}
	if gap := uintptr(unsafe.Pointer(strs[1])) - uintptr(unsafe.Pointer(strs[0])); gap != unsafe.Sizeof("") {
		t.Errorf("the first two strings are %d bytes apart: not one chunk", gap)
	}

	d.Reset(in[:2])
	b := NewScalar[bool](d)
	if *b || len(d.slots.words) != 2 {
		t.Errorf("after Reset on 2 bytes: first chunk of %d slots, value %v", len(d.slots.words), *b)
	}
	for _, w := range words {
		if uintptr(unsafe.Pointer(b)) == uintptr(unsafe.Pointer(w)) {
			t.Fatal("a slot of the last decode handed out again")
		}
	}
	if *words[99] != 99 {
		t.Errorf("the last decode's value changed: %d", *words[99])
	}
}

// The first chunk of a decode has firstSlots slots when the input has
// room: a one-object decode with a few pointer fields makes no 512-byte
// chunk.
func TestScalarSlotsFirstChunkSmall(t *testing.T) {
	d := NewDecoder(make([]byte, 4096), nil)
	NewString[string](d)
	NewScalar[float64](d)
	if len(d.slots.strs) != firstSlots || len(d.slots.words) != firstSlots {
		t.Errorf("first chunks of %d and %d slots, want %d", len(d.slots.strs), len(d.slots.words), firstSlots)
	}
}

// String reads every form of string as stringBytes and intern do,
// through its short path or not: lengths 0-300 in every head size that
// holds them, byte and text strings, ASCII, other UTF-8 and bytes that
// are not UTF-8, null; the value is a copy of the input, and the item
// after it is read from where the string ends.
func TestStringOfEveryForm(t *testing.T) {
	type form struct {
		name string
		enc  []byte
	}
	var forms []form
	for n := 0; n <= 300; n++ {
		s := []byte(strings.Repeat("a", n))
		if n > 0 {
			s[n-1] = 'z'
		}
		for _, major := range []byte{majorBytes, majorText} {
			forms = append(forms, form{fmt.Sprintf("major %d, %d bytes", major, n), append(h(major, uint64(n)), s...)})
			if n < 256 { // a longer head than needed
				forms = append(forms, form{fmt.Sprintf("major %d, %d bytes, 2-byte head", major, n), append([]byte{major<<5 | 24, byte(n)}, s...)})
			}
			forms = append(forms, form{fmt.Sprintf("major %d, %d bytes, 3-byte head", major, n), append([]byte{major<<5 | 25, byte(n >> 8), byte(n)}, s...)})
			if n > 0 {
				indef := item([]byte{major<<5 | 31}, h(major, 1), s[:1], h(major, uint64(n-1)), s[1:], []byte{valBreak})
				forms = append(forms, form{fmt.Sprintf("major %d, %d bytes, indefinite", major, n), indef})
			}
		}
		for i, other := range []string{"\u00e9", "\xff"} { // other UTF-8, not UTF-8
			if n >= len(other) {
				t := append([]byte(nil), s...)
				copy(t[n/2:], other)
				forms = append(forms, form{fmt.Sprintf("byte string of %d bytes, case %d", n, i), append(h(majorBytes, uint64(n)), t...)})
			}
		}
	}
	forms = append(forms, form{"null", []byte{valNull}}, form{"undefined", []byte{valUndefined}})
	for _, f := range forms {
		in := item(h(majorArray, 2), f.enc, tstr("next"))
		want := func() (string, string) {
			d := NewDecoder(in, nil)
			d.OpenArray("")
			var s string
			d.skipTags()
			if b, ok := d.stringBytes("string"); ok {
				s = string(b)
			}
			var next string
			String(d, &next)
			return s, next
		}
		wantS, wantNext := want()
		for _, table := range []*wire.Decoder{nil, {}} {
			d := NewDecoder(append([]byte(nil), in...), table)
			d.OpenArray("")
			got, next := "unset", ""
			if f.enc[0] == valNull || f.enc[0] == valUndefined {
				got = ""
			}
			String(d, &got)
			String(d, &next)
			if err := d.End(); err != nil {
				t.Fatalf("%s, table %v: %v", f.name, table != nil, err)
			}
			if got != wantS || next != wantNext || next != "next" {
				t.Fatalf("%s, table %v: read %q then %q, want %q then %q", f.name, table != nil, got, next, wantS, "next")
			}
			clear(d.buf)
			if got != wantS {
				t.Fatalf("%s, table %v: the string changed with the input: %q", f.name, table != nil, got)
			}
		}
	}
}
