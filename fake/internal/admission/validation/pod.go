package validation

import (
	"math"
	"reflect"
	"regexp"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Pods and pod specs, as pkg/apis/core/validation checks them: the
// checks of containers and init containers, ports, policies,
// tolerations and the names a spec holds, and (podupdate.go) which
// fields a Pod update may change. kube-apiserver checks more (volumes,
// probes, security contexts, resources, affinity); those are not
// written here yet.

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
			n, o := d.Typed.(*corev1.Pod), old.Typed.(*corev1.Pod)
			e := v.objectMetaUpdate(d.Meta, old.Meta, true)
			e.addAll(v.podMetadataAndSpec(n))
			e.addAll(v.podSpecUpdate(&n.Spec, &o.Spec))
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
	// A Pod's spec is at "spec", a template's deeper.
	vols, ve := v.volumes(s.Volumes, child(path, "volumes"), path == "spec")
	e.addAll(ve)
	e.addAll(v.podResourceClaims(s.ResourceClaims, child(path, "resourceClaims")))
	names := podContext{volumes: vols, claims: map[string]bool{}, grace: s.TerminationGracePeriodSeconds}
	for _, c := range s.ResourceClaims {
		names.claims[c.Name] = true
	}
	e.addAll(v.containers(s.Containers, child(path, "containers"), names))
	e.addAll(v.initContainers(s.InitContainers, s.Containers, child(path, "initContainers"), names))
	e.addAll(v.ephemeralContainers(s, child(path, "ephemeralContainers"), names))
	e.addAll(v.podResources(s, path))
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
	e.addAll(v.podSecurityContext(s, path))
	e.addAll(v.affinity(s.Affinity, child(path, "affinity")))
	e.addAll(podDNSConfig(s, path))
	e.addAll(v.podGates(s, path))
	e.addAll(v.topologySpread(s.TopologySpreadConstraints, child(path, "topologySpreadConstraints")))
	e.addAll(v.hostnameOverride(s, path))
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
	e.addAll(v.tolerations(s.Tolerations, child(path, "tolerations")))
	e.addAll(v.podSpecTail(s, path))
	return e
}

// containers is kube-apiserver's validateContainers for the checks
// written here: each container's own, then unique names.
func (v *Validator) containers(list []corev1.Container, path string, names podContext) errs {
	var e errs
	if len(list) == 0 {
		e.required(path, "")
		return e
	}
	taken := map[string]bool{}
	for i := range list {
		ctr := &list[i]
		p := index(path, i)
		e.addAll(v.container(ctr, p, names))
		if taken[ctr.Name] {
			e.duplicate(child(p, "name"), ctr.Name)
		}
		taken[ctr.Name] = true
		e.addAll(containerProbes(ctr, names.grace, p))
	}
	return e
}

func (v *Validator) container(ctr *corev1.Container, path string, names podContext) errs {
	return v.containerCommon(containerFields{ctr.Name, ctr.Image, ctr.TerminationMessagePolicy, ctr.Ports, ctr.Env, ctr.EnvFrom, ctr.VolumeMounts, ctr.ImagePullPolicy, &ctr.Resources, ctr.SecurityContext}, path, names)
}

// containerCommon is kube-apiserver's validateContainerCommon for the
// checks written here, on the fields every kind of container has.
// containerFields are the fields every kind of container has that
// containerCommon checks.
type containerFields struct {
	name, image string
	msgPolicy   corev1.TerminationMessagePolicy
	ports       []corev1.ContainerPort
	env         []corev1.EnvVar
	envFrom     []corev1.EnvFromSource
	mounts      []corev1.VolumeMount
	pull        corev1.PullPolicy
	resources   *corev1.ResourceRequirements
	security    *corev1.SecurityContext
}

// podContext is what a pod spec's containers are checked against: its
// valid volumes, its resource claims, its termination grace period.
type podContext struct {
	volumes, claims map[string]bool
	grace           *int64
}

func (v *Validator) containerCommon(c containerFields, path string, names podContext) errs {
	name, image, msgPolicy, ports, pull := c.name, c.image, c.msgPolicy, c.ports, c.pull
	var e errs
	if name == "" {
		e.required(child(path, "name"), "")
	} else {
		for _, msg := range v.patterns.labelErrors(name) {
			e.invalid(child(path, "name"), name, msg)
		}
	}
	if image == "" {
		e.required(child(path, "image"), "")
	}
	switch msgPolicy {
	case "File", "FallbackToLogsOnError":
	case "":
		e.required(child(path, "terminationMessagePolicy"), "")
	default:
		e.notSupported(child(path, "terminationMessagePolicy"), msgPolicy, "File", "FallbackToLogsOnError")
	}
	e.addAll(containerPorts(ports, child(path, "ports")))
	e.addAll(v.env(c.env, child(path, "env")))
	e.addAll(v.envFrom(c.envFrom, child(path, "envFrom")))
	e.addAll(volumeMounts(c.mounts, names.volumes, child(path, "volumeMounts")))
	switch pull {
	case "Always", "IfNotPresent", "Never":
	case "":
		e.required(child(path, "imagePullPolicy"), "")
	default:
		e.notSupported(child(path, "imagePullPolicy"), pull, "Always", "IfNotPresent", "Never")
	}
	e.addAll(v.resourceRequirements(c.resources, names.claims, child(path, "resources")))
	e.addAll(containerSecurityContext(c.security, child(path, "securityContext")))
	return e
}

// ephemeralAllowed are the fields an ephemeral container may set; the
// others (ports, resources, probes, lifecycle, ...) are refused.
var ephemeralAllowed = map[string]bool{
	"Name": true, "Image": true, "Command": true, "Args": true, "WorkingDir": true, "EnvFrom": true, "Env": true,
	"VolumeMounts": true, "VolumeDevices": true, "TerminationMessagePath": true, "TerminationMessagePolicy": true,
	"ImagePullPolicy": true, "SecurityContext": true, "Stdin": true, "StdinOnce": true, "TTY": true,
	"UnknownFields": true,
}

// ephemeralContainers is kube-apiserver's validateEphemeralContainers
// for the checks written here: each one's common checks, a name unique
// across all containers, a target that is another container, and only
// the allowed fields set (in the order of the type's fields).
func (v *Validator) ephemeralContainers(s *corev1.PodSpec, path string, names podContext) errs {
	var e errs
	others, all := map[string]bool{}, map[string]bool{}
	for _, list := range [][]corev1.Container{s.Containers, s.InitContainers} {
		for _, c := range list {
			others[c.Name], all[c.Name] = true, true
		}
	}
	for i := range s.EphemeralContainers {
		ec := &s.EphemeralContainers[i]
		c := &ec.EphemeralContainerCommon
		p := index(path, i)
		e.addAll(v.containerCommon(containerFields{c.Name, c.Image, c.TerminationMessagePolicy, c.Ports, c.Env, c.EnvFrom, c.VolumeMounts, c.ImagePullPolicy, &c.Resources, c.SecurityContext}, p, names))
		if len(c.Image) != len(strings.TrimSpace(c.Image)) {
			e.invalid(child(p, "image"), c.Image, "must not have leading or trailing whitespace")
		}
		if all[c.Name] {
			e.duplicate(child(p, "name"), c.Name)
		}
		all[c.Name] = true
		if ec.TargetContainerName != "" && !others[ec.TargetContainerName] {
			e.notFound(child(p, "targetContainerName"), ec.TargetContainerName)
		}
		rv, rt := reflect.ValueOf(*c), reflect.TypeOf(*c)
		for f := range rt.NumField() {
			name := rt.Field(f).Name
			if !ephemeralAllowed[name] && !rv.Field(f).IsZero() {
				e.forbidden(child(p, strings.ToLower(name[:1])+name[1:]), "cannot be set for an Ephemeral Container")
			}
		}
		for j, vm := range c.VolumeMounts {
			if vm.SubPath != "" {
				e.forbidden(child(index(child(p, "volumeMounts"), j), "subPath"), "cannot be set for an Ephemeral Container")
			}
			if vm.SubPathExpr != "" {
				e.forbidden(child(index(child(p, "volumeMounts"), j), "subPathExpr"), "cannot be set for an Ephemeral Container")
			}
		}
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
