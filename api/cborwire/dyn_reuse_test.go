package cborwire

import (
	"testing"
	"unsafe"

	"github.com/kubewire/kubewire/api/wire"
)

// A decoder reset for each object of a stream reuses its key and value
// tables: decoding the next object allocates what its maps, boxes and
// new strings take, not the tables again.
func TestPlainDynamicResetReusesTables(t *testing.T) {
	cb, err := FromJSON([]byte(`{"apiVersion":"v1","kind":"Thing","metadata":{"name":"a","labels":{"app":"web"}},"spec":{"x":"y","n":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	d := NewDecoder(cb, nil)
	d.AnyObject()
	// Four maps (a header and a group each), one chunk of keys, and one
	// chunk each of string and int boxes.
	const want = 4*2 + 1 + 2
	allocs := testing.AllocsPerRun(100, func() {
		d.Reset(cb)
		d.AnyObject()
	})
	if allocs > want {
		t.Errorf("a decode after Reset made %.0f allocations, want at most %d", allocs, want)
	}
}

// Through a ReadOnly Table the keys of two decodes are the Table's one
// string, as they were before the per-decode key table fronted it.
func TestReadOnlyDynamicKeysComeFromTheTable(t *testing.T) {
	cb, err := FromJSON([]byte(`{"metadata":{"name":"a"},"spec":{"replicas":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	table := &wire.Decoder{ReadOnly: true}
	keyData := func() *byte {
		d := NewDecoder(cb, table)
		m := d.AnyObject()
		if err := d.End(); err != nil {
			t.Fatal(err)
		}
		for k := range m["spec"].(map[string]any) {
			return unsafe.StringData(k)
		}
		t.Fatal("no key")
		return nil
	}
	if first, second := keyData(), keyData(); first != second {
		t.Error(`the key "replicas" of two decodes through one Table is two strings`)
	}
}
