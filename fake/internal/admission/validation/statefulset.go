package validation

import (
	"encoding/json"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// StatefulSets, as pkg/apis/apps/validation checks them: policies,
// counts, the service name, a selector that selects the template (whose
// pod spec is checked as a Pod's), and on an update the fields that may
// not change. Not written here yet: the volume claim templates' own
// checks.

func statefulSetKinds(rules map[string]kindRule) {
	rules["apps/statefulsets"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			e := v.objectMeta(d.Meta, true, labelName, true)
			e.addAll(v.statefulSetSpec(&d.Typed.(*appsv1.StatefulSet).Spec, false, false))
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*appsv1.StatefulSet), old.Typed.(*appsv1.StatefulSet)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			// A stored template that no longer passes is tolerated.
			oldErrs := v.statefulSetSpec(&o.Spec, true, false)
			skipTemplate := !oldErrs.empty()
			e.addAll(v.statefulSetSpec(&n.Spec, true, skipTemplate))
			if !sameStatefulSetFixedFields(&n.Spec, &o.Spec) {
				e.forbidden("spec", "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")
			}
			return e
		},
	}
}

// statefulSetSpec is kube-apiserver's ValidateStatefulSetSpec for the
// checks written here; an update tolerates an invalid service name
// (it cannot change) and, with skipTemplate, an invalid template.
func (v *Validator) statefulSetSpec(s *appsv1.StatefulSetSpec, update, skipTemplate bool) errs {
	var e errs
	switch s.PodManagementPolicy {
	case "":
		e.required("spec.podManagementPolicy", "")
	case "OrderedReady", "Parallel":
	default:
		e.invalid("spec.podManagementPolicy", s.PodManagementPolicy, "must be 'OrderedReady' or 'Parallel'")
	}
	switch us := s.UpdateStrategy; us.Type {
	case "":
		e.required("spec.updateStrategy", "")
	case "OnDelete":
		if us.RollingUpdate != nil {
			e.invalid("spec.updateStrategy.rollingUpdate", statefulSetRollingUpdateValue(us.RollingUpdate), "only allowed for updateStrategy 'RollingUpdate'")
		}
	case "RollingUpdate":
		if ru := us.RollingUpdate; ru != nil {
			nonNegative(&e, "spec.updateStrategy.rollingUpdate.partition", int64(int32Value(ru.Partition)))
			if ru.MaxUnavailable != nil {
				const p = "spec.updateStrategy.rollingUpdate.maxUnavailable"
				e.addAll(positiveIntOrPercent(*ru.MaxUnavailable, p))
				if intOrPercentValue(*ru.MaxUnavailable) == 0 {
					e.invalid(p, *ru.MaxUnavailable, "cannot be 0")
				}
				e.addAll(notMoreThan100Percent(*ru.MaxUnavailable, p))
			}
		}
	default:
		e.invalid("spec.updateStrategy", statefulSetStrategyValue(&us), "must be 'RollingUpdate' or 'OnDelete'")
	}
	if p := s.PersistentVolumeClaimRetentionPolicy; p != nil {
		for _, f := range []struct {
			name   string
			policy appsv1.PersistentVolumeClaimRetentionPolicyType
		}{{"whenDeleted", p.WhenDeleted}, {"whenScaled", p.WhenScaled}} {
			if f.policy != "Retain" && f.policy != "Delete" {
				e.notSupported("spec.persistentVolumeClaimRetentionPolicy."+f.name, f.policy, "Retain", "Delete")
			}
		}
	}
	if !update {
		// Claim templates cannot change, so an update tolerates
		// stored invalid ones.
		for i := range s.VolumeClaimTemplates {
			e.addAll(v.pvcSpec(&s.VolumeClaimTemplates[i].Spec, child(index("spec.volumeClaimTemplates", i), "spec"), false))
		}
	}
	nonNegative(&e, "spec.replicas", int64(int32Value(s.Replicas)))
	nonNegative(&e, "spec.minReadySeconds", int64(s.MinReadySeconds))
	if s.Ordinals != nil {
		nonNegative(&e, "spec.ordinals.start", int64(s.Ordinals.Start))
	}
	if !update && s.ServiceName != "" {
		for _, msg := range v.patterns.labelErrors(s.ServiceName) {
			e.invalid("spec.serviceName", s.ServiceName, msg)
		}
	}
	var selErrs errs
	if s.Selector == nil {
		e.required("spec.selector", "")
	} else {
		selErrs = v.labelSelector(s.Selector, "spec.selector", false)
		e.addAll(selErrs)
		if len(s.Selector.MatchLabels)+len(s.Selector.MatchExpressions) == 0 {
			e.invalid("spec.selector", s.Selector, "empty selector is invalid for statefulset")
		}
	}
	if !selErrs.empty() {
		e.invalid("spec.selector", s.Selector, "")
	} else {
		t := s.Template
		if s.Selector == nil || len(s.Selector.MatchLabels)+len(s.Selector.MatchExpressions) > 0 {
			if !selects(s.Selector, t.Labels) {
				e.invalid("spec.template.metadata.labels", t.Labels, "`selector` does not match template `labels`")
			}
		}
		if !skipTemplate {
			// The controller sets each Pod's hostname and subdomain.
			t.Spec.Hostname, t.Spec.Subdomain = "", ""
			t.Spec.Volumes = withClaimVolumes(t.Spec.Volumes, s.VolumeClaimTemplates)
			e.addAll(v.podTemplate(&t, "spec.template"))
		}
		// kube-apiserver checks the template's labels and annotations
		// a second time.
		e.addAll(v.labels(t.Labels, "spec.template.labels"))
		e.addAll(v.annotations(t.Annotations, "spec.template.annotations"))
	}
	if s.Template.Spec.RestartPolicy != "Always" {
		e.notSupported("spec.template.spec.restartPolicy", s.Template.Spec.RestartPolicy, "Always")
	}
	if s.Template.Spec.ActiveDeadlineSeconds != nil {
		e.forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in StatefulSet is not Supported")
	}
	return e
}

// sameStatefulSetFixedFields reports whether an update leaves the spec
// fields a StatefulSet may not change as they were (compared as JSON,
// so nil and empty lists are alike).
func sameStatefulSetFixedFields(n, o *appsv1.StatefulSetSpec) bool {
	c := *n
	c.Replicas, c.Template, c.UpdateStrategy, c.MinReadySeconds = o.Replicas, o.Template, o.UpdateStrategy, o.MinReadySeconds
	c.Ordinals, c.RevisionHistoryLimit, c.PersistentVolumeClaimRetentionPolicy = o.Ordinals, o.RevisionHistoryLimit, o.PersistentVolumeClaimRetentionPolicy
	nb, err1 := json.Marshal(&c)
	ob, err2 := json.Marshal(o)
	return err1 == nil && err2 == nil && string(nb) == string(ob)
}

type statefulSetRollingUpdate struct {
	Partition      int32
	MaxUnavailable *intstr.IntOrString
}

// statefulSetRollingUpdateValue and statefulSetStrategyValue are the
// values as kube-apiserver's errors print them: its internal types as
// JSON, whose fields have no JSON names.
func statefulSetRollingUpdateValue(ru *appsv1.RollingUpdateStatefulSetStrategy) any {
	return statefulSetRollingUpdate{int32Value(ru.Partition), ru.MaxUnavailable}
}

func statefulSetStrategyValue(s *appsv1.StatefulSetUpdateStrategy) any {
	var ru *statefulSetRollingUpdate
	if s.RollingUpdate != nil {
		ru = &statefulSetRollingUpdate{int32Value(s.RollingUpdate.Partition), s.RollingUpdate.MaxUnavailable}
	}
	return struct {
		Type          appsv1.StatefulSetUpdateStrategyType
		RollingUpdate *statefulSetRollingUpdate
	}{s.Type, ru}
}

// withClaimVolumes is a template's volumes as kube-apiserver validates
// them: a PVC volume for each claim template first (Go map order on
// kube-apiserver, template order here), then the template's own volumes
// whose names no claim template takes.
func withClaimVolumes(vols []corev1.Volume, claims []corev1.PersistentVolumeClaim) []corev1.Volume {
	if len(claims) == 0 {
		return vols
	}
	out := make([]corev1.Volume, 0, len(vols)+len(claims))
	names := map[string]bool{}
	for _, c := range claims {
		if names[c.Name] {
			continue
		}
		names[c.Name] = true
		out = append(out, corev1.Volume{Name: c.Name, VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: c.Name}}})
	}
	for _, v := range vols {
		if !names[v.Name] {
			out = append(out, v)
		}
	}
	return out
}
