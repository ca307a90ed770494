package client

import (
	"github.com/kubewire/kubewire/api/unstructured"
)

// Dynamic returns the Resource of any group/version/resource, its objects
// as *unstructured.Unstructured, read as CBOR where the server serves it
// and JSON otherwise, and written in the encoding its reads come in (see
// the package documentation, CBOR). Its scope is taken from the namespace
// given: set one (Namespace) for namespaced resources, none for
// cluster-scoped ones; use DynamicFor with a discovered Mapping to have
// it checked.
func Dynamic(c *Client, gvr GroupVersionResource) *Resource[*unstructured.Unstructured] {
	return &Resource[*unstructured.Unstructured]{
		c:      c,
		info:   resourceInfo{gvr: gvr},
		newObj: func() *unstructured.Unstructured { return new(unstructured.Unstructured) },
	}
}
