package client

import (
	"fmt"
	"strings"

	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
)

// checkKind verifies that an answer decoded for r holds what was asked
// for: a Get of a ConfigMap that comes back as a Secret, or as a body
// with no kind at all, is a broken or hostile answer, never a ConfigMap.
// It applies when r knows its kind (For, DynamicFor); metadata-only reads
// (as=PartialObjectMetadata) and Dynamic without a kind are not checked.
// list says the answer is a list, whose kind is the kind + "List".
func (r *Resource[T]) checkKind(apiVersion, kind string, list bool) error {
	if r.info.kind == "" || r.info.as != "" {
		return nil
	}
	want, wantVersion := r.info.kind, r.info.bodyAPIVersion()
	if list {
		want += "List"
	}
	switch {
	case kind == "":
		return fmt.Errorf("the answer has no kind, want %s %s: %w", wantVersion, want, codec.ErrMalformed)
	case kind != want || (apiVersion != "" && apiVersion != wantVersion):
		got := kind
		if apiVersion != "" {
			got = apiVersion + " " + kind
		}
		return fmt.Errorf("the answer is a %s, want %s %s: %w", errtext.Cut(got), wantVersion, want, codec.ErrMalformed)
	}
	return nil
}

// checkItemKind verifies that item i of a list read from r is of r's
// kind when it says what it is: kube-apiserver leaves the kind of
// built-in items out, and gives custom resources' items the list's
// own, so an item saying it is a ConfigMap in a PodList, or an apps/v1
// Pod, is a broken or hostile answer, never a Pod. Unchecked where
// checkKind is not.
func (r *Resource[T]) checkItemKind(i int, apiVersion, kind string) error {
	if r.info.kind == "" || r.info.as != "" || (kind == "" && apiVersion == "") {
		return nil
	}
	wantVersion := r.info.bodyAPIVersion()
	if (kind == "" || kind == r.info.kind) && (apiVersion == "" || apiVersion == wantVersion) {
		return nil
	}
	got := strings.TrimSpace(apiVersion + " " + kind)
	return fmt.Errorf("item %d is a %s, want %s %s: %w", i, errtext.Cut(got), wantVersion, r.info.kind, codec.ErrMalformed)
}

// checkItemName refuses item i of a list when it has no name, as a
// watch refuses such an event's object: kube-apiserver names every
// object, and a cache would key a nameless one as "namespace/".
func checkItemName(i int, name string) error {
	if name == "" {
		return fmt.Errorf("item %d has no name: %w", i, codec.ErrMalformed)
	}
	return nil
}

// checkKindBeforeItems checks a streamed list's kind when its key came
// before the items (kube-apiserver writes kind and apiVersion first), so
// that no item of another kind is handed over; a kind that comes after
// the items is checked at the end. A Status is left to the end, where
// the whole of it has been read.
func (r *Resource[T]) checkKindBeforeItems(apiVersion, kind string) error {
	if kind == "" || kind == "Status" {
		return nil
	}
	return r.checkKind(apiVersion, kind, true)
}

// checkNamespace verifies that an object read from r's collection is in
// r's namespace when r has one: a list or watch of namespace default
// that hands over an object of kube-system is a broken or hostile
// answer, and a cache of default would hold it. An object of r's
// namespace that names none is given it, so that a cache keys it where
// its listers look; one that names none in a list or watch of every
// namespace of a namespaced kind cannot be keyed and is refused.
func (r *Resource[T]) checkNamespace(obj T) error {
	ns := obj.GetNamespace()
	switch {
	case r.info.scopeKnown && !r.info.namespaced:
		return nil
	case ns == "" && r.namespace != "":
		obj.SetNamespace(r.namespace)
		return nil
	case ns == "" && r.info.scopeKnown:
		return fmt.Errorf("the object %q of a namespaced kind names no namespace: %w", errtext.Cut(obj.GetName()), codec.ErrMalformed)
	case ns == "" || r.namespace == "" || ns == r.namespace:
		return nil
	}
	return fmt.Errorf("the object is in namespace %q, want %q: %w", errtext.Cut(ns), r.namespace, codec.ErrMalformed)
}
