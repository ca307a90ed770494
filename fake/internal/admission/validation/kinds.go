package validation

import (
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// kindRule is how kube-apiserver validates one built-in kind: its
// registry strategy's Validate on a create and ValidateUpdate on an
// update (which includes, or not, the checks of the new object, by
// kind). The checks every object gets besides are in builtin.
type kindRule struct {
	create func(v *Validator, d *object.Draft) errs
	update func(v *Validator, d, old *object.Draft) errs
}

// kindRules are the kinds whose validation is written here, by
// "group/resource"; a file per group of kinds.
func kindRules() map[string]kindRule {
	rules := map[string]kindRule{}
	for _, add := range []func(map[string]kindRule){coreKinds, podKinds, serviceKinds, workloadKinds, statefulSetKinds, jobKinds, otherKinds, eventKinds, hpaKinds} {
		add(rules)
	}
	return rules
}

// builtin validates a built-in object as kube-apiserver's registry does:
// on a create its kind's rules, then (when they pass) the generic
// metadata checks; on an update the generic checks of the new metadata
// and of its change, then its kind's update rules.
func (v *Validator) builtin(rule kindRule, d, old *object.Draft) errs {
	namespaced := d.Res.Kind.Namespaced
	if old == nil {
		e := rule.create(v, d)
		if e.empty() {
			e = v.genericMeta(d.Meta, namespaced)
		}
		return e
	}
	e := v.genericMeta(d.Meta, namespaced)
	e.addAll(v.objectMetaUpdate(d.Meta, old.Meta, false))
	e.addAll(rule.update(v, d, old))
	return e
}

// kindCauses are the rules of the built-in kinds whose validation is not
// written here yet beyond metadata.
func kindCauses(d, old *object.Draft) []apierr.Cause {
	var causes []apierr.Cause
	nonNegativeReplicas := func(field string, v *int32) {
		if v != nil && *v < 0 {
			causes = append(causes, InvalidCause(field, int64(*v), "must be greater than or equal to 0"))
		}
	}
	if o, ok := d.Typed.(*corev1.ReplicationController); ok {
		nonNegativeReplicas("spec.replicas", o.Spec.Replicas)
	}
	return causes
}
