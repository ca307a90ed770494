package client

import (
	"errors"
	"fmt"
	"slices"
)

// statusKnown says, for a Resource made by For, whether its kind serves
// a status subresource, as its KindInfo lists: kube-apiserver answers a
// write to the status of a kind without one with 404 '"name" not
// found' for an object that exists, so the client refuses it first. A
// KindInfo whose Subresources is nil (a hand-written one may leave it
// out) says nothing: the server decides, and its 404 is explained.
type statusKnown uint8

const (
	statusUnknown statusKnown = iota // dynamic and metadata resources, KindInfo without Subresources
	statusServed
	statusNotServed
)

func statusKnownOf(subresources []string) statusKnown {
	switch {
	case subresources == nil:
		return statusUnknown
	case slices.Contains(subresources, "status"):
		return statusServed
	}
	return statusNotServed
}

// checkStatusWrite refuses a write to the status subresource of a kind
// whose KindInfo lists none, before any request.
func (r *Resource[T]) checkStatusWrite(verb, name string) error {
	if r.subresource != "status" || r.info.status != statusNotServed {
		return nil
	}
	return invalidOptions("%s %s %q status: kind %s (%s) has no status subresource: its status is a field of the object, written with Update or Patch of the object, not of its status",
		verb, r.info.gvr.Resource, name, r.info.kind, r.info.gvr.apiVersion())
}

// explainStatusNotFound adds to a 404 from the status subresource of a
// resource whose kind's subresources are not known (dynamic, or a KindInfo
// without Subresources) that the resource may have
// no status subresource: kube-apiserver answers so for an object that
// exists then. The error still matches ErrNotFound, since the object
// may also be gone.
func (r *Resource[T]) explainStatusNotFound(err error) error {
	if r.subresource != "status" || r.info.status != statusUnknown || !errors.Is(err, ErrNotFound) {
		return err
	}
	return fmt.Errorf("%w (%s may have no status subresource: then write its status with Update or Patch of the object)", err, r.info.gvr.String())
}
