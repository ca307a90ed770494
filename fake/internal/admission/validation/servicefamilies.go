package validation

import (
	"net/netip"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// ServiceFamilies refuses a Service write that asks for IP families the
// fake's cluster does not have: it is single-stack IPv4, as kube-apiserver
// is when started with one service CIDR (envtest's default). kube-apiserver
// checks this in its IP allocator, before the strategy's validation, so
// its answer carries these causes alone. It returns nil for other kinds.
func (v *Validator) ServiceFamilies(d, old *object.Draft) *apierr.Error {
	s, ok := d.Typed.(*corev1.Service)
	if !ok {
		return nil
	}
	var oldService *corev1.Service
	if old != nil {
		oldService, _ = old.Typed.(*corev1.Service)
	}
	if e := serviceFamilyCauses(s, oldService); len(e) > 0 {
		return apierr.Invalid(d.Res.InternalGroup(), d.Res.Kind.Kind, d.Meta.Name, e...)
	}
	return nil
}

// serviceFamilyCauses is the allocator's initIPFamilyFields on a cluster
// that serves IPv4 only, after the fake's own defaults (policy
// SingleStack, family IPv4) filled what the request left out.
func serviceFamilyCauses(s, old *corev1.Service) errs {
	sp := &s.Spec
	if sp.Type == "ExternalName" || sp.IPFamilyPolicy == nil {
		return nil
	}
	// The loose checks the allocator runs first are the strategy's
	// cluster IP checks; a Service failing them gets those causes.
	if e := serviceClusterIPs(s, old); len(e) > 0 {
		return nil
	}
	var e errs
	policy := *sp.IPFamilyPolicy
	if policy == "SingleStack" {
		if len(sp.ClusterIPs) == 2 {
			e.invalid("spec.ipFamilyPolicy", string(policy), "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified")
		}
		if len(sp.IPFamilies) == 2 {
			e.invalid("spec.ipFamilyPolicy", string(policy), "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified")
		}
	}
	for i, ip := range sp.ClusterIPs {
		if ip == "None" {
			break
		}
		if i < len(sp.IPFamilies) {
			continue
		}
		if addr, err := netip.ParseAddr(ip); err == nil && !addr.Unmap().Is4() {
			e.invalid(index("spec.clusterIPs", i), sp.ClusterIPs, "IPv6 is not configured on this cluster")
		}
	}
	if len(e) > 0 {
		return e
	}
	if sp.ClusterIP == "None" && len(sp.Selector) == 0 {
		// Headless and selectorless: any families are allowed.
		return nil
	}
	if policy == "RequireDualStack" {
		e.invalid("spec.ipFamilyPolicy", string(policy), "this cluster is not configured for dual-stack services")
	}
	for i, f := range sp.IPFamilies {
		if f != "IPv4" {
			e.invalid(index("spec.ipFamilies", i), string(f), "not configured on this cluster")
		}
	}
	return e
}
