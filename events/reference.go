package events

import (
	"reflect"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/types"
)

// Object is an event's regarding or related object. Generated kinds (such
// as *corev1.Pod), *unstructured.Unstructured and Ref have its methods.
// Beyond the name and namespace, the recorder reads what the object
// offers: its kind from KindInfo (generated kinds) or GetAPIVersion and
// GetKind, its uid from GetUID, its resourceVersion from
// GetResourceVersion. A *metav1.PartialObjectMetadata does not know its
// kind: pass a Ref for it.
type Object interface {
	GetName() string
	GetNamespace() string
}

// Ref is an explicit object reference, for an object not at hand or one
// whose kind the value does not carry.
type Ref struct {
	APIVersion, Kind string
	Namespace, Name  string
	UID              types.UID
	ResourceVersion  string
	// FieldPath points into the object, such as "spec.containers{web}".
	FieldPath string
}

// GetName returns r.Name.
func (r Ref) GetName() string { return r.Name }

// GetNamespace returns r.Namespace.
func (r Ref) GetNamespace() string { return r.Namespace }

// referenceOf builds the ObjectReference of obj; ok is false for a nil
// object or one without a name.
func referenceOf(obj Object) (ref corev1.ObjectReference, ok bool) {
	if obj == nil {
		return ref, false
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return ref, false
	}
	switch r := obj.(type) {
	case Ref:
		return r.reference(), r.Name != ""
	case *Ref:
		return r.reference(), r.Name != ""
	}
	ref.Name, ref.Namespace = obj.GetName(), obj.GetNamespace()
	switch o := obj.(type) {
	case interface{ KindInfo() registry.Kind }:
		k := o.KindInfo()
		ref.APIVersion, ref.Kind = k.APIVersion(), k.Kind
	case interface {
		GetAPIVersion() string
		GetKind() string
	}:
		if k := o.GetKind(); k != "PartialObjectMetadata" {
			ref.APIVersion, ref.Kind = o.GetAPIVersion(), k
		}
	}
	switch o := obj.(type) {
	case interface{ GetUID() types.UID }:
		ref.UID = o.GetUID()
	case interface{ GetUID() string }:
		ref.UID = types.UID(o.GetUID())
	}
	if o, has := obj.(interface{ GetResourceVersion() string }); has {
		ref.ResourceVersion = o.GetResourceVersion()
	}
	return ref, ref.Name != ""
}

func (r Ref) reference() corev1.ObjectReference {
	return corev1.ObjectReference{
		APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name,
		UID: r.UID, ResourceVersion: r.ResourceVersion, FieldPath: r.FieldPath,
	}
}
