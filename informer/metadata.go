package informer

import (
	"fmt"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/client"
)

// MetadataResource returns gvr read as *metav1.PartialObjectMetadata, over
// protobuf for built-in resources and JSON for others (custom resources
// have no protobuf encoding).
func MetadataResource(c *client.Client, gvr client.GroupVersionResource) *client.Resource[*metav1.PartialObjectMetadata] {
	_, builtin := registry.ByResource(gvr.Group, gvr.Version, gvr.Resource)
	return client.Metadata(c, gvr, builtin)
}

// NewMetadata returns an informer caching only the metadata of gvr's
// objects (in namespace, or all namespaces when it is ""): for
// controllers that need names, labels, annotations and owners, at a
// fraction of the memory of full objects. It fails as New does.
//
// Its objects say they are meta.k8s.io/v1 PartialObjectMetadata, as the
// server sends them, not the kind they stand for: an owner reference
// (ctrlutil.SetControllerReference) or an event (events.Ref) about one
// needs that kind named, on a DeepCopy; a controller of them needs
// controller.Options.Kind.
func NewMetadata(c *client.Client, gvr client.GroupVersionResource, namespace string, opts Options[*metav1.PartialObjectMetadata]) (*Informer[*metav1.PartialObjectMetadata], error) {
	if c == nil {
		return nil, fmt.Errorf("informer: NewMetadata needs a client: %w", client.ErrInvalidOptions)
	}
	return New(MetadataResource(c, gvr).Namespace(namespace), opts)
}
