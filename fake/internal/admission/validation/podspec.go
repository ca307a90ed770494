package validation

import (
	"regexp"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

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

const (
	dnsLabelUnderscoreFmt     = "_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?"
	dnsSubdomainUnderscoreFmt = dnsLabelUnderscoreFmt + "(\\." + dnsLabelUnderscoreFmt + ")*"
)

var dnsSubdomainUnderscore = regexp.MustCompile("^" + dnsSubdomainUnderscoreFmt + "$")

// podDNSConfig is validatePodDNSConfig (searches may hold underscores:
// RelaxedDNSSearchValidation is on in v1.36).
func podDNSConfig(s *corev1.PodSpec, path string) errs {
	var e errs
	p := child(path, "dnsConfig")
	c := s.DNSConfig
	if s.DNSPolicy == "None" {
		if c == nil {
			e.required(p, "must provide `dnsConfig` when `dnsPolicy` is None")
			return e
		}
		if len(c.Nameservers) == 0 {
			e.required(child(p, "nameservers"), "must provide at least one DNS nameserver when `dnsPolicy` is None")
			return e
		}
	}
	if c == nil {
		return e
	}
	if len(c.Nameservers) > 3 {
		e.invalid(child(p, "nameservers"), c.Nameservers, "must not have more than 3 nameservers")
	}
	for i, ns := range c.Nameservers {
		for _, msg := range ipLegacyErrors(ns) {
			e.invalid(index(child(p, "nameservers"), i), ns, msg)
		}
	}
	if len(c.Searches) > 32 {
		e.invalid(child(p, "searches"), c.Searches, "must not have more than 32 search paths")
	}
	if len(strings.Join(c.Searches, " ")) > 2048 {
		e.invalid(child(p, "searches"), c.Searches, "must not have more than 2048 characters (including spaces) in the search list")
	}
	for i, search := range c.Searches {
		if search == "." {
			continue
		}
		search = strings.TrimSuffix(search, ".")
		sp := index(child(p, "searches"), i)
		if len(search) > 253 {
			e.invalid(sp, search, "must be no more than 253 characters")
		}
		if !dnsSubdomainUnderscore.MatchString(search) {
			e.invalid(sp, search, regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character", dnsSubdomainUnderscoreFmt, "example.com"))
		}
	}
	for i, o := range c.Options {
		if o.Name == "" {
			e.required(index(child(p, "options"), i), "must not be empty")
		}
	}
	return e
}

// podGates are validateReadinessGates and validateSchedulingGates.
func (v *Validator) podGates(s *corev1.PodSpec, path string) errs {
	var e errs
	for i, g := range s.ReadinessGates {
		for _, msg := range v.patterns.labelKeyErrors(string(g.ConditionType)) {
			e.invalid(child(index(child(path, "readinessGates"), i), "conditionType"), string(g.ConditionType), msg)
		}
	}
	seen := map[string]bool{}
	for i, g := range s.SchedulingGates {
		p := index(child(path, "schedulingGates"), i)
		for _, msg := range v.patterns.labelKeyErrors(g.Name) {
			e.invalid(p, g.Name, msg)
		}
		if seen[g.Name] {
			e.duplicate(p, g.Name)
		}
		seen[g.Name] = true
	}
	return e
}
