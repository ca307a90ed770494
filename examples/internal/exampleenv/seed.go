package exampleenv

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/quantity"
	"github.com/kubewire/kubewire/api/types"
)

// Namespaces are the namespaces of the seeded objects: the fake server
// creates them besides default, kube-system, kube-public and
// kube-node-lease.
var Namespaces = []string{"shop", "payments", "search", "monitoring"}

// app is one of the workloads the seeded objects belong to.
type app struct {
	name, namespace, tier, version string
}

// apps are the seeded workloads; object i belongs to apps[i%len(apps)],
// so every namespace gets a share of every kind.
var apps = []app{
	{"frontend", "shop", "web", "v3.14.2"},
	{"checkout", "shop", "backend", "v2.8.0"},
	{"cart", "shop", "backend", "v2.8.1"},
	{"payments", "payments", "backend", "v5.2.7"},
	{"ledger", "payments", "data", "v1.19.4"},
	{"search", "search", "backend", "v4.0.3"},
	{"indexer", "search", "data", "v4.0.3"},
	{"prometheus", "monitoring", "observability", "v3.6.0"},
}

// ServiceAccount returns the ServiceAccount the Pods of apps[i] run as.
func ServiceAccount(i int) *corev1.ServiceAccount {
	a := apps[i%len(apps)]
	return &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: a.name, Namespace: a.namespace, Labels: map[string]string{"app": a.name}}}
}

// AppOf returns the workload the i-th seeded object of any kind belongs
// to: its name (the "app" label, such as "checkout"), namespace, and
// container image.
func AppOf(i int) (name, namespace, image string) {
	a := apps[i%len(apps)]
	return a.name, a.namespace, "registry.example.com/" + a.namespace + "/" + a.name + ":" + a.version
}

// created is when the seeded objects' Pods started, fixed so that the
// objects are the same on every run.
var created = time.Date(2026, 10, 1, 8, 0, 0, 0, time.UTC)

// kubeAlphabet is the alphabet of generated name suffixes (no vowels, no
// look-alikes), as kube-controller-manager uses.
const kubeAlphabet = "bcdfghjklmnpqrstvwxz2456789"

// suffix writes n in kubeAlphabet, width characters wide.
func suffix(n uint64, width int) string {
	b := make([]byte, width)
	for i := width - 1; i >= 0; i-- {
		b[i] = kubeAlphabet[n%uint64(len(kubeAlphabet))]
		n /= uint64(len(kubeAlphabet))
	}
	return string(b)
}

// templateHash is the pod-template-hash of an app's current ReplicaSet.
func templateHash(a app) string {
	h := fnv.New64a()
	h.Write([]byte(a.name + a.version))
	return suffix(h.Sum64(), 10)
}

// PodName is the name of the i-th seeded Pod: that of a Deployment's
// Pod, such as "checkout-bc5z8kxfhn-bcddc".
func PodName(i int) string {
	a := apps[i%len(apps)]
	return a.name + "-" + templateHash(a) + "-" + suffix(uint64(i), 5)
}

// PodNamespace is the namespace of the i-th seeded Pod.
func PodNamespace(i int) string { return apps[i%len(apps)].namespace }

// Pod returns the i-th seeded Pod: a Deployment's Pod as a real cluster
// holds it once scheduled and started, about 3 KB in protobuf, with an
// application container and a log-shipping sidecar, probes, resources,
// a projected service account volume, tolerations, and status. About
// one in fifty is Pending (unschedulable) and one in two hundred Failed
// (evicted); the others are Running on one of 200 nodes.
func Pod(i int) *corev1.Pod {
	a := apps[i%len(apps)]
	hash := templateHash(a)
	tokenVolume := "kube-api-access-" + suffix(uint64(i)*7919, 5)
	mounts := []corev1.VolumeMount{
		{Name: "config", MountPath: "/etc/" + a.name, ReadOnly: true},
		{Name: tokenVolume, MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true},
	}
	fieldRef := func(path string) *corev1.EnvVarSource {
		return &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: path}}
	}
	httpProbe := func(path string, period int32) *corev1.Probe {
		return &corev1.Probe{
			ProbeHandler:  corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}},
			PeriodSeconds: period, TimeoutSeconds: 1, SuccessThreshold: 1, FailureThreshold: 3,
		}
	}
	restricted := &corev1.SecurityContext{
		AllowPrivilegeEscalation: ptr(false),
		RunAsNonRoot:             ptr(true),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
	_, _, image := AppOf(i)
	shipperImage := "registry.example.com/platform/log-shipper:3.1.9"

	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:         PodName(i),
			GenerateName: a.name + "-" + hash + "-",
			Namespace:    a.namespace,
			Labels: map[string]string{
				"app":                          a.name,
				"tier":                         a.tier,
				"pod-template-hash":            hash,
				"app.kubernetes.io/version":    a.version,
				"app.kubernetes.io/managed-by": "helm",
			},
			Annotations: map[string]string{
				"kubectl.kubernetes.io/restartedAt": "2026-09-30T22:15:00Z",
				"prometheus.io/scrape":              "true",
				"prometheus.io/port":                "9090",
			},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: a.name + "-" + hash,
				UID:        types.UID(fmt.Sprintf("5f1c%04x-9a1e-4c53-8d1b-%012x", i%len(apps), fnvOf(a.name))),
				Controller: ptr(true), BlockOwnerDeletion: ptr(true),
			}},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:  a.name,
				Image: image,
				Args:  []string{"serve", "--config=/etc/" + a.name + "/config.yaml", "--listen=:8080"},
				Ports: []corev1.ContainerPort{
					{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP},
					{Name: "metrics", ContainerPort: 9090, Protocol: corev1.ProtocolTCP},
				},
				Env: []corev1.EnvVar{
					{Name: "LOG_LEVEL", Value: "info"},
					{Name: "POD_NAME", ValueFrom: fieldRef("metadata.name")},
					{Name: "POD_NAMESPACE", ValueFrom: fieldRef("metadata.namespace")},
					{Name: "POD_IP", ValueFrom: fieldRef("status.podIP")},
				},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: quantity.MustParse("250m"), corev1.ResourceMemory: quantity.MustParse("256Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: quantity.MustParse("512Mi")},
				},
				VolumeMounts:             mounts,
				LivenessProbe:            httpProbe("/healthz", 10),
				ReadinessProbe:           httpProbe("/ready", 5),
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy:          corev1.PullIfNotPresent,
				SecurityContext:          restricted,
			}, {
				Name:  "log-shipper",
				Image: shipperImage,
				Args:  []string{"--input=/var/log/containers", "--output=loki.monitoring.svc:3100"},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: quantity.MustParse("10m"), corev1.ResourceMemory: quantity.MustParse("32Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: quantity.MustParse("64Mi")},
				},
				VolumeMounts:             mounts[1:],
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy:          corev1.PullIfNotPresent,
				SecurityContext:          restricted,
			}},
			Volumes: []corev1.Volume{
				{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
					LocalObjectReference: corev1.LocalObjectReference{Name: a.name + "-config"}, DefaultMode: ptr(int32(0o644)),
				}}},
				{Name: tokenVolume, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
					DefaultMode: ptr(int32(0o644)),
					Sources: []corev1.VolumeProjection{
						{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: ptr(int64(3607)), Path: "token"}},
						{ConfigMap: &corev1.ConfigMapProjection{
							LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
							Items:                []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}},
						}},
						{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{
							{Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}},
						}}},
					},
				}}},
			},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			ServiceAccountName:            a.name,
			DeprecatedServiceAccount:      a.name,
			SecurityContext:               &corev1.PodSecurityContext{FSGroup: ptr(int64(2000))},
			SchedulerName:                 "default-scheduler",
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
				{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
			},
			Priority:           ptr(int32(0)),
			EnableServiceLinks: ptr(true),
			PreemptionPolicy:   ptr(corev1.PreemptLowerPriority),
		},
	}

	scheduled := metav1.NewTime(created.Add(time.Duration(i) * time.Second))
	started := metav1.NewTime(scheduled.Add(4 * time.Second))
	switch {
	case i%51 == 50:
		p.Status = corev1.PodStatus{
			Phase:    corev1.PodPending,
			QOSClass: corev1.PodQOSBurstable,
			Conditions: []corev1.PodCondition{{
				Type: corev1.PodScheduled, Status: corev1.ConditionFalse, LastTransitionTime: scheduled,
				Reason:  corev1.PodReasonUnschedulable,
				Message: "0/200 nodes are available: 200 Insufficient memory. preemption: 0/200 nodes are available: 200 No preemption victims found for incoming pod.",
			}},
		}
		return p
	case !podRunning(i):
		p.Spec.NodeName = nodeName(i)
		p.Status = corev1.PodStatus{
			Phase:    corev1.PodFailed,
			QOSClass: corev1.PodQOSBurstable,
			Reason:   "Evicted",
			Message:  "The node was low on resource: memory. Threshold quantity: 100Mi, available: 91204Ki.",
			HostIP:   hostIP(i), HostIPs: []corev1.HostIP{{IP: hostIP(i)}},
			StartTime: &scheduled,
		}
		return p
	}
	p.Spec.NodeName = nodeName(i)
	podIP := fmt.Sprintf("10.%d.%d.%d", 32+i>>16&0x3f, i>>8&0xff, i&0xff)
	running := func(name, image, digest string, id int) corev1.ContainerStatus {
		return corev1.ContainerStatus{
			Name: name, Ready: true, Started: ptr(true),
			State:       corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}},
			Image:       image,
			ImageID:     image[:strings.LastIndexByte(image, ':')] + "@sha256:" + digest,
			ContainerID: fmt.Sprintf("containerd://%016x%016x%016x%016x", id, fnvOf(name), id*31, fnvOf(image)),
		}
	}
	p.Status = corev1.PodStatus{
		Phase:     corev1.PodRunning,
		QOSClass:  corev1.PodQOSBurstable,
		HostIP:    hostIP(i),
		HostIPs:   []corev1.HostIP{{IP: hostIP(i)}},
		PodIP:     podIP,
		PodIPs:    []corev1.PodIP{{IP: podIP}},
		StartTime: &scheduled,
		Conditions: []corev1.PodCondition{
			{Type: "PodReadyToStartContainers", Status: corev1.ConditionTrue, LastTransitionTime: started},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: scheduled},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: started},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: started},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: scheduled},
		},
		ContainerStatuses: []corev1.ContainerStatus{
			running(a.name, image, "4c1f0e9d8b7a69584736251403f2e1d0c9b8a79685746352413f2e1d0c9b8a7", i),
			running("log-shipper", shipperImage, "9e8d7c6b5a49382716051f4e3d2c1b0a99887766554433221100ffeeddccbbaa", i+1<<24),
		},
	}
	return p
}

// podRunning reports whether the i-th seeded Pod is Running; about one in
// fifty is Pending (no node fits) and one in two hundred Failed (evicted).
func podRunning(i int) bool { return i%51 != 50 && i%201 != 123 }

// nodeName is the node the i-th Pod runs on.
func nodeName(i int) string { return fmt.Sprintf("pool-%c-node-%03d", 'a'+i%3, i*7919%200) }

func hostIP(i int) string { return fmt.Sprintf("192.168.%d.%d", 10+i*7919%200/100, 10+i*7919%100) }

// ConfigMapName is the name of the i-th seeded ConfigMap.
func ConfigMapName(i int) string { return fmt.Sprintf("%s-settings-%05d", apps[i%len(apps)].name, i) }

// ConfigMapNamespace is the namespace of the i-th seeded ConfigMap.
func ConfigMapNamespace(i int) string { return apps[i%len(apps)].namespace }

// ConfigMap returns the i-th seeded ConfigMap: an application's settings
// as Helm would install them (about 600 bytes), labelled with its app,
// team and release.
func ConfigMap(i int) *corev1.ConfigMap {
	a := apps[i%len(apps)]
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{
			Name:      ConfigMapName(i),
			Namespace: a.namespace,
			Labels: map[string]string{
				"app":                          a.name,
				"team":                         a.namespace,
				"app.kubernetes.io/managed-by": "helm",
				"release":                      fmt.Sprintf("r%d", i%7),
			},
			Annotations: map[string]string{
				"meta.helm.sh/release-name":      a.name,
				"meta.helm.sh/release-namespace": a.namespace,
			},
		},
		Data: map[string]string{
			"LOG_LEVEL": "info",
			"config.yaml": fmt.Sprintf("server:\n  listen: \":8080\"\n  readTimeout: 5s\n  writeTimeout: 10s\n"+
				"upstream:\n  url: http://%s.%s.svc.cluster.local:8080\n  retries: %d\ncache:\n  ttl: %ds\n  size: %d\n",
				apps[(i+1)%len(apps)].name, apps[(i+1)%len(apps)].namespace, 1+i%3, 30+i%90, 1024<<(i%4)),
			"features": fmt.Sprintf("new-checkout=%t\nfast-search=%t\ndark-mode=true\n", i%2 == 0, i%3 == 0),
		},
	}
}

func fnvOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

func ptr[T any](v T) *T { return &v }
