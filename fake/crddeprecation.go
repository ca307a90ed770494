package fake

import (
	"slices"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	"github.com/kubewire/kubewire/fake/internal/discovery"
)

// crdDeprecation is the warning kube-apiserver's CRD handler adds to
// every request to version v: none unless v is deprecated, then its
// deprecationWarning when the CRD sets one (empty: none), or one naming
// the served, not deprecated version of highest priority above v.
func crdDeprecation(spec *apiextensionsv1.CustomResourceDefinitionSpec, v apiextensionsv1.CustomResourceDefinitionVersion) string {
	if !v.Deprecated {
		return ""
	}
	if v.DeprecationWarning != nil {
		return *v.DeprecationWarning
	}
	msg := spec.Group + "/" + v.Name + " " + spec.Names.Kind + " is deprecated"
	var better []string
	for _, o := range spec.Versions {
		if o.Served && !o.Deprecated && discovery.CompareVersionPriority(o.Name, v.Name) < 0 {
			better = append(better, o.Name)
		}
	}
	if len(better) == 0 {
		return msg
	}
	slices.SortFunc(better, discovery.CompareVersionPriority)
	return msg + "; use " + spec.Group + "/" + better[0] + " " + spec.Names.Kind
}
