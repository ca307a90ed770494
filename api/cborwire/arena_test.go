package cborwire

import (
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
