package validation

import (
	"math"
	"regexp"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Pods and pod specs, as pkg/apis/core/validation checks them: the
// checks of containers, ports, policies and the names a spec holds.
// kube-apiserver checks more (volumes, probes, security contexts,
// resources, affinity, and which fields an update may change); those
// are not written here yet.

var (
	portNameCharset   = regexp.MustCompile(`^[-a-z0-9]+$`)
	portNameOneLetter = regexp.MustCompile(`[a-z]`)
)

func podKinds(rules map[string]kindRule) {
	rules["/pods"] = kindRule{
		create: func(v *Validator, d *object.Draft) errs {
			p := d.Typed.(*corev1.Pod)
			e := v.podMetadataAndSpec(p)
			if len(p.Spec.EphemeralContainers) > 0 {
				e.forbidden("spec.ephemeralContainers", "cannot be set on create")
			}
			if p.Spec.NodeName != "" && len(p.Spec.SchedulingGates) > 0 {
				e.forbidden("spec.nodeName", "cannot be set until all schedulingGates have been cleared")
			}
			return e
		},
		update: func(v *Validator, d, old *object.Draft) errs {
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.podMetadataAndSpec(d.Typed.(*corev1.Pod)))
			return e
		},
	}
}

func (v *Validator) podMetadataAndSpec(p *corev1.Pod) errs {
	e := v.objectMeta(&p.ObjectMeta, true, subdomainName, true)
	e.addAll(v.podSpec(&p.Spec, "spec"))
	for _, c := range []struct {
		path string
		list []corev1.Container
	}{{"spec.containers", p.Spec.Containers}, {"spec.initContainers", p.Spec.InitContainers}} {
		for i, ctr := range c.list {
			if len(ctr.Image) != len(strings.TrimSpace(ctr.Image)) {
				e.invalid(child(index(c.path, i), "image"), ctr.Image, "must not have leading or trailing whitespace")
			}
		}
	}
	return e
}

// podSpec is kube-apiserver's ValidatePodSpec, in its order, for the
// checks written here.
func (v *Validator) podSpec(s *corev1.PodSpec, path string) errs {
	var e errs
	if s.TerminationGracePeriodSeconds == nil {
		e.required(child(path, "terminationGracePeriodSeconds"), "")
	}
	e.addAll(v.containers(s.Containers, child(path, "containers")))
	switch s.RestartPolicy {
	case "Always", "OnFailure", "Never":
	case "":
		e.required(child(path, "restartPolicy"), "")
	default:
		e.notSupported(child(path, "restartPolicy"), s.RestartPolicy, "Always", "OnFailure", "Never")
	}
	switch s.DNSPolicy {
	case "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None":
	case "":
		e.required(child(path, "dnsPolicy"), "")
	default:
		e.notSupported(child(path, "dnsPolicy"), s.DNSPolicy, "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
	}
	e.addAll(v.labels(s.NodeSelector, child(path, "nodeSelector")))
	if s.ServiceAccountName != "" {
		for _, msg := range v.patterns.subdomainErrors(s.ServiceAccountName, "characters") {
			e.invalid(child(path, "serviceAccountName"), s.ServiceAccountName, msg)
		}
	}
	if s.NodeName != "" {
		for _, msg := range v.patterns.subdomainErrors(s.NodeName, "characters") {
			e.invalid(child(path, "nodeName"), s.NodeName, msg)
		}
	}
	if a := s.ActiveDeadlineSeconds; a != nil && (*a < 1 || *a > math.MaxInt32) {
		e.invalid(child(path, "activeDeadlineSeconds"), *a, "must be between 1 and 2147483647, inclusive")
	}
	if s.Hostname != "" {
		for _, msg := range v.patterns.labelErrors(s.Hostname) {
			e.invalid(child(path, "hostname"), s.Hostname, msg)
		}
	}
	if s.Subdomain != "" {
		for _, msg := range v.patterns.labelErrors(s.Subdomain) {
			e.invalid(child(path, "subdomain"), s.Subdomain, msg)
		}
	}
	return e
}

// containers is kube-apiserver's validateContainers for the checks
// written here: each container's own, then unique names.
func (v *Validator) containers(list []corev1.Container, path string) errs {
	var e errs
	if len(list) == 0 {
		e.required(path, "")
		return e
	}
	names := map[string]bool{}
	for i := range list {
		ctr := &list[i]
		p := index(path, i)
		e.addAll(v.container(ctr, p))
		if names[ctr.Name] {
			e.duplicate(child(p, "name"), ctr.Name)
		}
		names[ctr.Name] = true
	}
	return e
}

func (v *Validator) container(ctr *corev1.Container, path string) errs {
	var e errs
	if ctr.Name == "" {
		e.required(child(path, "name"), "")
	} else {
		for _, msg := range v.patterns.labelErrors(ctr.Name) {
			e.invalid(child(path, "name"), ctr.Name, msg)
		}
	}
	if ctr.Image == "" {
		e.required(child(path, "image"), "")
	}
	switch ctr.TerminationMessagePolicy {
	case "File", "FallbackToLogsOnError":
	case "":
		e.required(child(path, "terminationMessagePolicy"), "")
	default:
		e.notSupported(child(path, "terminationMessagePolicy"), ctr.TerminationMessagePolicy, "File", "FallbackToLogsOnError")
	}
	e.addAll(containerPorts(ctr.Ports, child(path, "ports")))
	switch ctr.ImagePullPolicy {
	case "Always", "IfNotPresent", "Never":
	case "":
		e.required(child(path, "imagePullPolicy"), "")
	default:
		e.notSupported(child(path, "imagePullPolicy"), ctr.ImagePullPolicy, "Always", "IfNotPresent", "Never")
	}
	return e
}

func containerPorts(ports []corev1.ContainerPort, path string) errs {
	var e errs
	names := map[string]bool{}
	for i, port := range ports {
		p := index(path, i)
		if port.Name != "" {
			if msgs := portNameErrors(port.Name); len(msgs) > 0 {
				for _, msg := range msgs {
					e.invalid(child(p, "name"), port.Name, msg)
				}
			} else if names[port.Name] {
				e.duplicate(child(p, "name"), port.Name)
			} else {
				names[port.Name] = true
			}
		}
		if port.ContainerPort == 0 {
			e.required(child(p, "containerPort"), "")
		} else if !validPort(port.ContainerPort) {
			e.invalid(child(p, "containerPort"), port.ContainerPort, portRangeMsg)
		}
		if port.HostPort != 0 && !validPort(port.HostPort) {
			e.invalid(child(p, "hostPort"), port.HostPort, portRangeMsg)
		}
		e.addAll(protocol(port.Protocol, child(p, "protocol")))
	}
	return e
}

const portRangeMsg = "must be between 1 and 65535, inclusive"

func validPort(p int32) bool { return p >= 1 && p <= 65535 }

func protocol(proto corev1.Protocol, path string) errs {
	var e errs
	switch proto {
	case "TCP", "UDP", "SCTP":
	case "":
		e.required(path, "")
	default:
		e.notSupported(path, proto, "SCTP", "TCP", "UDP")
	}
	return e
}

// portNameErrors is kube-apiserver's IsValidPortName (an IANA service
// name).
func portNameErrors(name string) []string {
	var out []string
	if len(name) > 15 {
		out = append(out, "must be no more than 15 characters")
	}
	if !portNameCharset.MatchString(name) {
		out = append(out, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !portNameOneLetter.MatchString(name) {
		out = append(out, "must contain at least one letter (a-z)")
	}
	if strings.Contains(name, "--") {
		out = append(out, "must not contain consecutive hyphens")
	}
	if len(name) > 0 && (name[0] == '-' || name[len(name)-1] == '-') {
		out = append(out, "must not begin or end with a hyphen")
	}
	return out
}
