package unstructured

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// An object with every metadata field set, as a server would send it.
const fullMetadata = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{
 "name":"w1","generateName":"w-","namespace":"shop","uid":"4f1c2a9e-0d5b-4a7e-9d2c-1b2f3e4a5b6c",
 "resourceVersion":"812","generation":3,
 "creationTimestamp":"2026-11-22T02:10:55Z","deletionTimestamp":"2026-11-22T03:00:00Z",
 "deletionGracePeriodSeconds":30,
 "labels":{"app":"web"},"annotations":{"note":"x"},
 "finalizers":["example.com/cleanup"],
 "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-5d8","uid":"0a1b","controller":true,"blockOwnerDeletion":true},
                    {"apiVersion":"v1","kind":"ConfigMap","name":"cfg","uid":"0c1d"}],
 "managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"example.com/v1","time":"2026-11-22T02:10:55Z",
                   "fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:size":{}}}},
                  {"manager":"widget-controller","operation":"Update","apiVersion":"example.com/v1","time":"2026-11-22T02:11:00Z",
                   "fieldsType":"FieldsV1","fieldsV1":{"f:status":{".":{},"f:ready":{}}},"subresource":"status"}]}}`

// metadataOf reads every accessor of metav1.Object.
func metadataOf(o metav1.Object) map[string]any {
	return map[string]any{
		"name": o.GetName(), "generateName": o.GetGenerateName(), "namespace": o.GetNamespace(),
		"uid": o.GetUID(), "resourceVersion": o.GetResourceVersion(), "generation": o.GetGeneration(),
		"creationTimestamp": o.GetCreationTimestamp(), "deletionTimestamp": o.GetDeletionTimestamp(),
		"deletionGracePeriodSeconds": o.GetDeletionGracePeriodSeconds(),
		"labels":                     o.GetLabels(), "annotations": o.GetAnnotations(), "finalizers": o.GetFinalizers(),
		"ownerReferences": o.GetOwnerReferences(), "managedFields": o.GetManagedFields(),
	}
}

// The same JSON read as a typed object and as an Unstructured gives the
// same values through every accessor of the shared interface.
func TestMetadataAccessorsMatchTyped(t *testing.T) {
	var typed metav1.PartialObjectMetadata
	if err := json.Unmarshal([]byte(fullMetadata), &typed); err != nil {
		t.Fatal(err)
	}
	var u Unstructured
	if err := json.Unmarshal([]byte(fullMetadata), &u); err != nil {
		t.Fatal(err)
	}
	want := metadataOf(&typed)
	if diff := cmp.Diff(want, metadataOf(&u)); diff != "" {
		t.Fatalf("unstructured accessors differ from typed (-typed +unstructured):\n%s", diff)
	}

	// Setting every field from the typed values on an empty Unstructured
	// gives back the same values, and JSON the typed decoder reads alike.
	var set Unstructured
	set.SetName(typed.GetName())
	set.SetGenerateName(typed.GetGenerateName())
	set.SetNamespace(typed.GetNamespace())
	set.SetUID(typed.GetUID())
	set.SetResourceVersion(typed.GetResourceVersion())
	set.SetGeneration(typed.GetGeneration())
	set.SetCreationTimestamp(typed.GetCreationTimestamp())
	set.SetDeletionTimestamp(typed.GetDeletionTimestamp())
	set.SetDeletionGracePeriodSeconds(typed.GetDeletionGracePeriodSeconds())
	set.SetLabels(typed.GetLabels())
	set.SetAnnotations(typed.GetAnnotations())
	set.SetFinalizers(typed.GetFinalizers())
	set.SetOwnerReferences(typed.GetOwnerReferences())
	set.SetManagedFields(typed.GetManagedFields())
	if diff := cmp.Diff(want, metadataOf(&set)); diff != "" {
		t.Fatalf("after setting every field (-want +got):\n%s", diff)
	}
	b, err := json.Marshal(&set)
	if err != nil {
		t.Fatal(err)
	}
	var back metav1.PartialObjectMetadata
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, metadataOf(&back)); diff != "" {
		t.Fatalf("typed decode of the set object (-want +got):\n%s", diff)
	}

	// Clearing removes the fields.
	set.SetDeletionTimestamp(nil)
	set.SetDeletionGracePeriodSeconds(nil)
	set.SetOwnerReferences(nil)
	set.SetManagedFields(nil)
	set.SetCreationTimestamp(metav1.Time{})
	md := set.Object["metadata"].(map[string]any)
	for _, f := range []string{"deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences", "managedFields", "creationTimestamp"} {
		if _, ok := md[f]; ok {
			t.Errorf("%s still set after clearing it", f)
		}
	}
}

// Fields of the wrong type read as zero values, never a panic.
func TestMetadataAccessorsOnBadShapes(t *testing.T) {
	u := Unstructured{Object: map[string]any{"metadata": map[string]any{
		"uid": 5, "creationTimestamp": "yesterday", "deletionTimestamp": true,
		"ownerReferences": []any{"not an object", map[string]any{"name": 7, "controller": "yes"}},
		"managedFields":   "none", "deletionGracePeriodSeconds": "30",
	}}}
	if u.GetUID() != "" || !u.GetCreationTimestamp().Time.IsZero() || u.GetDeletionTimestamp() != nil ||
		u.GetManagedFields() != nil || u.GetDeletionGracePeriodSeconds() != nil {
		t.Errorf("bad shapes read as non-zero: %v", metadataOf(&u))
	}
	if refs := u.GetOwnerReferences(); len(refs) != 1 || refs[0].Name != "" || refs[0].Controller != nil {
		t.Errorf("owner references = %+v, want one zero entry", refs)
	}
	var empty Unstructured
	_ = metadataOf(&empty)
}
