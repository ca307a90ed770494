package validation

import (
	"encoding/json"
	"slices"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Deployments, ReplicaSets and DaemonSets, as pkg/apis/apps/validation
// checks them: replicas, the selector and the template it must select
// (whose pod spec is checked as a Pod's), and their strategies and
// limits.

func workloadKinds(rules map[string]kindRule) {
	rules["apps/deployments"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			e := v.objectMeta(d.Meta, true, subdomainName, true)
			e.addAll(v.deploymentSpec(&d.Typed.(*appsv1.Deployment).Spec))
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*appsv1.Deployment), old.Typed.(*appsv1.Deployment)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.deploymentSpec(&n.Spec))
			e.addAll(immutableSelector(n.Spec.Selector, o.Spec.Selector))
			return e
		},
	}
	rules["apps/daemonsets"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			e := v.objectMeta(d.Meta, true, subdomainName, true)
			e.addAll(v.daemonSetSpec(&d.Typed.(*appsv1.DaemonSet).Spec))
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*appsv1.DaemonSet), old.Typed.(*appsv1.DaemonSet)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(immutableSelector(n.Spec.Selector, o.Spec.Selector))
			e.addAll(v.daemonSetSpec(&n.Spec))
			return e
		},
	}
	rules["apps/replicasets"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			e := v.objectMeta(d.Meta, true, subdomainName, true)
			e.addAll(v.replicaSetSpec(&d.Typed.(*appsv1.ReplicaSet).Spec))
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*appsv1.ReplicaSet), old.Typed.(*appsv1.ReplicaSet)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.replicaSetSpec(&n.Spec))
			e.addAll(immutableSelector(n.Spec.Selector, o.Spec.Selector))
			return e
		},
	}
}

func nonNegative(e *errs, path string, n int64) {
	if n < 0 {
		e.invalid(path, n, "must be greater than or equal to 0")
	}
}

func int32Value(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

func (v *Validator) deploymentSpec(s *appsv1.DeploymentSpec) errs {
	var e errs
	nonNegative(&e, "spec.replicas", int64(int32Value(s.Replicas)))
	e.addAll(v.replicaTemplate(s.Selector, &s.Template))
	e.addAll(deploymentStrategy(&s.Strategy))
	nonNegative(&e, "spec.minReadySeconds", int64(s.MinReadySeconds))
	if s.RevisionHistoryLimit != nil {
		nonNegative(&e, "spec.revisionHistoryLimit", int64(*s.RevisionHistoryLimit))
	}
	if p := s.ProgressDeadlineSeconds; p != nil {
		nonNegative(&e, "spec.progressDeadlineSeconds", int64(*p))
		if *p <= s.MinReadySeconds {
			e.invalid("spec.progressDeadlineSeconds", p, "must be greater than minReadySeconds")
		}
	}
	return e
}

func (v *Validator) replicaSetSpec(s *appsv1.ReplicaSetSpec) errs {
	var e errs
	nonNegative(&e, "spec.replicas", int64(int32Value(s.Replicas)))
	nonNegative(&e, "spec.minReadySeconds", int64(s.MinReadySeconds))
	e.addAll(v.replicaTemplate(s.Selector, &s.Template))
	return e
}

// replicaTemplate checks a selector and the pod template it selects,
// as kube-apiserver does for Deployments and ReplicaSets (both call an
// empty selector invalid "for deployment"); an invalid selector leaves
// the template unchecked.
func (v *Validator) replicaTemplate(sel *metav1.LabelSelector, t *corev1.PodTemplateSpec) errs {
	var e errs
	var selErrs errs
	if sel == nil {
		e.required("spec.selector", "")
	} else {
		selErrs = v.labelSelector(sel, "spec.selector", false)
		e.addAll(selErrs)
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			e.invalid("spec.selector", sel, "empty selector is invalid for deployment")
		}
	}
	if !selErrs.empty() {
		e.invalid("spec.selector", sel, "invalid label selector")
		return e
	}
	// A missing selector selects nothing; an empty one, everything.
	if sel == nil || len(sel.MatchLabels)+len(sel.MatchExpressions) > 0 {
		if !selects(sel, t.Labels) {
			e.invalid("spec.template.metadata.labels", t.Labels, "`selector` does not match template `labels`")
		}
	}
	e.addAll(v.podTemplate(t, "spec.template"))
	if t.Spec.RestartPolicy != "Always" {
		e.notSupported("spec.template.spec.restartPolicy", t.Spec.RestartPolicy, "Always")
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		e.forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in ReplicaSet is not Supported")
	}
	return e
}

// podTemplate is kube-apiserver's ValidatePodTemplateSpec (whose paths
// name the template's labels and annotations without "metadata").
func (v *Validator) podTemplate(t *corev1.PodTemplateSpec, path string) errs {
	e := v.labels(t.Labels, child(path, "labels"))
	e.addAll(v.annotations(t.Annotations, child(path, "annotations")))
	e.addAll(v.podSpec(&t.Spec, child(path, "spec")))
	if len(t.Spec.EphemeralContainers) > 0 {
		e.forbidden(child(path, "spec.ephemeralContainers"), "ephemeral containers not allowed in pod template")
	}
	return e
}

// selects reports whether a valid selector selects these labels (a nil
// one selects nothing).
func selects(sel *metav1.LabelSelector, labels map[string]string) bool {
	if sel == nil {
		return false
	}
	for k, want := range sel.MatchLabels {
		if got, ok := labels[k]; !ok || got != want {
			return false
		}
	}
	for _, r := range sel.MatchExpressions {
		got, ok := labels[r.Key]
		var match bool
		switch r.Operator {
		case "In":
			match = ok && slices.Contains(r.Values, got)
		case "NotIn":
			match = !ok || !slices.Contains(r.Values, got)
		case "Exists":
			match = ok
		case "DoesNotExist":
			match = !ok
		}
		if !match {
			return false
		}
	}
	return true
}

func deploymentStrategy(s *appsv1.DeploymentStrategy) errs {
	var e errs
	switch s.Type {
	case "Recreate":
		if s.RollingUpdate != nil {
			e.forbidden("spec.strategy.rollingUpdate", "may not be specified when strategy `type` is 'Recreate'")
		}
	case "RollingUpdate":
		ru := s.RollingUpdate
		if ru == nil {
			e.required("spec.strategy.rollingUpdate", "this should be defaulted and never be nil")
			return e
		}
		maxUnavailable, maxSurge := intOrZero(ru.MaxUnavailable), intOrZero(ru.MaxSurge)
		e.addAll(positiveIntOrPercent(maxUnavailable, "spec.strategy.rollingUpdate.maxUnavailable"))
		e.addAll(positiveIntOrPercent(maxSurge, "spec.strategy.rollingUpdate.maxSurge"))
		if intOrPercentValue(maxUnavailable) == 0 && intOrPercentValue(maxSurge) == 0 {
			e.invalid("spec.strategy.rollingUpdate.maxUnavailable", maxUnavailable, "may not be 0 when `maxSurge` is 0")
		}
		e.addAll(notMoreThan100Percent(maxUnavailable, "spec.strategy.rollingUpdate.maxUnavailable"))
	default:
		e.notSupported("spec.strategy", deploymentStrategyValue(s), "Recreate", "RollingUpdate")
	}
	return e
}

func intOrZero(p *intstr.IntOrString) intstr.IntOrString {
	if p == nil {
		return intstr.FromInt32(0)
	}
	return *p
}

// intOrPercentValue is an IntOrString's number: a valid percentage's,
// else the integer (a string that is neither counts as 0).
func intOrPercentValue(x intstr.IntOrString) int {
	if n, ok := percentValue(x); ok {
		return n
	}
	if x.Type == intstr.String {
		return 0
	}
	return int(x.IntVal)
}

// deploymentStrategyValue is a strategy as kube-apiserver's error
// prints it: its internal type as JSON, whose fields have no JSON names.
func deploymentStrategyValue(s *appsv1.DeploymentStrategy) any {
	type rollingUpdate struct{ MaxUnavailable, MaxSurge intstr.IntOrString }
	var ru *rollingUpdate
	if s.RollingUpdate != nil {
		ru = &rollingUpdate{intOrZero(s.RollingUpdate.MaxUnavailable), intOrZero(s.RollingUpdate.MaxSurge)}
	}
	return struct {
		Type          appsv1.DeploymentStrategyType
		RollingUpdate *rollingUpdate
	}{s.Type, ru}
}

// immutableSelector is kube-apiserver's check that an update keeps the
// selector (compared as the same JSON: nil and empty lists alike).
func immutableSelector(n, o *metav1.LabelSelector) errs {
	var e errs
	nb, _ := json.Marshal(n)
	ob, _ := json.Marshal(o)
	if string(nb) != string(ob) {
		e.invalid("spec.selector", n, "field is immutable")
	}
	return e
}

// daemonSetSpec is kube-apiserver's ValidateDaemonSetSpec for the
// checks written here (a missing selector selects nothing, so the
// template does not match it).
func (v *Validator) daemonSetSpec(s *appsv1.DaemonSetSpec) errs {
	var e errs
	selErrs := v.labelSelector(s.Selector, "spec.selector", false)
	e.addAll(selErrs)
	if selErrs.empty() && !selects(s.Selector, s.Template.Labels) && !emptySelector(s.Selector) {
		e.invalid("spec.template.metadata.labels", s.Template.Labels, "`selector` does not match template `labels`")
	}
	if emptySelector(s.Selector) {
		e.invalid("spec.selector", s.Selector, "empty selector is invalid for daemonset")
	}
	e.addAll(v.podTemplate(&s.Template, "spec.template"))
	if s.Template.Spec.RestartPolicy != "Always" {
		e.notSupported("spec.template.spec.restartPolicy", s.Template.Spec.RestartPolicy, "Always")
	}
	if s.Template.Spec.ActiveDeadlineSeconds != nil {
		e.forbidden("spec.template.spec.activeDeadlineSeconds", "activeDeadlineSeconds in DaemonSet is not Supported")
	}
	nonNegative(&e, "spec.minReadySeconds", int64(s.MinReadySeconds))
	switch us := s.UpdateStrategy; us.Type {
	case "OnDelete":
	case "RollingUpdate":
		ru := us.RollingUpdate
		if ru == nil {
			e.required("spec.updateStrategy.rollingUpdate", "")
			break
		}
		const p = "spec.updateStrategy.rollingUpdate"
		maxUnavailable, maxSurge := intOrZero(ru.MaxUnavailable), intOrZero(ru.MaxSurge)
		e.addAll(positiveIntOrPercent(maxUnavailable, p+".maxUnavailable"))
		e.addAll(positiveIntOrPercent(maxSurge, p+".maxSurge"))
		e.addAll(notMoreThan100Percent(maxUnavailable, p+".maxUnavailable"))
		e.addAll(notMoreThan100Percent(maxSurge, p+".maxSurge"))
		hasUnavailable, hasSurge := intOrPercentValue(maxUnavailable) != 0, intOrPercentValue(maxSurge) != 0
		switch {
		case hasUnavailable && hasSurge:
			e.invalid(p+".maxSurge", maxSurge, "may not be set when maxUnavailable is non-zero")
		case !hasUnavailable && !hasSurge:
			e.required(p+".maxUnavailable", "cannot be 0 when maxSurge is 0")
		}
	default:
		type rollingUpdate struct{ MaxUnavailable, MaxSurge intstr.IntOrString }
		var ru *rollingUpdate
		if us.RollingUpdate != nil {
			ru = &rollingUpdate{intOrZero(us.RollingUpdate.MaxUnavailable), intOrZero(us.RollingUpdate.MaxSurge)}
		}
		e.notSupported("spec.updateStrategy", struct {
			Type          appsv1.DaemonSetUpdateStrategyType
			RollingUpdate *rollingUpdate
		}{us.Type, ru}, "RollingUpdate", "OnDelete")
	}
	if s.RevisionHistoryLimit != nil {
		nonNegative(&e, "spec.revisionHistoryLimit", int64(*s.RevisionHistoryLimit))
	}
	return e
}

func emptySelector(s *metav1.LabelSelector) bool {
	return s != nil && len(s.MatchLabels)+len(s.MatchExpressions) == 0
}
