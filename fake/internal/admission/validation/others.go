package validation

import (
	"strings"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	policyv1 "github.com/kubewire/kubewire/api/policy/v1"
	rbacv1 "github.com/kubewire/kubewire/api/rbac/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Kinds of the smaller API groups, as their pkg/apis/*/validation check
// them.

func otherKinds(rules map[string]kindRule) {
	rules["coordination.k8s.io/leases"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			e := v.objectMeta(d.Meta, true, subdomainName, false)
			e.addAll(v.leaseSpec(&d.Typed.(*coordinationv1.Lease).Spec))
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			e := v.objectMetaUpdate(d.Meta, old.Meta, false)
			e.addAll(v.leaseSpec(&d.Typed.(*coordinationv1.Lease).Spec))
			return e
		},
	}
	pdb := func(v *Validator, d *object.Draft) errs {
		return v.pdbSpec(&d.Typed.(*policyv1.PodDisruptionBudget).Spec)
	}
	rules["policy/poddisruptionbudgets"] = kindRule{create: pdb, update: func(v *Validator, d, _ *object.Draft) errs { return pdb(v, d) }}

	rules["rbac.authorization.k8s.io/roles"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs { return v.role(d.Meta, d.Typed.(*rbacv1.Role).Rules, true) },
		update: func(v *Validator, d, old *object.Draft) errs {
			e := v.role(d.Meta, d.Typed.(*rbacv1.Role).Rules, true)
			e.addAll(v.objectMetaUpdate(d.Meta, old.Meta, true))
			return e
		},
	}
	rules["rbac.authorization.k8s.io/clusterroles"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs { return v.clusterRole(d.Typed.(*rbacv1.ClusterRole)) },
		update: func(v *Validator, d, old *object.Draft) errs {
			e := v.clusterRole(d.Typed.(*rbacv1.ClusterRole))
			e.addAll(v.objectMetaUpdate(d.Meta, old.Meta, true))
			return e
		},
	}
	rules["rbac.authorization.k8s.io/rolebindings"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			b := d.Typed.(*rbacv1.RoleBinding)
			return v.binding(d.Meta, b.RoleRef, b.Subjects, true)
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			b, o := d.Typed.(*rbacv1.RoleBinding), old.Typed.(*rbacv1.RoleBinding)
			e := v.binding(d.Meta, b.RoleRef, b.Subjects, true)
			e.addAll(v.objectMetaUpdate(d.Meta, old.Meta, true))
			if !sameRoleRef(b.RoleRef, o.RoleRef) {
				e.invalid("roleRef", roleRefValue(b.RoleRef), "cannot change roleRef")
			}
			return e
		},
	}
	rules["rbac.authorization.k8s.io/clusterrolebindings"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			b := d.Typed.(*rbacv1.ClusterRoleBinding)
			return v.binding(d.Meta, b.RoleRef, b.Subjects, false)
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			b, o := d.Typed.(*rbacv1.ClusterRoleBinding), old.Typed.(*rbacv1.ClusterRoleBinding)
			e := v.binding(d.Meta, b.RoleRef, b.Subjects, false)
			e.addAll(v.objectMetaUpdate(d.Meta, old.Meta, true))
			if !sameRoleRef(b.RoleRef, o.RoleRef) {
				e.invalid("roleRef", roleRefValue(b.RoleRef), "cannot change roleRef")
			}
			return e
		},
	}
}

func (v *Validator) leaseSpec(s *coordinationv1.LeaseSpec) errs {
	var e errs
	if s.LeaseDurationSeconds != nil && *s.LeaseDurationSeconds <= 0 {
		e.invalid("spec.leaseDurationSeconds", s.LeaseDurationSeconds, "must be greater than 0")
	}
	if s.LeaseTransitions != nil && *s.LeaseTransitions < 0 {
		e.invalid("spec.leaseTransitions", s.LeaseTransitions, "must be greater than or equal to 0")
	}
	if s.Strategy != nil {
		// The path names strategy twice, as kube-apiserver's does.
		e.addAll(v.leaseStrategy(*s.Strategy, "spec.strategy.strategy"))
	}
	if s.PreferredHolder != nil && *s.PreferredHolder != "" && (s.Strategy == nil || *s.Strategy == "") {
		e.forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined")
	}
	return e
}

func (v *Validator) pdbSpec(s *policyv1.PodDisruptionBudgetSpec) errs {
	var e errs
	if s.MinAvailable != nil && s.MaxUnavailable != nil {
		e.invalid("spec", pdbSpecValue(s), "minAvailable and maxUnavailable cannot be both set")
	}
	if s.MinAvailable != nil {
		e.addAll(positiveIntOrPercent(*s.MinAvailable, "spec.minAvailable"))
		e.addAll(notMoreThan100Percent(*s.MinAvailable, "spec.minAvailable"))
	}
	if s.MaxUnavailable != nil {
		e.addAll(positiveIntOrPercent(*s.MaxUnavailable, "spec.maxUnavailable"))
		e.addAll(notMoreThan100Percent(*s.MaxUnavailable, "spec.maxUnavailable"))
	}
	e.addAll(v.labelSelector(s.Selector, "spec.selector", false))
	if p := s.UnhealthyPodEvictionPolicy; p != nil && *p != "AlwaysAllow" && *p != "IfHealthyBudget" {
		e.notSupported("spec.unhealthyPodEvictionPolicy", string(*p), "AlwaysAllow", "IfHealthyBudget")
	}
	return e
}

// pdbSpecValue is a spec as kube-apiserver's error prints it: its
// internal type as JSON, whose fields have no JSON names.
func pdbSpecValue(s *policyv1.PodDisruptionBudgetSpec) any {
	return struct {
		MinAvailable               *intstr.IntOrString
		Selector                   *metav1.LabelSelector
		MaxUnavailable             *intstr.IntOrString
		UnhealthyPodEvictionPolicy *policyv1.UnhealthyPodEvictionPolicyType
	}{s.MinAvailable, s.Selector, s.MaxUnavailable, s.UnhealthyPodEvictionPolicy}
}

func (v *Validator) role(m *metav1.ObjectMeta, rules []rbacv1.PolicyRule, namespaced bool) errs {
	e := v.objectMeta(m, namespaced, rbacName, true)
	for i, r := range rules {
		e.addAll(policyRule(r, namespaced, index("rules", i)))
	}
	return e
}

func (v *Validator) clusterRole(r *rbacv1.ClusterRole) errs {
	e := v.role(&r.ObjectMeta, r.Rules, false)
	if a := r.AggregationRule; a != nil {
		if len(a.ClusterRoleSelectors) == 0 {
			e.required("aggregationRule.clusterRoleSelectors", "at least one clusterRoleSelector required if aggregationRule is non-nil")
		}
		for i := range a.ClusterRoleSelectors {
			e.addAll(v.labelSelector(&a.ClusterRoleSelectors[i], index("aggregationRule.clusterRoleSelectors", i), false))
		}
	}
	return e
}

func policyRule(r rbacv1.PolicyRule, namespaced bool, p string) errs {
	var e errs
	if len(r.Verbs) == 0 {
		e.required(child(p, "verbs"), "verbs must contain at least one value")
	}
	if len(r.NonResourceURLs) > 0 {
		if namespaced {
			e.invalid(child(p, "nonResourceURLs"), r.NonResourceURLs, "namespaced rules cannot apply to non-resource URLs")
		}
		if len(r.APIGroups) > 0 || len(r.Resources) > 0 || len(r.ResourceNames) > 0 {
			e.invalid(child(p, "nonResourceURLs"), r.NonResourceURLs, "rules cannot apply to both regular resources and non-resource URLs")
		}
		return e
	}
	if len(r.APIGroups) == 0 {
		e.required(child(p, "apiGroups"), "resource rules must supply at least one api group")
	}
	if len(r.Resources) == 0 {
		e.required(child(p, "resources"), "resource rules must supply at least one resource")
	}
	return e
}

func (v *Validator) binding(m *metav1.ObjectMeta, ref rbacv1.RoleRef, subjects []rbacv1.Subject, namespaced bool) errs {
	e := v.objectMeta(m, namespaced, rbacName, true)
	const group = "rbac.authorization.k8s.io"
	if ref.APIGroup != group {
		e.notSupported("roleRef.apiGroup", ref.APIGroup, group)
	}
	switch {
	case namespaced && (ref.Kind == "Role" || ref.Kind == "ClusterRole"), !namespaced && ref.Kind == "ClusterRole":
	case namespaced:
		e.notSupported("roleRef.kind", ref.Kind, "Role", "ClusterRole")
	default:
		e.notSupported("roleRef.kind", ref.Kind, "ClusterRole")
	}
	if ref.Name == "" {
		e.required("roleRef.name", "")
	} else {
		for _, msg := range pathSegmentErrors(ref.Name, false) {
			e.invalid("roleRef.name", ref.Name, msg)
		}
	}
	for i, s := range subjects {
		p := index("subjects", i)
		if s.Name == "" {
			e.required(child(p, "name"), "")
		}
		switch s.Kind {
		case "ServiceAccount":
			if s.Name != "" {
				for _, msg := range v.patterns.subdomainErrors(s.Name, "characters") {
					e.invalid(child(p, "name"), s.Name, msg)
				}
			}
			if s.APIGroup != "" {
				e.notSupported(child(p, "apiGroup"), s.APIGroup, "")
			}
			if !namespaced && s.Namespace == "" {
				e.required(child(p, "namespace"), "")
			}
		case "User", "Group":
			if s.APIGroup != group {
				e.notSupported(child(p, "apiGroup"), s.APIGroup, group)
			}
		default:
			e.notSupported(child(p, "kind"), s.Kind, "ServiceAccount", "User", "Group")
		}
	}
	return e
}

// roleRefValue is a role reference as kube-apiserver's error prints
// it: its internal type as JSON, whose fields have no JSON names.
func roleRefValue(r rbacv1.RoleRef) any {
	return struct{ APIGroup, Kind, Name string }{r.APIGroup, r.Kind, r.Name}
}

func sameRoleRef(a, b rbacv1.RoleRef) bool {
	return a.APIGroup == b.APIGroup && a.Kind == b.Kind && a.Name == b.Name
}

// leaseStrategy is a Kubernetes strategy's name, or a qualified name
// (with a prefix) of another.
func (v *Validator) leaseStrategy(s coordinationv1.CoordinatedLeaseStrategy, path string) errs {
	var e errs
	if !strings.Contains(string(s), "/") {
		if s != "OldestEmulationVersion" {
			e.notSupported(path, s, "OldestEmulationVersion")
		}
		return e
	}
	for _, msg := range v.patterns.labelKeyErrors(string(s)) {
		e.invalid(path, s, msg)
	}
	return e
}
