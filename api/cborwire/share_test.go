package cborwire

import (
	"testing"
	"unsafe"

	"github.com/kubewire/kubewire/api/wire"
)

// boxOf is the data word of an interface: the box holding a slice
// header.
func boxOf(v any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1] }

// Through a ReadOnly table an array equal to one decoded before comes
// back in the same box (24 bytes per holder otherwise), as on the JSON
// path; empty arrays share one box too.
func TestSharedArraysShareTheirBox(t *testing.T) {
	obj := func(name string) []byte {
		return item(h(majorMap, 3), bstr("name"), bstr(name),
			bstr("finalizers"), h(majorArray, 2), bstr("a"), bstr("b"),
			bstr("empty"), h(majorArray, 0))
	}
	table := &wire.Decoder{ReadOnly: true}
	var got []map[string]any
	for _, name := range []string{"x", "y", "z"} {
		d := NewDecoder(obj(name), table)
		got = append(got, d.AnyObject())
		if err := d.End(); err != nil {
			t.Fatal(err)
		}
	}
	if boxOf(got[1]["finalizers"]) != boxOf(got[2]["finalizers"]) {
		t.Error("equal arrays are boxed once per object")
	}
	if boxOf(got[0]["empty"]) != boxOf(got[2]["empty"]) {
		t.Error("empty arrays are boxed once per object")
	}
	if s := got[2]["finalizers"].([]any); len(s) != 2 || s[0] != "a" || s[1] != "b" {
		t.Errorf("finalizers = %v", s)
	}
	d := NewDecoder(obj("p"), nil)
	plain := d.AnyObject()
	if boxOf(plain["finalizers"]) == boxOf(got[2]["finalizers"]) {
		t.Error("a plain decode shares a box")
	}
}

// StringMap reads through a ReadOnly table into one shared map whatever
// the key order, and a plain decode into maps of their own.
func TestStringMapSharing(t *testing.T) {
	labels := func(keys ...string) []byte {
		b := h(majorMap, uint64(len(keys)))
		for _, k := range keys {
			b = append(b, bstr(k)...)
			b = append(b, bstr("v"+k)...)
		}
		return b
	}
	table := &wire.Decoder{ReadOnly: true}
	var got []map[string]string
	for _, in := range [][]byte{labels("a", "b"), labels("b", "a"), labels("a", "b"), labels("a", "c")} {
		var m map[string]string
		d := NewDecoder(in, table)
		StringMap(d, &m)
		if err := d.End(); err != nil {
			t.Fatal(err)
		}
		got = append(got, m)
	}
	ptr := func(m map[string]string) uintptr { return uintptr(*(*unsafe.Pointer)(unsafe.Pointer(&m))) }
	if ptr(got[1]) != ptr(got[2]) {
		t.Error("equal maps in another key order are not shared")
	}
	if ptr(got[2]) == ptr(got[3]) || got[3]["c"] != "vc" || len(got[3]) != 2 {
		t.Errorf("a different map is %v", got[3])
	}
	var m map[string]string
	d := NewDecoder(item(labels("a", "b")), nil)
	StringMap(d, &m)
	if d.End() != nil || m["a"] != "va" || m["b"] != "vb" || len(m) != 2 {
		t.Errorf("plain StringMap = %v, %v", m, d.Err())
	}
	d = NewDecoder([]byte{0xf6}, nil)
	StringMap(d, &m)
	if d.End() != nil || m != nil {
		t.Errorf("null gives %v, %v", m, d.Err())
	}
}
