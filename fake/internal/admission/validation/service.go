package validation

import (
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Services, as pkg/apis/core/validation checks them: ports, selector,
// type, session affinity, ExternalName, and (servicefields.go) cluster
// IPs and IP families, external IPs and traffic policies. kube-apiserver
// checks more (source ranges, load balancer class, session affinity
// config, and which of them an update may change); those are not
// written here yet.

func serviceKinds(rules map[string]kindRule) {
	rules["/services"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			s := d.Typed.(*corev1.Service)
			// kube-apiserver's address allocation runs before
			// validation and refuses bad cluster IPs and families alone.
			if e := serviceClusterIPs(s, nil); !e.empty() {
				return e
			}
			e := v.objectMeta(&s.ObjectMeta, true, labelName, true)
			e.addAll(v.service(s, nil))
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			n, o := d.Typed.(*corev1.Service), old.Typed.(*corev1.Service)
			if e := serviceClusterIPs(n, o); !e.empty() {
				return e
			}
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(serviceClusterIPsUpdate(n, o))
			e.addAll(v.service(n, o))
			return e
		},
	}
}

func headless(s *corev1.Service) bool {
	return len(s.Spec.ClusterIPs) == 1 && s.Spec.ClusterIPs[0] == "None"
}

// service is validateService for the checks written here; old is the
// stored Service on an update.
func (v *Validator) service(s, old *corev1.Service) errs {
	var e errs
	sp := &s.Spec
	if len(sp.Ports) == 0 && !headless(s) && sp.Type != "ExternalName" {
		e.required("spec.ports", "")
	}
	switch sp.Type {
	case "LoadBalancer", "NodePort":
		if headless(s) {
			e.invalid("spec.clusterIPs[0]", sp.ClusterIPs[0], "may not be set to 'None' for "+string(sp.Type)+" services")
		}
	case "ExternalName":
		if len(sp.ClusterIPs) > 0 {
			e.forbidden("spec.clusterIPs", "may not be set for ExternalName services")
		}
		if len(sp.IPFamilies) > 0 {
			e.forbidden("spec.ipFamilies", "may not be set for ExternalName services")
		}
		if sp.IPFamilyPolicy != nil {
			e.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services")
		}
		if cname := strings.TrimSuffix(sp.ExternalName, "."); cname != "" {
			for _, msg := range v.patterns.subdomainErrors(cname, "characters") {
				e.invalid("spec.externalName", cname, msg)
			}
		} else {
			e.required("spec.externalName", "")
		}
	}
	names := map[string]bool{}
	for i := range sp.Ports {
		e.addAll(v.servicePort(&sp.Ports[i], len(sp.Ports) > 1, names, index("spec.ports", i)))
	}
	if sp.Selector != nil {
		e.addAll(v.labels(sp.Selector, "spec.selector"))
	}
	switch sp.SessionAffinity {
	case "ClientIP", "None":
	case "":
		e.required("spec.sessionAffinity", "")
	default:
		e.notSupported("spec.sessionAffinity", sp.SessionAffinity, "ClientIP", "None")
	}
	e.addAll(serviceClusterIPs(s, old))
	e.addAll(serviceExternalIPs(s, old))
	switch sp.Type {
	case "ClusterIP", "NodePort", "LoadBalancer", "ExternalName":
	case "":
		e.required("spec.type", "")
	default:
		e.notSupported("spec.type", sp.Type, "ClusterIP", "ExternalName", "LoadBalancer", "NodePort")
	}
	if sp.Type == "ClusterIP" {
		for i := range sp.Ports {
			if sp.Ports[i].NodePort != 0 {
				e.forbidden(child(index("spec.ports", i), "nodePort"), "may not be used when `type` is 'ClusterIP'")
			}
		}
	}
	type key struct {
		proto corev1.Protocol
		port  int32
	}
	nodePorts := map[key]bool{}
	for i, p := range sp.Ports {
		if p.NodePort == 0 {
			continue
		}
		k := key{p.Protocol, p.NodePort}
		if nodePorts[k] {
			e.duplicate(child(index("spec.ports", i), "nodePort"), p.NodePort)
		}
		nodePorts[k] = true
	}
	ports := map[key]bool{}
	for i, p := range sp.Ports {
		k := key{p.Protocol, p.Port}
		if ports[k] {
			e.duplicate(index("spec.ports", i), servicePortKey(p.Protocol, p.Port))
		}
		ports[k] = true
	}
	e.addAll(serviceTraffic(s))
	return e
}

func (v *Validator) servicePort(sp *corev1.ServicePort, requireName bool, names map[string]bool, path string) errs {
	var e errs
	if requireName && sp.Name == "" {
		e.required(child(path, "name"), "")
	} else if sp.Name != "" {
		for _, msg := range v.patterns.labelErrors(sp.Name) {
			e.invalid(child(path, "name"), sp.Name, msg)
		}
		if names[sp.Name] {
			e.duplicate(child(path, "name"), sp.Name)
		}
		names[sp.Name] = true
	}
	if !validPort(sp.Port) {
		e.invalid(child(path, "port"), sp.Port, portRangeMsg)
	}
	e.addAll(protocol(sp.Protocol, child(path, "protocol")))
	e.addAll(portNumOrName(sp.TargetPort, child(path, "targetPort")))
	if sp.AppProtocol != nil {
		for _, msg := range v.patterns.labelKeyErrors(*sp.AppProtocol) {
			e.invalid(child(path, "appProtocol"), *sp.AppProtocol, msg)
		}
	}
	return e
}

// portNumOrName is kube-apiserver's ValidatePortNumOrName.
func portNumOrName(p intstr.IntOrString, path string) errs {
	var e errs
	if p.Type == intstr.String {
		for _, msg := range portNameErrors(p.StrVal) {
			e.invalid(path, p.StrVal, msg)
		}
		return e
	}
	if !validPort(p.IntVal) {
		e.invalid(path, p.IntVal, portRangeMsg)
	}
	return e
}

// servicePortKey is the (protocol, port) pair a duplicate port is
// reported with: kube-apiserver's internal ServicePort as JSON, whose
// fields have no JSON names.
func servicePortKey(proto corev1.Protocol, port int32) any {
	return struct {
		Name        string
		Protocol    corev1.Protocol
		AppProtocol *string
		Port        int32
		TargetPort  intstr.IntOrString
		NodePort    int32
	}{Protocol: proto, Port: port}
}
