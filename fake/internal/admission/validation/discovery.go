package validation

import (
	"fmt"
	"slices"
	"strings"

	discoveryv1 "github.com/kubewire/kubewire/api/discovery/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// EndpointSlices, as pkg/apis/discovery/validation checks them.

const (
	maxSliceEndpoints = 1000
	maxSlicePorts     = 20000
	maxSliceAddresses = 100
	maxHints          = 8
)

func discoveryKinds(rules map[string]kindRule) {
	rules["discovery.k8s.io/endpointslices"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			return v.endpointSlice(d, nil)
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*discoveryv1.EndpointSlice), old.Typed.(*discoveryv1.EndpointSlice)
			e := v.endpointSlice(d, o)
			if n.AddressType != o.AddressType {
				e.invalid("addressType", string(n.AddressType), "field is immutable")
			}
			return e
		},
	}
}

func (v *Validator) endpointSlice(d *object.Draft, old *discoveryv1.EndpointSlice) errs {
	s := d.Typed.(*discoveryv1.EndpointSlice)
	e := v.objectMeta(d.Meta, true, subdomainName, true)
	switch s.AddressType {
	case "IPv4", "IPv6", "FQDN":
	case "":
		e.required("addressType", "")
	default:
		e.notSupported("addressType", string(s.AddressType), "FQDN", "IPv4", "IPv6")
	}
	e.addAll(v.endpointPorts(s.Ports))
	if ee := v.endpoints(s.Endpoints, s.AddressType); len(ee) > 0 && (old == nil || !sameJSON(old.Endpoints, s.Endpoints)) {
		e.addAll(ee)
	}
	return e
}

func (v *Validator) endpointPorts(ports []discoveryv1.EndpointPort) errs {
	var e errs
	if len(ports) > maxSlicePorts {
		e.add(tooManyErr("ports", len(ports), maxSlicePorts))
		return e
	}
	var names []string
	for i, p := range ports {
		path := index("ports", i)
		name := ""
		if p.Name != nil {
			name = *p.Name
		}
		if name != "" {
			for _, msg := range v.patterns.labelErrors(name) {
				e.invalid(child(path, "name"), name, msg)
			}
		}
		if slices.Contains(names, name) {
			e.duplicate(child(path, "name"), name)
		} else {
			names = append(names, name)
		}
		switch {
		case p.Protocol == nil:
			e.required(child(path, "protocol"), "")
		case *p.Protocol != "TCP" && *p.Protocol != "UDP" && *p.Protocol != "SCTP":
			e.notSupported(child(path, "protocol"), string(*p.Protocol), "SCTP", "TCP", "UDP")
		}
		if p.AppProtocol != nil {
			for _, msg := range v.patterns.labelKeyErrors(*p.AppProtocol) {
				e.invalid(child(path, "appProtocol"), *p.AppProtocol, msg)
			}
		}
	}
	return e
}

func (v *Validator) endpoints(list []discoveryv1.Endpoint, addressType discoveryv1.AddressType) errs {
	var e errs
	if len(list) > maxSliceEndpoints {
		e.add(tooManyErr("endpoints", len(list), maxSliceEndpoints))
		return e
	}
	for i, ep := range list {
		path := index("endpoints", i)
		ap := child(path, "addresses")
		if len(ep.Addresses) == 0 {
			e.required(ap, "must contain at least 1 address")
		} else if len(ep.Addresses) > maxSliceAddresses {
			e.add(tooManyErr(ap, len(ep.Addresses), maxSliceAddresses))
		}
		for j, a := range ep.Addresses {
			p := index(ap, j)
			switch addressType {
			case "IPv4":
				if msgs := ipLegacyErrors(a); len(msgs) > 0 {
					for _, msg := range msgs {
						e.invalid(p, a, msg)
					}
					continue
				}
				if parseIPSloppy(a).To4() == nil {
					e.invalid(ap, a, "must be an IPv4 address")
				}
				e.addAll(endpointIP(a, p))
			case "IPv6":
				if msgs := ipStrictErrors(a); len(msgs) > 0 {
					for _, msg := range msgs {
						e.invalid(p, a, msg)
					}
					continue
				}
				if ip := parseIPSloppy(a); ip.To4() != nil {
					e.invalid(ap, a, "must be an IPv6 address")
				}
				e.addAll(endpointIP(a, p))
			case "FQDN":
				e.addAll(v.fqdn(a, p))
			}
		}
		if ep.NodeName != nil {
			for _, msg := range v.patterns.subdomainErrors(*ep.NodeName, "characters") {
				e.invalid(child(path, "nodeName"), *ep.NodeName, msg)
			}
		}
		// deprecatedTopology is not checked: kube-apiserver v1.36.3
		// stores keys its label rules refuse.
		if ep.Hostname != nil {
			for _, msg := range v.patterns.labelErrors(*ep.Hostname) {
				e.invalid(child(path, "hostname"), *ep.Hostname, msg)
			}
		}
		if ep.Hints != nil {
			e.addAll(v.endpointHints(ep.Hints, child(path, "hints")))
		}
	}
	return e
}

// endpointIP is ValidateEndpointIP: no unspecified, loopback or
// link-local address.
func endpointIP(a, path string) errs {
	var e errs
	ip := parseIPSloppy(a)
	if ip.IsUnspecified() {
		e.invalid(path, a, fmt.Sprintf("may not be unspecified (%v)", a))
	}
	if ip.IsLoopback() {
		e.invalid(path, a, "may not be in the loopback range (127.0.0.0/8, ::1/128)")
	}
	if ip.IsLinkLocalUnicast() {
		e.invalid(path, a, "may not be in the link-local range (169.254.0.0/16, fe80::/10)")
	}
	if ip.IsLinkLocalMulticast() {
		e.invalid(path, a, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)")
	}
	return e
}

// fqdn is IsFullyQualifiedDomainName: one error at most.
func (v *Validator) fqdn(name, path string) errs {
	var e errs
	if name == "" {
		e.required(path, "")
		return e
	}
	name = strings.TrimSuffix(name, ".")
	if msgs := v.patterns.subdomainErrors(name, "characters"); len(msgs) > 0 {
		e.invalid(path, name, strings.Join(msgs, ","))
		return e
	}
	labels := strings.Split(name, ".")
	if len(labels) < 2 {
		e.invalid(path, name, "should be a domain with at least two segments separated by dots")
		return e
	}
	for _, l := range labels {
		if msgs := v.patterns.labelErrors(l); len(msgs) > 0 {
			e.invalid(path, l, strings.Join(msgs, ","))
			return e
		}
	}
	return e
}

func (v *Validator) endpointHints(h *discoveryv1.EndpointHints, path string) errs {
	var e errs
	zp := child(path, "forZones")
	if len(h.ForZones) > maxHints {
		e.add(tooManyErr(zp, len(h.ForZones), maxHints))
		return e
	}
	var zones []string
	for i, z := range h.ForZones {
		p := child(index(zp, i), "name")
		if slices.Contains(zones, z.Name) {
			e.duplicate(p, z.Name)
		} else {
			zones = append(zones, z.Name)
		}
		for _, msg := range v.patterns.labelValueErrors(z.Name) {
			e.invalid(p, z.Name, msg)
		}
	}
	np := child(path, "forNodes")
	if len(h.ForNodes) > maxHints {
		e.add(tooManyErr(np, len(h.ForNodes), maxHints))
		return e
	}
	var nodes []string
	for i, n := range h.ForNodes {
		p := child(index(np, i), "name")
		if slices.Contains(nodes, n.Name) {
			e.duplicate(p, n.Name)
		} else {
			nodes = append(nodes, n.Name)
		}
		for _, msg := range v.patterns.subdomainErrors(n.Name, "characters") {
			e.invalid(p, n.Name, msg)
		}
	}
	return e
}

// tooManyErr is kube-apiserver's TooMany error for a list longer than
// max.
func tooManyErr(path string, n, max int) apierr.Cause {
	unit := "items"
	if max == 1 {
		unit = "item"
	}
	return apierr.Cause{Type: "FieldValueTooMany", Field: path, Message: fmt.Sprintf("Too many: %d: must have at most %d %s", n, max, unit)}
}
