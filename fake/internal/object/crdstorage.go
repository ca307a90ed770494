package object

import (
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
)

// CRDStorageVersion is the version marked as stored, or "".
func CRDStorageVersion(crd *apiextensionsv1.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}
