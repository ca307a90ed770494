package unstructured

import (
	"encoding/json"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/types"
)

// Unstructured has the same metadata accessors, with the same Go types, as
// every generated kind: generic code (informers, controllers) treats both
// alike and never has to probe for a method.
var (
	_ metav1.Object       = (*Unstructured)(nil)
	_ metav1.TypeAccessor = (*Unstructured)(nil)
)

// GetUID returns metadata.uid.
func (u *Unstructured) GetUID() types.UID { return types.UID(u.str("metadata", "uid")) }

// SetUID sets metadata.uid; "" removes it.
func (u *Unstructured) SetUID(v types.UID) { u.setStr(string(v), "metadata", "uid") }

// GetCreationTimestamp returns metadata.creationTimestamp; the zero Time
// when it is missing or not an RFC 3339 time.
func (u *Unstructured) GetCreationTimestamp() metav1.Time {
	t, _ := u.time("creationTimestamp")
	if t == nil {
		return metav1.Time{}
	}
	return *t
}

// SetCreationTimestamp sets metadata.creationTimestamp; the zero Time
// removes it.
func (u *Unstructured) SetCreationTimestamp(t metav1.Time) { u.setTime(&t, "creationTimestamp") }

// GetDeletionTimestamp returns metadata.deletionTimestamp, nil when the
// object is not being deleted.
func (u *Unstructured) GetDeletionTimestamp() *metav1.Time {
	t, _ := u.time("deletionTimestamp")
	return t
}

// SetDeletionTimestamp sets metadata.deletionTimestamp; nil removes it.
func (u *Unstructured) SetDeletionTimestamp(t *metav1.Time) { u.setTime(t, "deletionTimestamp") }

// time reads a metadata timestamp; ok is false when it is absent.
func (u *Unstructured) time(field string) (*metav1.Time, bool) {
	s := u.str("metadata", field)
	if s == "" {
		return nil, false
	}
	var t metav1.Time
	if err := t.UnmarshalQueryParameter(s); err != nil {
		return nil, false
	}
	return &t, true
}

func (u *Unstructured) setTime(t *metav1.Time, field string) {
	if t == nil || t.IsZero() {
		RemoveNestedField(u.Object, "metadata", field)
		return
	}
	s, _ := t.MarshalQueryParameter()
	u.set(s, "metadata", field)
}

// GetDeletionGracePeriodSeconds returns metadata.deletionGracePeriodSeconds.
func (u *Unstructured) GetDeletionGracePeriodSeconds() *int64 {
	v, ok, _ := NestedInt64(u.Object, "metadata", "deletionGracePeriodSeconds")
	if !ok {
		return nil
	}
	return &v
}

// SetDeletionGracePeriodSeconds sets metadata.deletionGracePeriodSeconds;
// nil removes it.
func (u *Unstructured) SetDeletionGracePeriodSeconds(v *int64) {
	if v == nil {
		RemoveNestedField(u.Object, "metadata", "deletionGracePeriodSeconds")
		return
	}
	u.set(*v, "metadata", "deletionGracePeriodSeconds")
}

// GetOwnerReferences returns metadata.ownerReferences. Entries that are
// not objects are skipped; fields of the wrong type read as zero values.
func (u *Unstructured) GetOwnerReferences() []metav1.OwnerReference {
	list, _ := nestedNoCopy(u.Object, "metadata", "ownerReferences").([]any)
	var out []metav1.OwnerReference
	for _, r := range list {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		ref := metav1.OwnerReference{
			APIVersion: stringOf(m["apiVersion"]),
			Kind:       stringOf(m["kind"]),
			Name:       stringOf(m["name"]),
			UID:        types.UID(stringOf(m["uid"])),
		}
		if b, ok := m["controller"].(bool); ok {
			ref.Controller = &b
		}
		if b, ok := m["blockOwnerDeletion"].(bool); ok {
			ref.BlockOwnerDeletion = &b
		}
		out = append(out, ref)
	}
	return out
}

// SetOwnerReferences sets metadata.ownerReferences; nil removes them.
func (u *Unstructured) SetOwnerReferences(refs []metav1.OwnerReference) {
	if refs == nil {
		RemoveNestedField(u.Object, "metadata", "ownerReferences")
		return
	}
	v := make([]any, len(refs))
	for i, r := range refs {
		m := map[string]any{"apiVersion": r.APIVersion, "kind": r.Kind, "name": r.Name, "uid": string(r.UID)}
		if r.Controller != nil {
			m["controller"] = *r.Controller
		}
		if r.BlockOwnerDeletion != nil {
			m["blockOwnerDeletion"] = *r.BlockOwnerDeletion
		}
		v[i] = m
	}
	u.set(v, "metadata", "ownerReferences")
}

// GetManagedFields returns metadata.managedFields. Entries that are not
// objects, or that do not decode as ManagedFieldsEntry, are skipped.
func (u *Unstructured) GetManagedFields() []metav1.ManagedFieldsEntry {
	list, _ := nestedNoCopy(u.Object, "metadata", "managedFields").([]any)
	var out []metav1.ManagedFieldsEntry
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		b, err := json.Marshal(m)
		if err != nil {
			continue
		}
		var entry metav1.ManagedFieldsEntry
		if json.Unmarshal(b, &entry) != nil {
			continue
		}
		out = append(out, entry)
	}
	return out
}

// SetManagedFields sets metadata.managedFields; nil removes them, which is
// what a cache that drops managedFields does.
func (u *Unstructured) SetManagedFields(entries []metav1.ManagedFieldsEntry) {
	if entries == nil {
		RemoveNestedField(u.Object, "metadata", "managedFields")
		return
	}
	v := make([]any, 0, len(entries))
	for i := range entries {
		b, err := json.Marshal(&entries[i])
		if err != nil {
			continue
		}
		var m map[string]any
		if json.Unmarshal(b, &m) == nil {
			v = append(v, m)
		}
	}
	u.set(v, "metadata", "managedFields")
}

func nestedNoCopy(obj map[string]any, fields ...string) any {
	v, _, _ := NestedFieldNoCopy(obj, fields...)
	return v
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}
