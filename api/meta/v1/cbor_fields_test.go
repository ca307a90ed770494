package v1

import (
	"testing"
	"unsafe"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/wire"
)

// A managedFields entry read as CBOR holds the JSON the JSON path holds
// (keys sorted whatever order they came in); through a ReadOnly table an
// entry equal to one read before, in another key order and another
// object, is the value held before, not a new transcoding.
func TestCBORFieldsV1SharedByContent(t *testing.T) {
	// The same set in three key orders, as kube-apiserver shuffles them.
	forms := [][]byte{
		fieldsCBOR(kv{"f:spec", fieldsCBOR(kv{"f:b", nil}, kv{"f:a", nil})}, kv{"f:metadata", fieldsCBOR(kv{"f:labels", fieldsCBOR(kv{".", nil})})}),
		fieldsCBOR(kv{"f:metadata", fieldsCBOR(kv{"f:labels", fieldsCBOR(kv{".", nil})})}, kv{"f:spec", fieldsCBOR(kv{"f:a", nil}, kv{"f:b", nil})}),
		fieldsCBOR(kv{"f:spec", fieldsCBOR(kv{"f:a", nil}, kv{"f:b", nil})}, kv{"f:metadata", fieldsCBOR(kv{"f:labels", fieldsCBOR(kv{".", nil})})}),
	}
	const want = `{"f:metadata":{"f:labels":{".":{}}},"f:spec":{"f:a":{},"f:b":{}}}`
	table := &wire.Decoder{ReadOnly: true}
	var got []ObjectMeta
	for i, fields := range forms {
		cb := fieldsCBOR(kv{"name", str("o" + string(rune('a'+i)))}, kv{"managedFields", append([]byte{0x81},
			fieldsCBOR(kv{"manager", str("m")}, kv{"time", str("2026-01-02T03:04:0" + string(rune('0'+i)) + "Z")}, kv{"fieldsV1", fields})...)})
		var m ObjectMeta
		if err := cborwire.Decode(cb, &m, table); err != nil {
			t.Fatal(err)
		}
		if s := m.ManagedFields[0].FieldsV1.GetRawString(); s != want {
			t.Errorf("object %d: FieldsV1 = %s, want %s", i, s, want)
		}
		got = append(got, m)
	}
	a, b := got[1].ManagedFields[0].FieldsV1.GetRawBytes(), got[2].ManagedFields[0].FieldsV1.GetRawBytes()
	if unsafe.SliceData(a) != unsafe.SliceData(b) {
		t.Error("equal entries in another key order hold two copies")
	}
	var plain ObjectMeta
	cb := fieldsCBOR(kv{"managedFields", append([]byte{0x81}, fieldsCBOR(kv{"fieldsV1", forms[0]})...)})
	if err := cborwire.Decode(cb, &plain, nil); err != nil {
		t.Fatal(err)
	}
	if string(plain.ManagedFields[0].FieldsV1.Raw) != want {
		t.Errorf("plain decode: Raw = %s, want %s", plain.ManagedFields[0].FieldsV1.Raw, want)
	}
}

// kv is a map entry for fieldsCBOR: a nil value is an empty map.
type kv struct {
	key string
	val []byte
}

// fieldsCBOR writes a map of fewer than 24 entries in the order given,
// keys as byte strings (as kube-apiserver writes them).
func fieldsCBOR(entries ...kv) []byte {
	b := []byte{0xa0 | byte(len(entries))}
	for _, e := range entries {
		b = append(b, str(e.key)...)
		if e.val == nil {
			e.val = []byte{0xa0}
		}
		b = append(b, e.val...)
	}
	return b
}

// str writes a byte string shorter than 24 bytes.
func str(s string) []byte { return append([]byte{0x40 | byte(len(s))}, s...) }
