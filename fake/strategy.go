package fake

import (
	apiextensionsv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/defaults"
)

// The per-kind rules of kube-apiserver's registry that the fake follows:
// defaults applied when a body is decoded (so that they count as the
// writer's fields), and what a create or an update sets whatever the
// body says. Kinds not named here have none.

// applyDefaults sets the defaults kube-apiserver applies when it decodes
// an object.
func applyDefaults(d *draft) {
	if d.custom != nil {
		d.res.crd.schema.Default(d.custom)
		return
	}
	switch o := d.typed.(type) {
	case *apiextensionsv1.CustomResourceDefinition:
		defaultCRD(o)
		return
	case *appsv1.DaemonSet:
		// A new DaemonSet's template generation is 1, shown in an
		// annotation its writer is taken to own (updates keep it right).
		if _, ok := o.Annotations[daemonSetGenerationAnnotation]; !ok {
			if o.Annotations == nil {
				o.Annotations = map[string]string{}
			}
			o.Annotations[daemonSetGenerationAnnotation] = "1"
		}
	}
	defaults.Apply(d.typed)
}

// validate checks an object about to be stored (old is the stored one,
// nil for a create): metadata as kube-apiserver checks every object's,
// what the fake checks of built-in kinds (see kindCauses), and
// CustomResourceDefinitions and custom resources against their rules.
func (s *Server) validate(d, old *draft) *apiError {
	k := d.res.kind
	var oldMeta *metav1.ObjectMeta
	if old != nil {
		oldMeta = old.meta
	}
	causes := s.metadataCauses(d.res, d.meta, oldMeta)
	switch {
	case d.custom != nil:
		causes = append(causes, d.res.validateCustom(d, old, s.opts.Rules)...)
	case d.res.isCRD():
		causes = append(causes, validateCRD(d.typed.(*apiextensionsv1.CustomResourceDefinition))...)
	default:
		causes = append(causes, kindCauses(d, old)...)
	}
	if len(causes) > 0 {
		return errInvalid(k.Group, k.Kind, d.meta.Name, causes...)
	}
	return nil
}

// generationKinds are the built-in resources ("group/resource") whose
// objects carry metadata.generation (their registry strategy sets it).
var generationKinds = map[string]bool{
	"admissionregistration.k8s.io/mutatingadmissionpolicies":         true,
	"admissionregistration.k8s.io/mutatingadmissionpolicybindings":   true,
	"admissionregistration.k8s.io/mutatingwebhookconfigurations":     true,
	"admissionregistration.k8s.io/validatingadmissionpolicies":       true,
	"admissionregistration.k8s.io/validatingadmissionpolicybindings": true,
	"admissionregistration.k8s.io/validatingwebhookconfigurations":   true,
	"apiextensions.k8s.io/customresourcedefinitions":                 true,
	"apps/daemonsets":                 true,
	"apps/deployments":                true,
	"apps/replicasets":                true,
	"apps/statefulsets":               true,
	"batch/cronjobs":                  true,
	"batch/jobs":                      true,
	"/pods":                           true,
	"/podtemplates":                   true,
	"/replicationcontrollers":         true,
	"discovery.k8s.io/endpointslices": true,
	"flowcontrol.apiserver.k8s.io/flowschemas":                 true,
	"flowcontrol.apiserver.k8s.io/prioritylevelconfigurations": true,
	"networking.k8s.io/ingresses":                              true,
	"networking.k8s.io/ingressclasses":                         true,
	"networking.k8s.io/networkpolicies":                        true,
	"policy/poddisruptionbudgets":                              true,
	"resource.k8s.io/deviceclasses":                            true,
	"resource.k8s.io/devicetaintrules":                         true,
	"resource.k8s.io/resourceslices":                           true,
	"scheduling.k8s.io/priorityclasses":                        true,
}
