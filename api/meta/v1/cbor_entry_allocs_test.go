package v1

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
)

// managedFieldsCBOR is the CBOR of an ObjectMeta with n managedFields
// entries, each with its own time and FieldsV1 (kube-apiserver's form,
// through FromJSON).
func managedFieldsCBOR(t *testing.T, n int) []byte {
	entries := make([]string, n)
	for i := range entries {
		entries[i] = fmt.Sprintf(`{"manager":"m%d","operation":"Update","apiVersion":"v1","time":"2026-01-02T03:%02d:%02dZ","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:x%d":{}}}}`, i, i/60%60, i%60, i)
	}
	cb, err := cborwire.FromJSON([]byte(`{"name":"o","managedFields":[` + strings.Join(entries, ",") + `]}`))
	if err != nil {
		t.Fatal(err)
	}
	return cb
}

// A plain decode (no ReadOnly Table: a Get, a List handed to the caller)
// carves the Time and FieldsV1 of its managedFields entries from chunks
// instead of allocating two values per entry: what is left per entry is
// its FieldsV1's JSON.
func TestCBORManagedFieldsEntryAllocations(t *testing.T) {
	const n = 64
	cb := managedFieldsCBOR(t, n)
	var m ObjectMeta
	allocs := testing.AllocsPerRun(20, func() {
		m = ObjectMeta{}
		if err := cborwire.Decode(cb, &m, nil); err != nil {
			t.Fatal(err)
		}
	})
	if per := allocs / n; per > 1.5 {
		t.Errorf("plain decode: %.2f allocations per managedFields entry, want at most 1.5 (the JSON, and the chunks)", per)
	}
	for i, e := range m.ManagedFields {
		want := fmt.Sprintf(`{"f:spec":{"f:x%d":{}}}`, i)
		if e.Time == nil || e.Time.Minute() != i/60%60 || e.Time.Second() != i%60 || string(e.FieldsV1.Raw) != want {
			t.Fatalf("entry %d: time %v, FieldsV1 %s", i, e.Time, e.FieldsV1.Raw)
		}
	}
	// Values of one entry are its own: writing one, or appending to its
	// JSON, leaves its neighbours.
	next := string(m.ManagedFields[1].FieldsV1.Raw)
	m.ManagedFields[0].Time.Time = m.ManagedFields[0].Time.AddDate(1, 0, 0)
	m.ManagedFields[0].FieldsV1.Raw[0] = '['
	m.ManagedFields[0].FieldsV1.Raw = append(m.ManagedFields[0].FieldsV1.Raw, "xxxxxxxxxxxxxxxx"...)
	if m.ManagedFields[1].Time.Year() != 2026 || string(m.ManagedFields[1].FieldsV1.Raw) != next {
		t.Errorf("writing one entry's Time or FieldsV1 changed the next entry's: %v, %s", m.ManagedFields[1].Time, m.ManagedFields[1].FieldsV1.Raw)
	}
}
