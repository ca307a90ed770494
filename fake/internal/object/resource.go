package object

import (
	"slices"
	"strconv"
	"sync"

	"github.com/kubewire/kubewire/api/builtin"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/fieldpath"
)

// Typed is what every generated built-in kind implements: the
// metadata accessors promoted from ObjectMeta and TypeMeta, and the
// generated protobuf codec.
type Typed interface {
	GetObjectMeta() *metav1.ObjectMeta
	SetKind(string)
	SetAPIVersion(string)
	Marshal() ([]byte, error)
	Unmarshal([]byte) error
}

// StorageKey identifies where a resource's objects are stored. Custom
// resources keep theirs when their CustomResourceDefinition changes and
// the resource is registered anew. It is never empty, so that distinct
// keys never share an address.
type StorageKey struct{ Name string }

// Resource is one REST resource the server stores. It is immutable after
// the server registers it.
type Resource struct {
	Kind       registry.Kind
	Storage    *StorageKey
	Custom     bool
	NewTyped   func() Typed // nil for custom resources
	Status     bool         // has a status subresource
	Scale      bool         // has a scale subresource (autoscaling/v1 Scale)
	Generation bool         // objects carry metadata.generation
	// AnnotationsInGeneration: a change of annotations alone is a new
	// generation (Deployments, whose annotations are copied to their
	// ReplicaSets).
	AnnotationsInGeneration bool
	// LabelsInGeneration: a change of labels alone is a new generation
	// (EndpointSlices, whose strategy counts everything but the other
	// metadata).
	LabelsInGeneration bool
	Fields             []string // selectable fields beyond metadata.name/namespace
	// fieldLabels is the field selector conversion of a built-in kind
	// that registers one; nil for the others.
	fieldLabels *fieldLabels
	// ReturnsDeleted: an immediate DELETE answers with the deleted object
	// rather than a Success Status (ReturnDeletedObject in the registry).
	ReturnsDeleted bool
	// JSONPrefix starts an object's JSON before its stored body (built-ins
	// store JSON without kind and apiVersion, as list items are served).
	JSONPrefix []byte

	// ftype is the shape of the kind's objects for field management:
	// built once from builtins for built-in kinds, set at registration
	// for custom resources.
	builtins *fieldpath.Builtins
	typeOnce sync.Once
	Ftype    *fieldpath.Type

	// CRD is what a custom resource's CustomResourceDefinition says of
	// its version; nil for built-in kinds.
	CRD *CRDVersion

	// hub, for a built-in kind served under several versions and
	// stored once, is the resource of its storage version (nil for that
	// resource itself); see LinkVersions.
	hub *Resource
	// versions are the resources sharing a store with this one, this
	// one included (nil when it shares none).
	versions []*Resource
}

// FieldType returns the shape of the kind's objects for field
// management.
func (r *Resource) FieldType() *fieldpath.Type {
	if r.builtins != nil {
		r.typeOnce.Do(func() { r.Ftype = r.builtins.Kind(r.Kind.APIVersion(), r.Kind.Kind) })
	}
	return r.Ftype
}

// NewBuiltin is the Resource of a built-in kind whose objects newTyped
// makes; builtins has the kinds' shapes for field management.
func NewBuiltin(k registry.Kind, newTyped func() Typed, builtins *fieldpath.Builtins) *Resource {
	r := &Resource{
		Kind:     k,
		Storage:  &StorageKey{Name: k.Group + "/" + k.Resource},
		builtins: builtins,
		NewTyped: newTyped,
		Status:   slices.Contains(k.Subresources, "status"),
	}
	if fl, ok := builtinFieldLabels()[k.APIVersion()+"/"+k.Kind]; ok {
		r.fieldLabels = &fl
		r.Fields = fl.selectableBeyondMeta()
	}
	r.ReturnsDeleted = returnDeletedObject[k.Group+"/"+k.Resource]
	r.Generation = generationKinds[r.Key()]
	r.AnnotationsInGeneration = k.Group == "apps" && k.Kind == "Deployment"
	r.LabelsInGeneration = k.Group == "discovery.k8s.io" && k.Kind == "EndpointSlice"
	r.Scale = slices.Contains(k.Subresources, "scale") && scalable(newTyped())
	r.JSONPrefix = []byte(`{"kind":` + strconv.Quote(k.Kind) + `,"apiVersion":` + strconv.Quote(k.APIVersion()) + `,`)
	return r
}

// Builtin is the Resource of the built-in kind k, or false when the kind
// has no generated Go type or cannot be listed.
func Builtin(k registry.Kind, builtins *fieldpath.Builtins) (*Resource, bool) {
	if _, ok := builtin.New(k.APIVersion(), k.Kind); !ok || k.ListKind == "" {
		return nil, false
	}
	newTyped := func() Typed {
		obj, _ := builtin.New(k.APIVersion(), k.Kind)
		return obj.(Typed)
	}
	return NewBuiltin(k, newTyped, builtins), true
}

// Key is the resource's identity in maps: "group/resource".
func (r *Resource) Key() string { return r.Kind.Group + "/" + r.Kind.Resource }
