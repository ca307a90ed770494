package v1

import "github.com/kubewire/kubewire/api/types"

// Object is implemented by every kind that embeds ObjectMeta, through the
// methods promoted from *ObjectMeta. Reflector, informer and clients use it
// to read names, namespaces and resource versions without knowing the type.
type Object interface {
	GetNamespace() string
	SetNamespace(string)
	GetName() string
	SetName(string)
	GetGenerateName() string
	SetGenerateName(string)
	GetUID() types.UID
	SetUID(types.UID)
	GetResourceVersion() string
	SetResourceVersion(string)
	GetGeneration() int64
	SetGeneration(int64)
	GetCreationTimestamp() Time
	SetCreationTimestamp(Time)
	GetDeletionTimestamp() *Time
	SetDeletionTimestamp(*Time)
	GetDeletionGracePeriodSeconds() *int64
	SetDeletionGracePeriodSeconds(*int64)
	GetLabels() map[string]string
	SetLabels(map[string]string)
	GetAnnotations() map[string]string
	SetAnnotations(map[string]string)
	GetFinalizers() []string
	SetFinalizers([]string)
	GetOwnerReferences() []OwnerReference
	SetOwnerReferences([]OwnerReference)
	GetManagedFields() []ManagedFieldsEntry
	SetManagedFields([]ManagedFieldsEntry)
}

// TypeAccessor is implemented by every object and list kind through the
// methods promoted from its embedded *TypeMeta: the apiVersion and kind
// an object carries on the wire.
type TypeAccessor interface {
	GetAPIVersion() string
	SetAPIVersion(string)
	GetKind() string
	SetKind(string)
}

// ListInterface is implemented by every list kind through the methods
// promoted from *ListMeta.
type ListInterface interface {
	GetResourceVersion() string
	SetResourceVersion(string)
	GetContinue() string
	SetContinue(string)
	GetRemainingItemCount() *int64
	SetRemainingItemCount(*int64)
}

var (
	_ Object        = (*ObjectMeta)(nil)
	_ Object        = (*PartialObjectMetadata)(nil)
	_ TypeAccessor  = (*TypeMeta)(nil)
	_ TypeAccessor  = (*PartialObjectMetadata)(nil)
	_ ListInterface = (*ListMeta)(nil)
)

func (m *ObjectMeta) GetNamespace() string                  { return m.Namespace }
func (m *ObjectMeta) SetNamespace(v string)                 { m.Namespace = v }
func (m *ObjectMeta) GetName() string                       { return m.Name }
func (m *ObjectMeta) SetName(v string)                      { m.Name = v }
func (m *ObjectMeta) GetGenerateName() string               { return m.GenerateName }
func (m *ObjectMeta) SetGenerateName(v string)              { m.GenerateName = v }
func (m *ObjectMeta) GetUID() types.UID                     { return m.UID }
func (m *ObjectMeta) SetUID(v types.UID)                    { m.UID = v }
func (m *ObjectMeta) GetResourceVersion() string            { return m.ResourceVersion }
func (m *ObjectMeta) SetResourceVersion(v string)           { m.ResourceVersion = v }
func (m *ObjectMeta) GetGeneration() int64                  { return m.Generation }
func (m *ObjectMeta) SetGeneration(v int64)                 { m.Generation = v }
func (m *ObjectMeta) GetCreationTimestamp() Time            { return m.CreationTimestamp }
func (m *ObjectMeta) SetCreationTimestamp(v Time)           { m.CreationTimestamp = v }
func (m *ObjectMeta) GetDeletionTimestamp() *Time           { return m.DeletionTimestamp }
func (m *ObjectMeta) SetDeletionTimestamp(v *Time)          { m.DeletionTimestamp = v }
func (m *ObjectMeta) GetDeletionGracePeriodSeconds() *int64 { return m.DeletionGracePeriodSeconds }
func (m *ObjectMeta) SetDeletionGracePeriodSeconds(v *int64) {
	m.DeletionGracePeriodSeconds = v
}
func (m *ObjectMeta) GetLabels() map[string]string            { return m.Labels }
func (m *ObjectMeta) SetLabels(v map[string]string)           { m.Labels = v }
func (m *ObjectMeta) GetAnnotations() map[string]string       { return m.Annotations }
func (m *ObjectMeta) SetAnnotations(v map[string]string)      { m.Annotations = v }
func (m *ObjectMeta) GetFinalizers() []string                 { return m.Finalizers }
func (m *ObjectMeta) SetFinalizers(v []string)                { m.Finalizers = v }
func (m *ObjectMeta) GetOwnerReferences() []OwnerReference    { return m.OwnerReferences }
func (m *ObjectMeta) SetOwnerReferences(v []OwnerReference)   { m.OwnerReferences = v }
func (m *ObjectMeta) GetManagedFields() []ManagedFieldsEntry  { return m.ManagedFields }
func (m *ObjectMeta) SetManagedFields(v []ManagedFieldsEntry) { m.ManagedFields = v }
func (m *ObjectMeta) GetObjectMeta() *ObjectMeta              { return m }
func (m *ListMeta) GetResourceVersion() string                { return m.ResourceVersion }
func (m *ListMeta) SetResourceVersion(v string)               { m.ResourceVersion = v }
func (m *ListMeta) GetContinue() string                       { return m.Continue }
func (m *ListMeta) SetContinue(v string)                      { m.Continue = v }
func (m *ListMeta) GetRemainingItemCount() *int64             { return m.RemainingItemCount }
func (m *ListMeta) SetRemainingItemCount(v *int64)            { m.RemainingItemCount = v }
func (m *ListMeta) GetListMeta() *ListMeta                    { return m }
func (m *TypeMeta) GetAPIVersion() string                     { return m.APIVersion }
func (m *TypeMeta) SetAPIVersion(v string)                    { m.APIVersion = v }
func (m *TypeMeta) GetKind() string                           { return m.Kind }
func (m *TypeMeta) SetKind(v string)                          { m.Kind = v }
