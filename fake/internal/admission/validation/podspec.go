package validation

import corev1 "github.com/kubewire/kubewire/api/core/v1"

// The pod spec checks kube-apiserver's ValidatePodSpec runs after the
// tolerations (host aliases, classes, preemption policy, overhead and
// OS), and the hostname override.

func (v *Validator) podSpecTail(s *corev1.PodSpec, path string) errs {
	var e errs
	for i, a := range s.HostAliases {
		p := index(child(path, "hostAliases"), i)
		for _, msg := range ipLegacyErrors(a.IP) {
			e.invalid(child(p, "ip"), a.IP, msg)
		}
		for j, h := range a.Hostnames {
			for _, msg := range v.patterns.subdomainErrors(h, "characters") {
				e.invalid(index(child(p, "hostnames"), j), h, msg)
			}
		}
	}
	if s.PriorityClassName != "" {
		for _, msg := range v.patterns.subdomainErrors(s.PriorityClassName, "characters") {
			e.invalid(child(path, "priorityClassName"), s.PriorityClassName, msg)
		}
	}
	if c := s.RuntimeClassName; c != nil {
		for _, msg := range v.patterns.subdomainErrors(*c, "characters") {
			e.invalid(child(path, "runtimeClassName"), *c, msg)
		}
	}
	if p := s.PreemptionPolicy; p != nil {
		switch *p {
		case "PreemptLowerPriority", "Never":
		case "":
			e.required(child(path, "preemptionPolicy"), "")
		default:
			e.notSupported(child(path, "preemptionPolicy"), string(*p), "PreemptLowerPriority", "Never")
		}
	}
	if s.Overhead != nil {
		e.addAll(v.resourceRequirements(&corev1.ResourceRequirements{Limits: s.Overhead}, nil, child(path, "overhead")))
	}
	if o := s.OS; o != nil {
		switch o.Name {
		case "linux", "windows":
		case "":
			e.required(child(child(path, "os"), "name"), "")
		default:
			e.notSupported(child(path, "os"), string(o.Name), "linux", "windows")
		}
	}
	return e
}

// hostnameOverride is validatePodHostName.
func (v *Validator) hostnameOverride(s *corev1.PodSpec, path string) errs {
	var e errs
	h := s.HostnameOverride
	if h == nil {
		return e
	}
	p := child(path, "hostnameOverride")
	if s.SetHostnameAsFQDN != nil && *s.SetHostnameAsFQDN {
		e.forbidden(p, "may not be specified when setHostnameAsFQDN is true")
	}
	if s.HostNetwork {
		e.forbidden(p, "may not be specified when hostNetwork is true")
	}
	if len(*h) > 64 {
		e.tooLong(p, 64)
	}
	for _, msg := range v.patterns.subdomainErrors(*h, "characters") {
		e.invalid(p, *h, msg)
	}
	return e
}

// podResourceClaims is validatePodResourceClaims.
func (v *Validator) podResourceClaims(claims []corev1.PodResourceClaim, path string) errs {
	var e errs
	seen := map[string]bool{}
	for i, c := range claims {
		p := index(path, i)
		switch {
		case c.Name == "":
			e.required(child(p, "name"), "")
		case seen[c.Name]:
			e.duplicate(child(p, "name"), c.Name)
		default:
			for _, msg := range v.patterns.labelErrors(c.Name) {
				e.invalid(child(p, "name"), c.Name, msg)
			}
			seen[c.Name] = true
		}
		if c.ResourceClaimName != nil && c.ResourceClaimTemplateName != nil {
			e.invalid(p, internalForm(&c), "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified")
		}
		if c.ResourceClaimName == nil && c.ResourceClaimTemplateName == nil {
			e.invalid(p, internalForm(&c), "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`")
		}
		for _, f := range []struct {
			name  string
			value *string
		}{{"resourceClaimName", c.ResourceClaimName}, {"resourceClaimTemplateName", c.ResourceClaimTemplateName}} {
			if f.value != nil {
				for _, msg := range v.patterns.subdomainErrors(*f.value, "characters") {
					e.invalid(child(p, f.name), *f.value, msg)
				}
			}
		}
	}
	return e
}

// topologySpread is validateTopologySpreadConstraints (a matchLabelKeys
// key also in the label selector is not reported here).
func (v *Validator) topologySpread(list []corev1.TopologySpreadConstraint, path string) errs {
	var e errs
	for i, c := range list {
		p := index(path, i)
		if c.MaxSkew <= 0 {
			e.invalid(child(p, "maxSkew"), c.MaxSkew, "must be greater than zero")
		}
		if c.TopologyKey == "" {
			e.required(child(p, "topologyKey"), "can not be empty")
		}
		if c.WhenUnsatisfiable != "DoNotSchedule" && c.WhenUnsatisfiable != "ScheduleAnyway" {
			e.notSupported(child(p, "whenUnsatisfiable"), string(c.WhenUnsatisfiable), "DoNotSchedule", "ScheduleAnyway")
		}
		for _, r := range list[i+1:] {
			if r.TopologyKey == c.TopologyKey && r.WhenUnsatisfiable == c.WhenUnsatisfiable {
				e.duplicate(child(p, "{topologyKey, whenUnsatisfiable}"), "{"+c.TopologyKey+", "+string(c.WhenUnsatisfiable)+"}")
				break
			}
		}
		if m := c.MinDomains; m != nil {
			if *m <= 0 {
				e.invalid(child(p, "minDomains"), *m, "must be greater than zero")
			}
			if c.WhenUnsatisfiable != "DoNotSchedule" {
				e.invalid(child(p, "minDomains"), *m, "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not "+string(c.WhenUnsatisfiable))
			}
		}
		for _, f := range []struct {
			name   string
			policy *corev1.NodeInclusionPolicy
		}{{"nodeAffinityPolicy", c.NodeAffinityPolicy}, {"nodeTaintsPolicy", c.NodeTaintsPolicy}} {
			if f.policy != nil && *f.policy != "Honor" && *f.policy != "Ignore" {
				e.notSupported(child(p, f.name), string(*f.policy), "Honor", "Ignore")
			}
		}
		if len(c.MatchLabelKeys) > 0 {
			if c.LabelSelector == nil {
				e.forbidden(child(p, "matchLabelKeys"), "must not be specified when labelSelector is not set")
			}
			for j, k := range c.MatchLabelKeys {
				for _, msg := range v.patterns.labelKeyErrors(k) {
					e.invalid(index(child(p, "matchLabelKeys"), j), k, msg)
				}
			}
		}
		e.addAll(v.labelSelector(c.LabelSelector, child(p, "labelSelector"), false))
	}
	return e
}
