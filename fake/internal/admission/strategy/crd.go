package strategy

import (
	"slices"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// prepareCRDCreate sets a new CRD's status: the stored version, no
// accepted names and no conditions yet.
func prepareCRDCreate(crd *apiextensionsv1.CustomResourceDefinition) {
	crd.Status = apiextensionsv1.CustomResourceDefinitionStatus{}
	if v := object.CRDStorageVersion(crd); v != "" {
		crd.Status.StoredVersions = []string{v}
	}
}

// prepareCRDUpdate keeps the status of a CRD and records a new storage
// version as stored.
func prepareCRDUpdate(old, crd *apiextensionsv1.CustomResourceDefinition) {
	crd.Status = old.Status
	if v := object.CRDStorageVersion(crd); v != "" && !slices.Contains(crd.Status.StoredVersions, v) {
		crd.Status.StoredVersions = append(slices.Clone(crd.Status.StoredVersions), v)
	}
}
