package types

// UID is the unique id the API server gives every object when it is created.
// It never changes and is never reused, unlike a name.
type UID string

// NodeName is the name of a Node, as used in a Pod's spec.nodeName.
type NodeName string

// Separator joins a namespace and a name in NamespacedName.String.
const Separator = '/'

// NamespacedName is the key of a namespaced object. For a cluster-scoped
// object Namespace is empty.
type NamespacedName struct {
	Namespace string
	Name      string
}

// String returns "namespace/name", and "/name" when Namespace is empty, as
// upstream does.
func (n NamespacedName) String() string {
	return n.Namespace + string(Separator) + n.Name
}

// PatchType is the media type of a PATCH request body; it is sent as the
// request's Content-Type and selects how the server applies the patch.
type PatchType string

// The patch types the API server accepts.
const (
	JSONPatchType           PatchType = "application/json-patch+json"
	MergePatchType          PatchType = "application/merge-patch+json"
	StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"
	// ApplyPatchType is server-side apply with a YAML (or JSON) body; it is
	// the same value as ApplyYAMLPatchType.
	ApplyPatchType     PatchType = ApplyYAMLPatchType
	ApplyYAMLPatchType PatchType = "application/apply-patch+yaml"
	ApplyCBORPatchType PatchType = "application/apply-patch+cbor"
)
