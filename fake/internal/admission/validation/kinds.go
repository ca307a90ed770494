package validation

import (
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
	for _, add := range []func(map[string]kindRule){coreKinds, podKinds, serviceKinds, workloadKinds, statefulSetKinds, jobKinds, otherKinds, pvcKinds, networkingKinds, discoveryKinds, rcKinds, eventKinds, hpaKinds} {
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
