package v1

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	"github.com/kubewire/kubewire/api/wire"
)

// Typed CBOR decodes through a ReadOnly table (which shares items found
// by a scan that does not check strings) fail exactly when plain ones
// do and read the same values, for the first object and for a second
// one through the same table, which finds the first's items.
func FuzzObjectMetaCBORReadOnly(f *testing.F) {
	for _, js := range []string{
		`{"name":"a","labels":{"x":"1","y":"2"},"annotations":{"k":"v"},"finalizers":["f"],"ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true}],"managedFields":[{"manager":"m","operation":"Update","time":"2026-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:x":{}}},"f:spec":{}}}]}`,
		`{"name":"b","creationTimestamp":"2026-01-02T03:04:05Z","labels":{"\u00e9":"\u00e8"}}`,
	} {
		cb, err := cborwire.FromJSON([]byte(js))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(cb)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var plain ObjectMeta
		plainErr := cborwire.Decode(in, &plain, nil)
		table := &wire.Decoder{ReadOnly: true}
		for round := range 3 {
			var ro ObjectMeta
			roErr := cborwire.Decode(in, &ro, table)
			if (plainErr == nil) != (roErr == nil) {
				t.Fatalf("round %d: plain decode error %v, read-only decode error %v", round, plainErr, roErr)
			}
			if plainErr != nil {
				continue
			}
			a, errA := json.Marshal(&plain)
			b, errB := json.Marshal(&ro)
			if (errA == nil) != (errB == nil) || !bytes.Equal(a, b) {
				t.Fatalf("round %d: read-only decode reads %s (%v), plain %s (%v)", round, b, errB, a, errA)
			}
		}
	})
}
