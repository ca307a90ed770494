package validation

import corev1 "github.com/kubewire/kubewire/api/core/v1"

// A pod's affinity, as validateAffinity checks it: node selector terms
// (requirements on labels and on metadata.name), preferred terms'
// weights, and pod (anti-)affinity terms' selectors, namespaces and
// topology keys. (Pod affinity terms' matchLabelKeys and
// mismatchLabelKeys are not checked here.)

func (v *Validator) affinity(a *corev1.Affinity, p string) errs {
	var e errs
	if a == nil {
		return e
	}
	if na := a.NodeAffinity; na != nil {
		np := child(p, "nodeAffinity")
		if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
			tp := child(child(np, "requiredDuringSchedulingIgnoredDuringExecution"), "nodeSelectorTerms")
			if len(r.NodeSelectorTerms) == 0 {
				e.required(tp, "must have at least one node selector term")
			}
			for i := range r.NodeSelectorTerms {
				e.addAll(v.nodeSelectorTerm(&r.NodeSelectorTerms[i], index(tp, i), false))
			}
		}
		for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
			ip := index(child(np, "preferredDuringSchedulingIgnoredDuringExecution"), i)
			if t.Weight <= 0 || t.Weight > 100 {
				e.invalid(child(ip, "weight"), t.Weight, "must be in the range 1-100")
			}
			e.addAll(v.nodeSelectorTerm(&t.Preference, child(ip, "preference"), true))
		}
	}
	for _, pa := range []struct {
		name      string
		required  []corev1.PodAffinityTerm
		preferred []corev1.WeightedPodAffinityTerm
		set       bool
	}{
		{"podAffinity", podAffinityRequired(a.PodAffinity), podAffinityPreferred(a.PodAffinity), a.PodAffinity != nil},
		{"podAntiAffinity", podAntiAffinityRequired(a.PodAntiAffinity), podAntiAffinityPreferred(a.PodAntiAffinity), a.PodAntiAffinity != nil},
	} {
		if !pa.set {
			continue
		}
		pp := child(p, pa.name)
		for i := range pa.required {
			e.addAll(v.podAffinityTerm(&pa.required[i], index(child(pp, "requiredDuringSchedulingIgnoredDuringExecution"), i)))
		}
		for i, t := range pa.preferred {
			ip := index(child(pp, "preferredDuringSchedulingIgnoredDuringExecution"), i)
			if t.Weight <= 0 || t.Weight > 100 {
				e.invalid(child(ip, "weight"), t.Weight, "must be in the range 1-100")
			}
			e.addAll(v.podAffinityTerm(&t.PodAffinityTerm, child(ip, "podAffinityTerm")))
		}
	}
	return e
}

func podAffinityRequired(a *corev1.PodAffinity) []corev1.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAffinityPreferred(a *corev1.PodAffinity) []corev1.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityRequired(a *corev1.PodAntiAffinity) []corev1.PodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.RequiredDuringSchedulingIgnoredDuringExecution
}

func podAntiAffinityPreferred(a *corev1.PodAntiAffinity) []corev1.WeightedPodAffinityTerm {
	if a == nil {
		return nil
	}
	return a.PreferredDuringSchedulingIgnoredDuringExecution
}

// nodeSelectorTerm is ValidateNodeSelectorTerm; preferred terms allow
// label values the required ones refuse.
func (v *Validator) nodeSelectorTerm(t *corev1.NodeSelectorTerm, p string, allowInvalidValues bool) errs {
	var e errs
	for j, r := range t.MatchExpressions {
		rp := index(child(p, "matchExpressions"), j)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				e.required(child(rp, "values"), "must be specified when `operator` is 'In' or 'NotIn'")
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				e.forbidden(child(rp, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		case "Gt", "Lt":
			if len(r.Values) != 1 {
				e.required(child(rp, "values"), "must be specified single value when `operator` is 'Lt' or 'Gt'")
			}
		default:
			e.invalid(child(rp, "operator"), string(r.Operator), "not a valid selector operator")
		}
		for _, msg := range v.patterns.labelKeyErrors(r.Key) {
			e.invalid(child(rp, "key"), r.Key, msg)
		}
		if !allowInvalidValues {
			for k, val := range r.Values {
				for _, msg := range v.patterns.labelValueErrors(val) {
					e.invalid(index(child(rp, "values"), k), val, msg)
				}
			}
		}
	}
	for j, r := range t.MatchFields {
		rp := index(child(p, "matchFields"), j)
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) != 1 {
				e.required(child(rp, "values"), "must be only one value when `operator` is 'In' or 'NotIn' for node field selector")
			}
		default:
			e.invalid(child(rp, "operator"), string(r.Operator), "not a valid selector operator")
		}
		if r.Key != "metadata.name" {
			e.invalid(child(rp, "key"), r.Key, "not a valid field selector key")
		} else {
			for k, val := range r.Values {
				for _, msg := range v.patterns.subdomainErrors(val, "characters") {
					e.invalid(index(child(rp, "values"), k), val, msg)
				}
			}
		}
	}
	return e
}

func (v *Validator) podAffinityTerm(t *corev1.PodAffinityTerm, p string) errs {
	e := v.labelSelector(t.LabelSelector, child(p, "labelSelector"), false)
	e.addAll(v.labelSelector(t.NamespaceSelector, child(p, "namespaceSelector"), false))
	for _, n := range t.Namespaces {
		for _, msg := range v.patterns.labelErrors(n) {
			e.invalid(child(p, "namespace"), n, msg)
		}
	}
	if t.TopologyKey == "" {
		e.required(child(p, "topologyKey"), "can not be empty")
	}
	for _, msg := range v.patterns.labelKeyErrors(t.TopologyKey) {
		e.invalid(child(p, "topologyKey"), t.TopologyKey, msg)
	}
	return e
}
