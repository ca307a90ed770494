package validation

import (
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// ReplicationControllers, as ValidateReplicationController checks them:
// counts, a non-empty selector selecting the template, and a template
// of a pod that always restarts and has no deadline.

func rcKinds(rules map[string]kindRule) {
	rules["/replicationcontrollers"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			e := v.objectMeta(d.Meta, true, subdomainName, true)
			e.addAll(v.rcSpec(&d.Typed.(*corev1.ReplicationController).Spec))
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.rcSpec(&d.Typed.(*corev1.ReplicationController).Spec))
			return e
		},
	}
}

func (v *Validator) rcSpec(s *corev1.ReplicationControllerSpec) errs {
	var e errs
	nonNegative(&e, "spec.minReadySeconds", int64(s.MinReadySeconds))
	if len(s.Selector) == 0 {
		e.required("spec.selector", "")
	}
	if s.Replicas == nil {
		e.required("spec.replicas", "")
	} else {
		nonNegative(&e, "spec.replicas", int64(*s.Replicas))
	}
	t := s.Template
	if t == nil {
		e.required("spec.template", "")
		return e
	}
	if len(s.Selector) > 0 {
		for k, want := range s.Selector {
			if got, ok := t.Labels[k]; !ok || got != want {
				e.invalid("spec.template.metadata.labels", t.Labels, "`selector` does not match template `labels`")
				break
			}
		}
	}
	e.addAll(v.podTemplate(t, "spec.template"))
	if t.Spec.RestartPolicy != "Always" {
		e.notSupported("spec.template.spec.restartPolicy", t.Spec.RestartPolicy, "Always")
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		e.forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in ReplicationController is not Supported")
	}
	return e
}
