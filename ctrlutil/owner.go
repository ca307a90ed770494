package ctrlutil

import (
	"errors"
	"fmt"
	"strings"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
)

// ErrAlreadyOwned is matched by the error SetControllerReference
// returns when obj already has another controller owner.
var ErrAlreadyOwned = errors.New("object already has another controller")

// ErrInvalidOwner is matched by the errors about an owner that cannot
// own obj: no name or uid yet (not created), no apiVersion and kind (or
// only those of a metadata-only read, PartialObjectMetadata), or
// a namespace other than obj's.
var ErrInvalidOwner = errors.New("invalid owner")

// SetControllerReference makes owner the controller of obj: it adds (or
// refreshes) an ownerReference to owner with controller and
// blockOwnerDeletion set, so that the garbage collector deletes obj with
// owner and controller.Owns queues owner's Request when obj changes. It
// refuses, with ErrAlreadyOwned, when obj already has a controller other
// than owner: two controllers fighting over one object is a bug to
// surface, not to paper over.
//
// owner must have been read from the server (its uid is needed); its
// apiVersion and kind come from the object, or from its KindInfo for
// generated kinds. An object of a metadata-only informer or list says it
// is a meta.k8s.io/v1 PartialObjectMetadata, whatever it stands for: it
// is refused (ErrInvalidOwner) until its APIVersion and Kind are set to
// its resource's (on a DeepCopy). obj is modified; owner is only read.
func SetControllerReference(owner, obj client.Object) error {
	ref, err := referenceTo(owner, obj)
	if err != nil {
		return err
	}
	if cur, ok := controller.ControllerOf(obj); ok && !sameObject(cur, ref) {
		return fmt.Errorf("ctrlutil: %s %s/%s is controlled by %s %s, not %s %s: %w",
			kindOf(obj), obj.GetNamespace(), obj.GetName(), cur.Kind, cur.Name, ref.Kind, ref.Name, ErrAlreadyOwned)
	}
	ref.Controller, ref.BlockOwnerDeletion = new(true), new(true) // two variables: a caller may change one
	upsertReference(obj, ref)
	return nil
}

// IsControlledBy tells whether owner is obj's controller: obj has an
// ownerReference with controller set and owner's uid. It is the check a
// Reconcile makes before changing an object it found by name (client-go's
// metav1.IsControlledBy): one another controller, or a person, made is
// not its to change. Like the garbage collector, it compares uids only, so
// an owner deleted and created again under the same name does not
// control what the old one made.
func IsControlledBy(obj, owner client.Object) bool {
	ref, ok := controller.ControllerOf(obj)
	return ok && owner.GetUID() != "" && ref.UID == owner.GetUID()
}

// SetOwnerReference adds (or refreshes) an ownerReference to owner on
// obj without making owner its controller (an existing controller flag
// on that reference is kept). The same requirements as for
// SetControllerReference apply.
func SetOwnerReference(owner, obj client.Object) error {
	ref, err := referenceTo(owner, obj)
	if err != nil {
		return err
	}
	for _, cur := range obj.GetOwnerReferences() {
		if sameObject(cur, ref) {
			ref.Controller, ref.BlockOwnerDeletion = cur.Controller, cur.BlockOwnerDeletion
		}
	}
	upsertReference(obj, ref)
	return nil
}

// referenceTo returns a reference to owner, checking that it may own obj.
func referenceTo(owner, obj client.Object) (metav1.OwnerReference, error) {
	apiVersion, kind := owner.GetAPIVersion(), owner.GetKind()
	if k, ok := owner.(client.Kinded); ok && (apiVersion == "" || kind == "") {
		info := k.KindInfo()
		apiVersion, kind = info.APIVersion(), info.Kind
	}
	switch {
	case apiVersion == "" || kind == "":
		return metav1.OwnerReference{}, fmt.Errorf("ctrlutil: owner %s has no apiVersion and kind: %w", owner.GetName(), ErrInvalidOwner)
	case groupOf(apiVersion) == "meta.k8s.io" && kind == "PartialObjectMetadata":
		// What a metadata-only read says of every object; a reference
		// to it names no resource the garbage collector can resolve.
		return metav1.OwnerReference{}, fmt.Errorf("ctrlutil: owner %s is metadata only (%s %s), which does not say its kind: "+
			"set its APIVersion and Kind to those of its resource first: %w", owner.GetName(), apiVersion, kind, ErrInvalidOwner)
	case owner.GetName() == "" || owner.GetUID() == "":
		return metav1.OwnerReference{}, fmt.Errorf("ctrlutil: owner %s %q has no uid yet (create it first): %w", kind, owner.GetName(), ErrInvalidOwner)
	case owner.GetNamespace() != "" && owner.GetNamespace() != obj.GetNamespace():
		// The garbage collector ignores such references: owners are
		// cluster-scoped or in the owned object's namespace.
		return metav1.OwnerReference{}, fmt.Errorf("ctrlutil: %s %s/%s cannot own an object in namespace %q: %w",
			kind, owner.GetNamespace(), owner.GetName(), obj.GetNamespace(), ErrInvalidOwner)
	}
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: owner.GetName(), UID: owner.GetUID()}, nil
}

// upsertReference replaces obj's reference to the same object as ref, or
// appends ref.
func upsertReference(obj client.Object, ref metav1.OwnerReference) {
	refs := obj.GetOwnerReferences()
	for i, cur := range refs {
		if sameObject(cur, ref) {
			out := append([]metav1.OwnerReference(nil), refs...) // refs may be the cache's
			out[i] = ref
			obj.SetOwnerReferences(out)
			return
		}
	}
	obj.SetOwnerReferences(append(refs[:len(refs):len(refs)], ref))
}

// sameObject reports whether two references name the same object: same
// group (any version), kind and name.
func sameObject(a, b metav1.OwnerReference) bool {
	return groupOf(a.APIVersion) == groupOf(b.APIVersion) && a.Kind == b.Kind && a.Name == b.Name
}

func groupOf(apiVersion string) string {
	if g, _, ok := strings.Cut(apiVersion, "/"); ok {
		return g
	}
	return ""
}

func kindOf(obj client.Object) string {
	if k := obj.GetKind(); k != "" {
		return k
	}
	if k, ok := obj.(client.Kinded); ok {
		return k.KindInfo().Kind
	}
	return fmt.Sprintf("%T", obj)
}
