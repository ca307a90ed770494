package object

import (
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/fake/internal/schema"
)

// CRDVersion is what requests for a custom resource need of its CRD.
type CRDVersion struct {
	Name    string         // the CRD's name
	Storage string         // the CRD's storage version
	Schema  *schema.Schema // the version's structural schema
	Columns []apiextensionsv1.CustomResourceColumnDefinition
	Scale   *apiextensionsv1.CustomResourceSubresourceScale
	// Convert, set when the CRD's conversion strategy is Webhook,
	// converts objects (complete JSON) to apiVersion through the
	// webhook, in one review.
	Convert func(objects [][]byte, apiVersion string) ([][]byte, error)
	// ToStorage converts a draft to the storage
	// version before it is sealed: kube-apiserver stores custom
	// resources converted to it.
	ToStorage func(d *Draft) (*Draft, error)
	// Deprecation is the warning every request to a deprecated version
	// is answered with, or "".
	Deprecation string
}

// StorageVersion is the version the resource's objects are stored at.
func (r *Resource) StorageVersion() string {
	if r.CRD != nil {
		return r.CRD.Storage
	}
	return r.Kind.Version
}

func (r *Resource) IsCRD() bool {
	return r.Kind.Group == "apiextensions.k8s.io" && r.Kind.Resource == "customresourcedefinitions"
}
