package unstructured

import (
	"encoding/binary"
	"strings"
	"testing"
	"unsafe"
)

// A string value repeated within an object is stored once: the object
// comes back exactly (from Thaw and ThawBeside), and the encoding is
// shorter than one that writes every copy, by about the copies' length.
func TestFreezeWritesRepeatsOnce(t *testing.T) {
	values := strings.Repeat("replicaCount: 3\nimage: registry.example.com/shop:v2\n", 20)
	entry := func(i int) any {
		return map[string]any{"kind": "Deployment", "status": "Synced", "health": map[string]any{"status": "Healthy"},
			"name": "shop-api-" + strings.Repeat("x", i%3), "values": values}
	}
	list := make([]any, 50)
	for i := range list {
		list[i] = entry(i)
	}
	u := &Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "app", "resourceVersion": "12", "uid": "u-1"},
		"spec":     map[string]any{"values": values, "short": "Synced", "key-equal-to-a-value": "Deployment"},
		"status":   map[string]any{"resources": list, "history": []any{values, values, "Healthy"}},
	}}
	f := roundTrip(t, u)
	plain, _, _ := freeze(u, nil, nil)
	if saved := plain.Size() - f.Size(); saved < 52*len(values) {
		t.Errorf("encoding %d B, %d B with every copy written: %d B saved, want at least %d (the repeated values blocks)", f.Size(), plain.Size(), saved, 52*len(values))
	}
	// Thawed copies of one string share its bytes in the encoding.
	th := f.Thaw().Object
	a := th["spec"].(map[string]any)["values"].(string)
	b := th["status"].(map[string]any)["history"].([]any)[1].(string)
	if a != values || b != values || stringData(a) != stringData(b) {
		t.Errorf("thawed copies of a repeated string do not share the encoding's bytes")
	}
	// A previous version with equal repeated strings is shared whole.
	if got := f.ThawBeside(f.Thaw()); mapPointer(got.Object["status"]) == 0 {
		t.Fatal("ThawBeside lost the status")
	}
}

func stringData(s string) uintptr {
	if s == "" {
		return 0
	}
	return uintptr(unsafe.Pointer(unsafe.StringData(s)))
}

// A reference to bytes not wholly before it (Freeze never writes one)
// reads as an empty string, without panicking.
func TestStringRefOutOfRange(t *testing.T) {
	for _, ref := range [][2]uint64{{0, 1 << 40}, {1 << 40, 1}, {5, 100}, {3, 0}, {1, 1}} {
		buf := appendString(appendString(appendString(nil, "n"), "1"), "u")
		buf = append(buf, tagObject, 1)
		buf = appendString(buf, "k")
		buf = binary.AppendUvarint(append(buf, tagStringRef), ref[0])
		buf = binary.AppendUvarint(buf, ref[1])
		f := Frozen{string(buf)}
		got, _ := f.Thaw().Object["k"].(string)
		start := uint64(len(buf) - 1 - len(binary.AppendUvarint(nil, ref[0])) - len(binary.AppendUvarint(nil, ref[1])))
		if ref[0]+ref[1] <= start {
			if want := f.s[ref[0] : ref[0]+ref[1]]; got != want {
				t.Errorf("ref %v: %q, want %q", ref, got, want)
			}
		} else if got != "" {
			t.Errorf("ref %v past its own position read %q", ref, got)
		}
		f.ThawBeside(&Unstructured{Object: map[string]any{"k": "x"}})
	}
}
