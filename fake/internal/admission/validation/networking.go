package validation

import (
	"fmt"
	"strings"

	"github.com/kubewire/kubewire/api/intstr"
	networkingv1 "github.com/kubewire/kubewire/api/networking/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// NetworkPolicies and Ingresses, as pkg/apis/networking/validation
// checks them.

func networkingKinds(rules map[string]kindRule) {
	rules["networking.k8s.io/networkpolicies"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			e := v.objectMeta(d.Meta, true, subdomainName, true)
			e.addAll(v.networkPolicySpec(&d.Typed.(*networkingv1.NetworkPolicy).Spec, false, nil))
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*networkingv1.NetworkPolicy), old.Typed.(*networkingv1.NetworkPolicy)
			keepSelector := len(v.labelSelector(&o.Spec.PodSelector, "", false)) > 0
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.networkPolicySpec(&n.Spec, keepSelector, storedCIDRs(&o.Spec)))
			return e
		},
	}
	rules["networking.k8s.io/ingresses"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			in := d.Typed.(*networkingv1.Ingress)
			e := v.objectMeta(d.Meta, true, subdomainName, true)
			e.addAll(v.ingressSpec(&in.Spec, false))
			if a, ok := in.Annotations["kubernetes.io/ingress.class"]; ok && in.Spec.IngressClassName != nil && a != *in.Spec.IngressClassName {
				e.invalid("annotations.kubernetes.io/ingress.class", a, "must match `ingressClassName` when both are specified")
			}
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*networkingv1.Ingress), old.Typed.(*networkingv1.Ingress)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.objectMeta(d.Meta, true, subdomainName, true))
			e.addAll(v.ingressSpec(&n.Spec, v.invalidTLSSecret(&o.Spec)))
			return e
		},
	}
}

// storedCIDRs are the CIDRs a stored policy's peers name, which an
// update may keep even if they are no longer valid.
func storedCIDRs(s *networkingv1.NetworkPolicySpec) map[string]bool {
	out := map[string]bool{}
	add := func(peers []networkingv1.NetworkPolicyPeer) {
		for _, p := range peers {
			if p.IPBlock != nil {
				out[p.IPBlock.CIDR] = true
				for _, c := range p.IPBlock.Except {
					out[c] = true
				}
			}
		}
	}
	for _, r := range s.Ingress {
		add(r.From)
	}
	for _, r := range s.Egress {
		add(r.To)
	}
	return out
}

func (v *Validator) networkPolicySpec(s *networkingv1.NetworkPolicySpec, keepSelector bool, keepCIDRs map[string]bool) errs {
	e := v.labelSelector(&s.PodSelector, "spec.podSelector", keepSelector)
	for i, r := range s.Ingress {
		p := index("spec.ingress", i)
		for j := range r.Ports {
			e.addAll(networkPolicyPort(&r.Ports[j], index(child(p, "ports"), j)))
		}
		for j := range r.From {
			e.addAll(v.networkPolicyPeer(&r.From[j], index(child(p, "from"), j), keepSelector, keepCIDRs))
		}
	}
	for i, r := range s.Egress {
		p := index("spec.egress", i)
		for j := range r.Ports {
			e.addAll(networkPolicyPort(&r.Ports[j], index(child(p, "ports"), j)))
		}
		for j := range r.To {
			e.addAll(v.networkPolicyPeer(&r.To[j], index(child(p, "to"), j), keepSelector, keepCIDRs))
		}
	}
	if len(s.PolicyTypes) > 2 {
		e.invalid("spec.policyTypes", s.PolicyTypes, "may not specify more than two policyTypes")
		return e
	}
	for i, t := range s.PolicyTypes {
		if t != "Ingress" && t != "Egress" {
			e.notSupported(index("spec.policyTypes", i), string(t), "Ingress", "Egress")
		}
	}
	return e
}

func networkPolicyPort(port *networkingv1.NetworkPolicyPort, path string) errs {
	var e errs
	if p := port.Protocol; p != nil && *p != "TCP" && *p != "UDP" && *p != "SCTP" {
		e.notSupported(child(path, "protocol"), string(*p), "TCP", "UDP", "SCTP")
	}
	switch {
	case port.Port == nil:
		if port.EndPort != nil {
			e.invalid(child(path, "endPort"), *port.EndPort, "may not be specified when `port` is not specified")
		}
	case port.Port.Type == intstr.Int:
		n := port.Port.IntVal
		if !validPort(n) {
			e.invalid(child(path, "port"), n, portRangeMsg)
		}
		if end := port.EndPort; end != nil {
			if *end < n {
				e.invalid(child(path, "endPort"), n, "must be greater than or equal to `port`")
			}
			if !validPort(*end) {
				e.invalid(child(path, "endPort"), *end, portRangeMsg)
			}
		}
	default:
		if port.EndPort != nil {
			e.invalid(child(path, "endPort"), *port.EndPort, "may not be specified when `port` is non-numeric")
		}
		for _, msg := range portNameErrors(port.Port.StrVal) {
			e.invalid(child(path, "port"), port.Port.StrVal, msg)
		}
	}
	return e
}

func (v *Validator) networkPolicyPeer(peer *networkingv1.NetworkPolicyPeer, path string, keepSelector bool, keepCIDRs map[string]bool) errs {
	var e errs
	n := 0
	if peer.PodSelector != nil {
		n++
		e.addAll(v.labelSelector(peer.PodSelector, child(path, "podSelector"), keepSelector))
	}
	if peer.NamespaceSelector != nil {
		n++
		e.addAll(v.labelSelector(peer.NamespaceSelector, child(path, "namespaceSelector"), keepSelector))
	}
	if b := peer.IPBlock; b != nil {
		n++
		e.addAll(ipBlock(b, child(path, "ipBlock"), keepCIDRs))
	}
	if n == 0 {
		e.required(path, "must specify a peer")
	} else if n > 1 && peer.IPBlock != nil {
		e.forbidden(path, "may not specify both ipBlock and another peer")
	}
	return e
}

func ipBlock(b *networkingv1.IPBlock, path string, keep map[string]bool) errs {
	var e errs
	if b.CIDR == "" {
		e.required(child(path, "cidr"), "")
		return e
	}
	if !keep[b.CIDR] {
		for _, msg := range cidrLegacyErrors(b.CIDR) {
			e.invalid(child(path, "cidr"), b.CIDR, msg)
		}
	}
	outer, ok := parseCIDRSloppy(b.CIDR)
	if !ok {
		return e
	}
	for i, x := range b.Except {
		p := index(child(path, "except"), i)
		if !keep[x] {
			for _, msg := range cidrLegacyErrors(x) {
				e.invalid(p, x, msg)
			}
		}
		inner, ok := parseCIDRSloppy(x)
		if !ok {
			continue
		}
		outerLen, _ := outer.Mask.Size()
		innerLen, _ := inner.Mask.Size()
		if !outer.Contains(inner.IP) || outerLen >= innerLen {
			e.invalid(p, x, "must be a strict subset of `cidr`")
		}
	}
	return e
}

// invalidTLSSecret reports whether a stored Ingress names a TLS secret
// kube-apiserver would refuse now, which lets an update keep any.
func (v *Validator) invalidTLSSecret(s *networkingv1.IngressSpec) bool {
	for _, t := range s.TLS {
		if t.SecretName != "" && len(v.patterns.subdomainErrors(t.SecretName, "characters")) > 0 {
			return true
		}
	}
	return false
}

func (v *Validator) ingressSpec(s *networkingv1.IngressSpec, keepSecretNames bool) errs {
	var e errs
	if len(s.Rules) == 0 && s.DefaultBackend == nil {
		e.invalid("spec", s.Rules, "either `defaultBackend` or `rules` must be specified")
	}
	if s.DefaultBackend != nil {
		e.addAll(v.ingressBackend(s.DefaultBackend, "spec.defaultBackend"))
	}
	for i, r := range s.Rules {
		p := index("spec.rules", i)
		if r.Host != "" {
			if parseIPSloppy(r.Host) != nil {
				e.invalid(child(p, "host"), r.Host, "must be a DNS name, not an IP address")
			}
			e.addAll(v.ingressHost(r.Host, child(p, "host")))
		}
		if h := r.HTTP; h != nil {
			hp := child(p, "http")
			if len(h.Paths) == 0 {
				e.required(child(hp, "paths"), "")
			}
			for j := range h.Paths {
				e.addAll(v.ingressPath(&h.Paths[j], index(child(hp, "paths"), j)))
			}
		}
	}
	for i, t := range s.TLS {
		p := index("spec.tls", i)
		for j, h := range t.Hosts {
			e.addAll(v.ingressHost(h, index(child(p, "hosts"), j)))
		}
		if !keepSecretNames && t.SecretName != "" {
			for _, msg := range v.patterns.subdomainErrors(t.SecretName, "characters") {
				e.invalid(child(p, "secretName"), t.SecretName, msg)
			}
		}
	}
	if c := s.IngressClassName; c != nil {
		for _, msg := range v.patterns.subdomainErrors(*c, "characters") {
			e.invalid("spec.ingressClassName", *c, msg)
		}
	}
	return e
}

const wildcardSubdomainMsg = "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character"

// ingressHost checks a host: a DNS subdomain, or "*." and one.
func (v *Validator) ingressHost(h, path string) errs {
	var e errs
	if !strings.Contains(h, "*") {
		for _, msg := range v.patterns.subdomainErrors(h, "characters") {
			e.invalid(path, h, msg)
		}
		return e
	}
	if len(h) > 253 {
		e.invalid(path, h, "must be no more than 253 characters")
	}
	if !strings.HasPrefix(h, "*.") || !v.patterns.subdomain.MatchString(h[2:]) {
		e.invalid(path, h, regexError(wildcardSubdomainMsg, `\*\.`+dnsSubdomainFmt, "*.example.com"))
	}
	return e
}

func (v *Validator) ingressPath(p *networkingv1.HTTPIngressPath, path string) errs {
	var e errs
	if p.PathType == nil {
		e.required(child(path, "pathType"), "pathType must be specified")
		return e
	}
	switch *p.PathType {
	case "Exact", "Prefix":
		if !strings.HasPrefix(p.Path, "/") {
			e.invalid(child(path, "path"), p.Path, "must be an absolute path")
		}
		if p.Path != "" {
			for _, seq := range []string{"//", "/./", "/../", "%2f", "%2F"} {
				if strings.Contains(p.Path, seq) {
					e.invalid(child(path, "path"), p.Path, fmt.Sprintf("must not contain '%s'", seq))
				}
			}
			for _, suffix := range []string{"/..", "/."} {
				if strings.HasSuffix(p.Path, suffix) {
					e.invalid(child(path, "path"), p.Path, fmt.Sprintf("cannot end with '%s'", suffix))
				}
			}
		}
	case "ImplementationSpecific":
		if p.Path != "" && !strings.HasPrefix(p.Path, "/") {
			e.invalid(child(path, "path"), p.Path, "must be an absolute path")
		}
	default:
		e.notSupported(child(path, "pathType"), string(*p.PathType), "Exact", "ImplementationSpecific", "Prefix")
	}
	e.addAll(v.ingressBackend(&p.Backend, child(path, "backend")))
	return e
}

// ingressBackend is validateIngressBackend; service names are DNS
// labels (RelaxedServiceNameValidation is on in v1.36).
func (v *Validator) ingressBackend(b *networkingv1.IngressBackend, path string) errs {
	var e errs
	switch {
	case b.Resource != nil && b.Service != nil:
		e.invalid(path, "", "cannot set both resource and service backends")
	case b.Resource != nil:
		r, p := b.Resource, child(path, "resource")
		if r.APIGroup != nil {
			for _, msg := range v.patterns.subdomainErrors(*r.APIGroup, "characters") {
				e.invalid(child(p, "apiGroup"), *r.APIGroup, msg)
			}
		}
		for _, f := range []struct{ name, value string }{{"kind", r.Kind}, {"name", r.Name}} {
			if f.value == "" {
				e.required(child(p, f.name), "")
				continue
			}
			for _, msg := range pathSegmentErrors(f.value, false) {
				e.invalid(child(p, f.name), f.value, msg)
			}
		}
	case b.Service != nil:
		s, p := b.Service, child(path, "service")
		if s.Name == "" {
			e.required(child(p, "name"), "")
		} else {
			for _, msg := range v.patterns.labelErrors(s.Name) {
				e.invalid(child(p, "name"), s.Name, msg)
			}
		}
		switch {
		case s.Port.Name != "" && s.Port.Number != 0:
			e.invalid(path, "", "cannot set both port name & port number")
		case s.Port.Name != "":
			for _, msg := range portNameErrors(s.Port.Name) {
				e.invalid(child(child(p, "port"), "name"), s.Port.Name, msg)
			}
		case s.Port.Number != 0:
			if !validPort(s.Port.Number) {
				e.invalid(child(child(p, "port"), "number"), s.Port.Number, portRangeMsg)
			}
		default:
			e.required(path, "port name or number is required")
		}
	default:
		e.invalid(path, "", "resource or service backend is required")
	}
	return e
}
