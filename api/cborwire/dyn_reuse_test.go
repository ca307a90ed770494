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

// Through a ReadOnly Table a short string value repeated within a
// decode and across decodes is the Table's one box, as it was before
// the per-decode value table fronted it.
func TestReadOnlyDynamicValuesComeFromTheTable(t *testing.T) {
	cb, err := FromJSON([]byte(`[{"status":"True","type":"Ready"},{"status":"True","type":"Synced"}]`))
	if err != nil {
		t.Fatal(err)
	}
	table := &wire.Decoder{ReadOnly: true}
	decode := func() []any {
		d := NewDecoder(cb, table)
		v := d.Any()
		if err := d.End(); err != nil {
			t.Fatal(err)
		}
		return v.([]any)
	}
	first, second := decode(), decode()
	status := func(objs []any, i int) any { return objs[i].(map[string]any)["status"] }
	if status(first, 0) != "True" || status(second, 1) != "True" {
		t.Fatalf("decoded %v", first)
	}
	if boxData(status(first, 0)) != boxData(status(first, 1)) || boxData(status(first, 0)) != boxData(status(second, 1)) {
		t.Error(`the value "True" is boxed more than once through one Table`)
	}
}
