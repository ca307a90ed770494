package validation

import (
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// A Service's addresses and traffic fields, as validateService checks
// them: cluster IPs (their first is clusterIP, valid addresses, one per
// family matching ipFamilies), IP families and their policy, external
// IPs, and the external and internal traffic policies and traffic
// distribution. (An internal traffic policy the defaults always set is
// not checked for presence.)

// serviceClusterIPs is ValidateServiceClusterIPsRelatedFields; stored
// are the update's stored cluster IPs, which stay valid.
func serviceClusterIPs(s, old *corev1.Service) errs {
	var e errs
	sp := &s.Spec
	if sp.Type == "ExternalName" {
		return e
	}
	const ipsPath = "spec.clusterIPs"
	if sp.ClusterIP != "" {
		if len(sp.ClusterIPs) == 0 {
			e.required(ipsPath, "")
		} else if sp.ClusterIPs[0] != sp.ClusterIP {
			e.invalid(ipsPath, sp.ClusterIPs, "first value must match `clusterIP`")
		}
	} else if len(sp.ClusterIPs) != 0 {
		e.invalid(ipsPath, sp.ClusterIPs, "must be empty when `clusterIP` is not specified")
	}
	seen := map[corev1.IPFamily]bool{}
	for i, f := range sp.IPFamilies {
		if f != "IPv4" && f != "IPv6" {
			e.notSupported(index("spec.ipFamilies", i), string(f), "IPv4", "IPv6")
		}
		if seen[f] {
			e.duplicate(index("spec.ipFamilies", i), string(f))
		}
		seen[f] = true
	}
	if p := sp.IPFamilyPolicy; p != nil && *p != "PreferDualStack" && *p != "RequireDualStack" && *p != "SingleStack" {
		e.notSupported("spec.ipFamilyPolicy", string(*p), "PreferDualStack", "RequireDualStack", "SingleStack")
	}
	stored := map[string]bool{}
	if old != nil {
		for _, ip := range old.Spec.ClusterIPs {
			stored[ip] = true
		}
	}
	invalid := false
	for i, ip := range sp.ClusterIPs {
		if i == 0 && ip == "None" {
			if len(sp.ClusterIPs) > 1 {
				invalid = true
				e.invalid(ipsPath, sp.ClusterIPs, "'None' must be the first and only value")
			}
			continue
		}
		if stored[ip] {
			continue
		}
		for _, msg := range ipLegacyErrors(ip) {
			invalid = true
			e.invalid(index(ipsPath, i), ip, msg)
		}
	}
	if len(sp.ClusterIPs) > 2 {
		e.invalid(ipsPath, sp.ClusterIPs, "may only hold up to 2 values")
	}
	if invalid {
		return e
	}
	if len(sp.ClusterIPs) > 1 {
		v4 := 0
		for _, ip := range sp.ClusterIPs {
			if parseIPSloppy(ip).To4() != nil {
				v4++
			}
		}
		if v4 != 1 || len(sp.ClusterIPs) != 2 {
			e.invalid(ipsPath, sp.ClusterIPs, "may specify no more than one IP for each IP family")
		}
	}
	if !headless(s) {
		for i, ip := range sp.ClusterIPs {
			if i >= len(sp.IPFamilies) {
				break
			}
			isV6 := parseIPSloppy(ip) != nil && parseIPSloppy(ip).To4() == nil
			if sp.IPFamilies[i] == "IPv4" && isV6 {
				e.invalid(index(ipsPath, i), ip, fmt.Sprintf("expected an IPv4 value as indicated by `ipFamilies[%v]`", i))
			}
			if sp.IPFamilies[i] == "IPv6" && !isV6 {
				e.invalid(index(ipsPath, i), ip, fmt.Sprintf("expected an IPv6 value as indicated by `ipFamilies[%v]`", i))
			}
		}
	}
	return e
}

// serviceExternalIPs checks each external IP as a legacy IP and an
// endpoint IP.
func serviceExternalIPs(s, old *corev1.Service) errs {
	var e errs
	stored := map[string]bool{}
	if old != nil {
		for _, ip := range old.Spec.ExternalIPs {
			stored[ip] = true
		}
	}
	for i, ip := range s.Spec.ExternalIPs {
		p := index("spec.externalIPs", i)
		if stored[ip] {
			continue
		}
		if msgs := ipLegacyErrors(ip); len(msgs) > 0 {
			for _, msg := range msgs {
				e.invalid(p, ip, msg)
			}
			continue
		}
		e.addAll(endpointIP(ip, p))
	}
	return e
}

func externallyAccessible(s *corev1.Service) bool {
	return s.Spec.Type == "LoadBalancer" || s.Spec.Type == "NodePort" || s.Spec.Type == "ClusterIP" && len(s.Spec.ExternalIPs) > 0
}

// serviceTraffic is validateServiceExternalTrafficPolicy, the internal
// traffic policy's value and the traffic distribution.
func serviceTraffic(s *corev1.Service) errs {
	var e errs
	sp := &s.Spec
	if !externallyAccessible(s) {
		if sp.ExternalTrafficPolicy != "" {
			e.invalid("spec.externalTrafficPolicy", string(sp.ExternalTrafficPolicy), "may only be set for externally-accessible services")
		}
	} else if sp.ExternalTrafficPolicy == "" {
		e.required("spec.externalTrafficPolicy", "")
	} else if sp.ExternalTrafficPolicy != "Cluster" && sp.ExternalTrafficPolicy != "Local" {
		e.notSupported("spec.externalTrafficPolicy", string(sp.ExternalTrafficPolicy), "Cluster", "Local")
	}
	needsHealthCheck := sp.Type == "LoadBalancer" && sp.ExternalTrafficPolicy == "Local"
	if !needsHealthCheck {
		if sp.HealthCheckNodePort != 0 {
			e.invalid("spec.healthCheckNodePort", sp.HealthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'")
		}
	} else if sp.HealthCheckNodePort == 0 {
		e.required("spec.healthCheckNodePort", "")
	} else if !validPort(sp.HealthCheckNodePort) {
		e.invalid("spec.healthCheckNodePort", sp.HealthCheckNodePort, portRangeMsg)
	}
	if p := sp.InternalTrafficPolicy; p != nil && *p != "Cluster" && *p != "Local" {
		e.notSupported("spec.internalTrafficPolicy", string(*p), "Cluster", "Local")
	}
	if d := sp.TrafficDistribution; d != nil && *d != "PreferClose" && *d != "PreferSameZone" && *d != "PreferSameNode" {
		e.notSupported("spec.trafficDistribution", *d, "PreferClose", "PreferSameZone", "PreferSameNode")
	}
	return e
}

// serviceClusterIPsUpdate is validateUpgradeDowngradeClusterIPs: the
// stored cluster IPs stay, but for a secondary one released with a
// SingleStack policy or added.
func serviceClusterIPsUpdate(s, old *corev1.Service) errs {
	var e errs
	if s.Spec.Type == "ExternalName" || old.Spec.Type == "ExternalName" || headlessClusterIP(old) && headlessClusterIP(s) {
		return e
	}
	n, o := s.Spec.ClusterIPs, old.Spec.ClusterIPs
	const first = "spec.clusterIPs[0]"
	switch {
	case len(o) == len(n):
		for i, ip := range o {
			if ip != n[i] {
				e.invalid(index("spec.clusterIPs", i), n, "may not change once set")
			}
		}
	case len(o) > len(n):
		if len(n) == 0 {
			e.invalid(first, n, "primary clusterIP can not be unset")
		}
		if len(o) > 0 && len(n) > 0 && n[0] != o[0] {
			e.invalid(first, n, "may not change once set")
		}
		if len(n) == 1 && (s.Spec.IPFamilyPolicy == nil || *s.Spec.IPFamilyPolicy != "SingleStack") {
			e.invalid("spec.ipFamilyPolicy", s.Spec.IPFamilyPolicy, "must be set to 'SingleStack' when releasing the secondary clusterIP")
		}
	default:
		if len(o) > 0 && n[0] != o[0] {
			e.invalid(first, n, "may not change once set")
		}
	}
	return e
}

func headlessClusterIP(s *corev1.Service) bool {
	return s.Spec.Type == "ClusterIP" && s.Spec.ClusterIP == "None"
}
