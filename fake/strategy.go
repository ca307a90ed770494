package fake

import (
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/defaults"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// The per-kind rules of kube-apiserver's registry that the fake follows:
// defaults applied when a body is decoded (so that they count as the
// writer's fields), and what a create or an update sets whatever the
// body says. Kinds not named here have none.

// applyDefaults sets the defaults kube-apiserver applies when it decodes
// an object.
func applyDefaults(d *object.Draft) {
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
	defaults.Apply(d.Typed)
}

// validate checks an object about to be stored (old is the stored one,
// nil for a create): metadata as kube-apiserver checks every object's,
// what the fake checks of built-in kinds (see kindCauses), and
// CustomResourceDefinitions and custom resources against their rules.
func (s *Server) validate(d, old *object.Draft) *apierr.Error {
	k := d.Res.Kind
	var oldMeta *metav1.ObjectMeta
	if old != nil {
		oldMeta = old.Meta
	}
	causes := s.metadataCauses(d.Res, d.Meta, oldMeta)
	switch {
	case d.Custom != nil:
		causes = append(causes, validateCustom(d.Res, d, old, s.opts.Rules)...)
	case d.Res.IsCRD():
		causes = append(causes, validateCRD(d.Typed.(*apiextensionsv1.CustomResourceDefinition))...)
	default:
		causes = append(causes, kindCauses(d, old)...)
	}
	if len(causes) > 0 {
		return apierr.Invalid(k.Group, k.Kind, d.Meta.Name, causes...)
	}
	return nil
}
