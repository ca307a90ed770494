package defaults

import (
	"reflect"
	"regexp"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
)

// coreDefaults applies the defaults of a core/v1 type and reports
// whether p was one.
func coreDefaults(p any) bool {
	switch o := p.(type) {
	case *corev1.Pod:
		podDefaults(o)
	case *corev1.PodSpec:
		podSpecDefaults(o)
	case *corev1.Container:
		containerDefaults(&o.ImagePullPolicy, o.Image, &o.TerminationMessagePath, &o.TerminationMessagePolicy)
	case *corev1.EphemeralContainerCommon:
		containerDefaults(&o.ImagePullPolicy, o.Image, &o.TerminationMessagePath, &o.TerminationMessagePolicy)
	case *corev1.ImageVolumeSource:
		// As a container's image: latest (or untagged) is always
		// pulled; an empty reference does not parse, so has no tag.
		if o.PullPolicy == "" {
			if imageTag(o.Reference) == "latest" && imageReference.MatchString(o.Reference) {
				o.PullPolicy = "Always"
			} else {
				o.PullPolicy = "IfNotPresent"
			}
		}
	case *corev1.ContainerPort:
		setIfEmpty(&o.Protocol, "TCP")
	case *corev1.FileKeySelector:
		if o.Optional == nil {
			o.Optional = ptr(false)
		}
	case *corev1.ObjectFieldSelector:
		setIfEmpty(&o.APIVersion, "v1")
	case *corev1.Probe:
		setIfZero(&o.TimeoutSeconds, 1)
		setIfZero(&o.PeriodSeconds, 10)
		setIfZero(&o.SuccessThreshold, 1)
		setIfZero(&o.FailureThreshold, 3)
	case *corev1.HTTPGetAction:
		setIfEmpty(&o.Path, "/")
		setIfEmpty(&o.Scheme, "HTTP")
	case *corev1.GRPCAction:
		if o.Service == nil {
			o.Service = ptr("")
		}
	case *corev1.Volume:
		if allPointersNil(reflect.ValueOf(&o.VolumeSource).Elem()) {
			o.EmptyDir = &corev1.EmptyDirVolumeSource{}
		}
	case *corev1.HostPathVolumeSource:
		if o.Type == nil {
			o.Type = ptr(corev1.HostPathType(""))
		}
	case *corev1.SecretVolumeSource:
		setModeIfNil(&o.DefaultMode)
	case *corev1.ConfigMapVolumeSource:
		setModeIfNil(&o.DefaultMode)
	case *corev1.DownwardAPIVolumeSource:
		setModeIfNil(&o.DefaultMode)
	case *corev1.ProjectedVolumeSource:
		setModeIfNil(&o.DefaultMode)
	case *corev1.ServiceAccountTokenProjection:
		if o.ExpirationSeconds == nil {
			o.ExpirationSeconds = ptr(int64(3600))
		}
	case *corev1.ISCSIVolumeSource:
		setIfEmpty(&o.ISCSIInterface, "default")
	case *corev1.RBDVolumeSource:
		setIfEmpty(&o.RBDPool, "rbd")
		setIfEmpty(&o.RadosUser, "admin")
		setIfEmpty(&o.Keyring, "/etc/ceph/keyring")
	case *corev1.AzureDiskVolumeSource:
		if o.CachingMode == nil {
			o.CachingMode = ptr(corev1.AzureDataDiskCachingMode("ReadWrite"))
		}
		if o.FSType == nil {
			o.FSType = ptr("ext4")
		}
		if o.ReadOnly == nil {
			o.ReadOnly = ptr(false)
		}
		if o.Kind == nil {
			o.Kind = ptr(corev1.AzureDataDiskKind("Shared"))
		}
	case *corev1.ScaleIOVolumeSource:
		setIfEmpty(&o.StorageMode, "ThinProvisioned")
		setIfEmpty(&o.FSType, "xfs")
	case *corev1.PersistentVolumeClaim:
		setIfEmpty(&o.Status.Phase, "Pending")
	case *corev1.PersistentVolumeClaimSpec:
		if o.VolumeMode == nil {
			o.VolumeMode = ptr(corev1.PersistentVolumeMode("Filesystem"))
		}
	case *corev1.PersistentVolume:
		setIfEmpty(&o.Status.Phase, "Pending")
		setIfEmpty(&o.Spec.PersistentVolumeReclaimPolicy, "Retain")
		if o.Spec.VolumeMode == nil {
			o.Spec.VolumeMode = ptr(corev1.PersistentVolumeMode("Filesystem"))
		}
	case *corev1.Service:
		serviceDefaults(o)
	case *corev1.Secret:
		setIfEmpty(&o.Type, "Opaque")
		// stringData is write-only: kube-apiserver's conversion folds
		// it into data.
		for k, v := range o.StringData {
			if o.Data == nil {
				o.Data = map[string][]byte{}
			}
			o.Data[k] = []byte(v)
		}
		o.StringData = nil
	case *corev1.Namespace:
		if o.Name != "" {
			if o.Labels == nil {
				o.Labels = map[string]string{}
			}
			o.Labels["kubernetes.io/metadata.name"] = o.Name
		}
	case *corev1.NamespaceStatus:
		setIfEmpty(&o.Phase, "Active")
	case *corev1.NodeStatus:
		if o.Allocatable == nil && o.Capacity != nil {
			o.Allocatable = o.Capacity
		}
	case *corev1.EndpointPort:
		setIfEmpty(&o.Protocol, "TCP")
	case *corev1.LimitRangeItem:
		limitRangeItemDefaults(o)
	case *corev1.ReplicationController:
		if o.Spec.Template != nil && o.Spec.Template.Labels != nil {
			if len(o.Spec.Selector) == 0 {
				o.Spec.Selector = o.Spec.Template.Labels
			}
			if len(o.Labels) == 0 {
				o.Labels = o.Spec.Template.Labels
			}
		}
		if o.Spec.Replicas == nil {
			o.Spec.Replicas = ptr(int32(1))
		}
	default:
		return false
	}
	return true
}

func setIfEmpty[T ~string](p *T, v T) {
	if *p == "" {
		*p = v
	}
}

func setIfZero[T ~int32 | ~int64](p *T, v T) {
	if *p == 0 {
		*p = v
	}
}

// setModeIfNil sets a volume's defaultMode to 0644.
func setModeIfNil(p **int32) {
	if *p == nil {
		*p = ptr(int32(0o644))
	}
}

// allPointersNil reports whether every pointer field of a struct is nil.
func allPointersNil(v reflect.Value) bool {
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() {
			return false
		}
	}
	return true
}

// podDefaults: requests default to limits, service links are on, and
// host-network pods' host ports default to their container ports.
func podDefaults(p *corev1.Pod) {
	for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			r := &cs[i].Resources
			if r.Limits == nil {
				continue
			}
			if r.Requests == nil {
				r.Requests = corev1.ResourceList{}
			}
			for k, v := range r.Limits {
				if _, ok := r.Requests[k]; !ok {
					r.Requests[k] = v
				}
			}
		}
	}
	if p.Spec.EnableServiceLinks == nil {
		p.Spec.EnableServiceLinks = ptr(true)
	}
	if p.Spec.HostNetwork {
		for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
			for i := range cs {
				for j := range cs[i].Ports {
					if cs[i].Ports[j].HostPort == 0 {
						cs[i].Ports[j].HostPort = cs[i].Ports[j].ContainerPort
					}
				}
			}
		}
	}
}

func podSpecDefaults(s *corev1.PodSpec) {
	// serviceAccount is the deprecated alias of serviceAccountName,
	// which kube-apiserver's conversion keeps equal.
	if s.ServiceAccountName == "" {
		s.ServiceAccountName = s.DeprecatedServiceAccount
	}
	s.DeprecatedServiceAccount = s.ServiceAccountName
	setIfEmpty(&s.DNSPolicy, "ClusterFirst")
	setIfEmpty(&s.RestartPolicy, "Always")
	if s.SecurityContext == nil {
		s.SecurityContext = &corev1.PodSecurityContext{}
	}
	if s.TerminationGracePeriodSeconds == nil {
		s.TerminationGracePeriodSeconds = ptr(int64(30))
	}
	setIfEmpty(&s.SchedulerName, "default-scheduler")
}

// containerDefaults: images tagged latest (or not tagged, nor pinned by
// digest) are always pulled, others if not present.
func containerDefaults(pull *corev1.PullPolicy, image string, msgPath *string, msgPolicy *corev1.TerminationMessagePolicy) {
	if *pull == "" {
		// An image that is not a valid reference has no tag.
		if tag := imageTag(image); tag == "latest" && imageReference.MatchString(image) {
			*pull = "Always"
		} else {
			*pull = "IfNotPresent"
		}
	}
	setIfEmpty(msgPath, "/dev/termination-log")
	setIfEmpty(msgPolicy, "File")
}

// imageTag is an image reference's tag: "latest" when it has neither a
// tag nor a digest, "" when it has only a digest.
func imageTag(image string) string {
	if _, _, digest := strings.Cut(image, "@"); digest {
		name, _, _ := strings.Cut(image, "@")
		if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
			return name[i+1:]
		}
		return ""
	}
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		return image[i+1:]
	}
	return "latest"
}

func serviceDefaults(s *corev1.Service) {
	sp := &s.Spec
	setIfEmpty(&sp.SessionAffinity, "None")
	switch sp.SessionAffinity {
	case "None":
		sp.SessionAffinityConfig = nil
	case "ClientIP":
		if sp.SessionAffinityConfig == nil || sp.SessionAffinityConfig.ClientIP == nil || sp.SessionAffinityConfig.ClientIP.TimeoutSeconds == nil {
			sp.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr(int32(10800))}}
		}
	}
	setIfEmpty(&sp.Type, "ClusterIP")
	for i := range sp.Ports {
		p := &sp.Ports[i]
		setIfEmpty(&p.Protocol, "TCP")
		if p.TargetPort == intstr.FromInt32(0) || p.TargetPort == intstr.FromString("") {
			p.TargetPort = intstr.FromInt32(p.Port)
		}
	}
	externallyAccessible := sp.Type == "LoadBalancer" || sp.Type == "NodePort" || (sp.Type == "ClusterIP" && len(sp.ExternalIPs) > 0)
	if externallyAccessible && sp.ExternalTrafficPolicy == "" {
		sp.ExternalTrafficPolicy = "Cluster"
	}
	if sp.InternalTrafficPolicy == nil && (sp.Type == "NodePort" || sp.Type == "LoadBalancer" || sp.Type == "ClusterIP") {
		sp.InternalTrafficPolicy = ptr(corev1.ServiceInternalTrafficPolicy("Cluster"))
	}
	if sp.Type == "LoadBalancer" {
		if sp.AllocateLoadBalancerNodePorts == nil {
			sp.AllocateLoadBalancerNodePorts = ptr(true)
		}
		for i, ing := range s.Status.LoadBalancer.Ingress {
			if ing.IP != "" && ing.IPMode == nil {
				s.Status.LoadBalancer.Ingress[i].IPMode = ptr(corev1.LoadBalancerIPMode("VIP"))
			}
		}
	}
}

// limitRangeItemDefaults: a container limit's default limit is its max,
// its default request its default limit, else its min.
func limitRangeItemDefaults(o *corev1.LimitRangeItem) {
	if o.Type != "Container" {
		return
	}
	if o.Default == nil {
		o.Default = corev1.ResourceList{}
	}
	if o.DefaultRequest == nil {
		o.DefaultRequest = corev1.ResourceList{}
	}
	for k, v := range o.Max {
		if _, ok := o.Default[k]; !ok {
			o.Default[k] = v
		}
	}
	for k, v := range o.Default {
		if _, ok := o.DefaultRequest[k]; !ok {
			o.DefaultRequest[k] = v
		}
	}
	for k, v := range o.Min {
		if _, ok := o.DefaultRequest[k]; !ok {
			o.DefaultRequest[k] = v
		}
	}
}

// imageReference is the grammar of a container image reference (an
// optional registry host and port, lower-case path components, a tag
// and a digest), as kube-apiserver's defaulting parses it.
var imageReference = func() *regexp.Regexp {
	const (
		alnum      = `[a-z0-9]+`
		separator  = `(?:[._]|__|[-]+)`
		component  = alnum + `(?:` + separator + alnum + `)*`
		domainPart = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
		host       = `(?:` + domainPart + `(?:\.` + domainPart + `)*|\[[a-fA-F0-9:]+\])`
		name       = `(?:` + host + `(?::[0-9]+)?/)?` + component + `(?:/` + component + `)*`
		tag        = `[\w][\w.-]{0,127}`
		digest     = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
	)
	return regexp.MustCompile(`^` + name + `(?::` + tag + `)?(?:@` + digest + `)?$`)
}()
