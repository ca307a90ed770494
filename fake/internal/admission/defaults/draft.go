package defaults

import (
	"strings"

	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// defaultCRD sets what kube-apiserver defaults in a CRD.
func defaultCRD(crd *apiextensionsv1.CustomResourceDefinition) {
	n := &crd.Spec.Names
	if n.Singular == "" {
		n.Singular = strings.ToLower(n.Kind)
	}
	if n.ListKind == "" && n.Kind != "" {
		n.ListKind = n.Kind + "List"
	}
	if crd.Spec.Conversion == nil {
		crd.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: "None"}
	}
}

// Draft sets the defaults kube-apiserver applies when it decodes
// an object.
func Draft(d *object.Draft) {
	if d.Custom != nil {
		d.Res.CRD.Schema.Default(d.Custom)
		return
	}
	switch o := d.Typed.(type) {
	case *apiextensionsv1.CustomResourceDefinition:
		defaultCRD(o)
		return
	case *appsv1.DaemonSet:
		// A new DaemonSet's template generation is 1, shown in an
		// annotation its writer is taken to own (updates keep it right).
		if _, ok := o.Annotations[object.DaemonSetGenerationAnnotation]; !ok {
			if o.Annotations == nil {
				o.Annotations = map[string]string{}
			}
			o.Annotations[object.DaemonSetGenerationAnnotation] = "1"
		}
	}
	Apply(d.Typed)
	d.ThroughStorage()
}
