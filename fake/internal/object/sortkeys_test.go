package object

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// sortKeys writes what a decode into maps and an encode write.
func TestSortKeys(t *testing.T) {
	now := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	grace := int64(30)
	meta := metav1.ObjectMeta{
		Name: "a", Namespace: "ns", UID: "u", Generation: 3, DeletionGracePeriodSeconds: &grace, CreationTimestamp: now,
		Labels:      map[string]string{"b": "2", "a": "1", "é": "<&>"},
		Annotations: map[string]string{"z": `quote " and \ backslash`, "m": "\u2028"},
		Finalizers:  []string{"x/y", "a"},
		ManagedFields: []metav1.ManagedFieldsEntry{{
			Manager: "m", Operation: "Update", APIVersion: "v1", Time: &now, FieldsType: "FieldsV1",
			FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:z":{},"f:a":{".":{},"f:b":{}}},"f:metadata":{}}`),
		}},
	}
	b, err := json.Marshal(&meta)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(m)
	got, err := sortKeys(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{`{"a":1`, `{"a":"1}`, `{"a":1}}`, ``} {
		if _, err := sortKeys([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
