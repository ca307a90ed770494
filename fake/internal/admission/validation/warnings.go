package validation

import (
	"fmt"
	"net/netip"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	discoveryv1 "github.com/kubewire/kubewire/api/discovery/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Warnings are the warnings kube-apiserver's registry strategies add to
// a valid write (old is nil for a create): an EndpointSlice created
// with the deprecated FQDN address type; a Service's ignored or
// deprecated fields and addresses in non-standard forms. (The
// EndpointSlice strategy's warnings about non-canonical addresses and
// the source range ones are not written here.)
func Warnings(d, old *object.Draft) []string {
	switch o := d.Typed.(type) {
	case *discoveryv1.EndpointSlice:
		if old == nil && o.AddressType == "FQDN" {
			return []string{"spec.addressType: FQDN endpoints are deprecated"}
		}
	case *corev1.Service:
		return serviceWarnings(o)
	}
	return nil
}

// serviceWarnings is GetWarningsForService.
func serviceWarnings(s *corev1.Service) []string {
	var w []string
	sp := &s.Spec
	if _, ok := s.Annotations["service.kubernetes.io/topology-aware-hints"]; ok {
		w = append(w, "annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead")
	}
	if sp.ClusterIP != "" && sp.ClusterIP != "None" {
		for i, ip := range sp.ClusterIPs {
			w = append(w, ipWarnings(index("spec.clusterIPs", i), ip)...)
		}
	}
	headlessSvc := sp.Type == "ClusterIP" && sp.ClusterIP == "None"
	if headlessSvc {
		if sp.LoadBalancerIP != "" {
			w = append(w, "spec.loadBalancerIP is ignored for headless services")
		}
		if len(sp.ExternalIPs) > 0 {
			w = append(w, "spec.externalIPs is ignored for headless services")
		}
		if sp.SessionAffinity != "None" {
			w = append(w, "spec.SessionAffinity is ignored for headless services")
		}
	}
	for i, ip := range sp.ExternalIPs {
		w = append(w, ipWarnings(index("spec.externalIPs", i), ip)...)
	}
	if len(sp.ExternalIPs) > 0 && !headlessSvc && sp.Type != "ExternalName" {
		w = append(w, "spec.externalIPs is deprecated and may no longer be implemented in some clusters")
	}
	if sp.LoadBalancerIP != "" {
		w = append(w, ipWarnings("spec.loadBalancerIP", sp.LoadBalancerIP)...)
	}
	if sp.Type == "ExternalName" && len(sp.ExternalIPs) > 0 {
		w = append(w, `spec.externalIPs is ignored when spec.type is "ExternalName"`)
	}
	if sp.Type != "ExternalName" && sp.ExternalName != "" {
		w = append(w, `spec.externalName is ignored when spec.type is not "ExternalName"`)
	}
	if d := sp.TrafficDistribution; d != nil && *d == "PreferClose" {
		w = append(w, `spec.trafficDistribution: "PreferClose" is deprecated; use "PreferSameZone"`)
	}
	return w
}

// ipWarnings is GetWarningsForIP, for an address validation accepted.
func ipWarnings(path, value string) []string {
	ip := parseIPSloppy(value)
	if ip == nil {
		return nil
	}
	addr, err := netip.ParseAddr(value)
	if err != nil || addr.Is4In6() {
		return []string{fmt.Sprintf("%s: non-standard IP address %q is invalid: use %q", path, value, ip.String())}
	}
	if addr.Is6() && addr.String() != value {
		return []string{fmt.Sprintf("%s: IPv6 address %q should be in RFC 5952 canonical format (%q)", path, value, addr.String())}
	}
	return nil
}
