package podgen

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// realistic adds what a running Pod carries once the API server defaulted
// it and the kubelet reported status.
func realistic(p *corev1.Pod, i int, created metav1.Time) {
	c := &p.Spec.Containers[0]
	c.Env = []corev1.EnvVar{
		{Name: "LOG_LEVEL", Value: "info"},
		{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
		{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
	}
	probe := func(path string) *corev1.Probe {
		return &corev1.Probe{
			ProbeHandler:   corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}},
			TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3,
		}
	}
	c.LivenessProbe, c.ReadinessProbe = probe("/healthz"), probe("/ready")
	c.VolumeMounts = []corev1.VolumeMount{
		{Name: "config", MountPath: "/etc/app", ReadOnly: true},
		{Name: fmt.Sprintf("kube-api-access-%05x", i), MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true},
	}
	c.SecurityContext = &corev1.SecurityContext{AllowPrivilegeEscalation: ptr(false), RunAsNonRoot: ptr(true),
		Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}}
	p.Spec.Volumes = []corev1.Volume{
		{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: "app-config"}, DefaultMode: ptr(int32(420))}}},
		{Name: fmt.Sprintf("kube-api-access-%05x", i), VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
			DefaultMode: ptr(int32(420)),
			Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{ExpirationSeconds: ptr(int64(3607)), Path: "token"}},
				{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"},
					Items: []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}}}},
				{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "namespace",
					FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}}}},
			},
		}}},
	}
	sidecar := corev1.Container{
		Name:  "proxy",
		Image: "registry.example.com/mesh/proxy:2.11.0",
		Args:  []string{"proxy", "sidecar", "--domain", "$(POD_NAMESPACE).svc.cluster.local", "--log-level=warning"},
		Ports: []corev1.ContainerPort{{Name: "http-envoy-prom", ContainerPort: 15090, Protocol: corev1.ProtocolTCP}},
		Env: []corev1.EnvVar{
			{Name: "POD_NAMESPACE", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"}}},
			{Name: "INSTANCE_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
			{Name: "SERVICE_ACCOUNT", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "spec.serviceAccountName"}}},
			{Name: "PROXY_CONFIG", Value: `{"discoveryAddress":"istiod.istio-system.svc:15012","tracing":{"zipkin":{"address":"zipkin.istio-system:9411"}}}`},
		},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("40Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("1Gi")},
		},
		ReadinessProbe:           probe("/healthz/ready"),
		VolumeMounts:             c.VolumeMounts[1:],
		TerminationMessagePath:   "/dev/termination-log",
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		ImagePullPolicy:          corev1.PullIfNotPresent,
		SecurityContext:          c.SecurityContext,
	}
	p.Spec.Containers = append(p.Spec.Containers, sidecar)
	p.Spec.InitContainers = []corev1.Container{{
		Name:  "mesh-init",
		Image: "registry.example.com/mesh/proxy:2.11.0",
		Args:  []string{"istio-iptables", "-p", "15001", "-z", "15006", "-u", "1337", "-m", "REDIRECT", "-i", "*", "-x", "", "-b", "*", "-d", "15090,15021,15020"},
		Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m"), corev1.ResourceMemory: resource.MustParse("40Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("1Gi")},
		},
		SecurityContext: &corev1.SecurityContext{AllowPrivilegeEscalation: ptr(false), RunAsNonRoot: ptr(false), RunAsUser: ptr(int64(0)),
			Capabilities: &corev1.Capabilities{Add: []corev1.Capability{"NET_ADMIN", "NET_RAW"}, Drop: []corev1.Capability{"ALL"}}},
		TerminationMessagePath:   "/dev/termination-log",
		TerminationMessagePolicy: corev1.TerminationMessageReadFile,
		ImagePullPolicy:          corev1.PullIfNotPresent,
	}}
	p.Annotations = map[string]string{
		"kubectl.kubernetes.io/restartedAt": "2026-10-01T12:00:00Z",
		"prometheus.io/scrape":              "true",
		"prometheus.io/port":                "15090",
		"sidecar.istio.io/status":           `{"initContainers":null,"containers":["proxy"],"volumes":["kube-api-access"],"imagePullSecrets":null,"revision":"default"}`,
	}
	p.Spec.ServiceAccountName = "default"
	p.Spec.DeprecatedServiceAccount = "default"
	p.Spec.SecurityContext = &corev1.PodSecurityContext{}
	p.Spec.EnableServiceLinks = ptr(true)
	p.Spec.PreemptionPolicy = ptr(corev1.PreemptLowerPriority)
	p.Spec.Priority = ptr(int32(0))
	p.Spec.Tolerations = []corev1.Toleration{
		{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
		{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
	}
	started := metav1.Unix(created.Unix()+3, 0)
	podIP := fmt.Sprintf("10.%d.%d.%d", 64+i/65536%64, i/256%256, i%256)
	hostIP := fmt.Sprintf("192.168.%d.%d", i%100/250, 10+i%100)
	p.Status = corev1.PodStatus{
		Phase: corev1.PodRunning, QOSClass: corev1.PodQOSBurstable,
		HostIP: hostIP, HostIPs: []corev1.HostIP{{IP: hostIP}},
		PodIP: podIP, PodIPs: []corev1.PodIP{{IP: podIP}},
		StartTime: &created,
		Conditions: []corev1.PodCondition{
			{Type: "PodReadyToStartContainers", Status: corev1.ConditionTrue, LastTransitionTime: started},
			{Type: corev1.PodInitialized, Status: corev1.ConditionTrue, LastTransitionTime: created},
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: started},
			{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: started},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: created},
		},
		ContainerStatuses: []corev1.ContainerStatus{{
			Name: "proxy", Ready: true, Started: ptr(true),
			State:       corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}},
			Image:       "registry.example.com/mesh/proxy:2.11.0",
			ImageID:     "registry.example.com/mesh/proxy@sha256:1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f809",
			ContainerID: fmt.Sprintf("containerd://%064x", i+1<<40),
			Resources:   &sidecar.Resources,
		}, {
			Name: "main", Ready: true, Started: ptr(true), RestartCount: 0,
			State:       corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: started}},
			Image:       c.Image,
			ImageID:     "registry.example.com/" + p.Labels["app"] + "@sha256:8f1e3c2d9b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e",
			ContainerID: fmt.Sprintf("containerd://%064x", i),
			VolumeMounts: []corev1.VolumeMountStatus{
				{Name: "config", MountPath: "/etc/app", ReadOnly: true},
				{Name: fmt.Sprintf("kube-api-access-%05x", i), MountPath: "/var/run/secrets/kubernetes.io/serviceaccount", ReadOnly: true, RecursiveReadOnly: ptr(corev1.RecursiveReadOnlyDisabled)},
			},
		}},
	}
	p.ManagedFields = []metav1.ManagedFieldsEntry{
		{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &created,
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(strings.Replace(specFields, "0a0b0000", fmt.Sprintf("0a0b%04x", i%50), 1))}},
		{Manager: "kubelet", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &started,
			FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fmt.Sprintf(statusFields, podIP))}, Subresource: "status"},
	}
}

// specFields and statusFields are managedFields sets shaped like those a
// Deployment's Pods carry.
const specFields = `{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},"f:tier":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0a0b0000-1111-2222-3333-444455556666\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"main\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"POD_IP\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}},"k:{\"name\":\"POD_NAME\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}}},"f:image":{},"f:imagePullPolicy":{},"f:livenessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:securityContext":{".":{},"f:allowPrivilegeEscalation":{},"f:capabilities":{".":{},"f:drop":{}},"f:runAsNonRoot":{}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{},"f:volumeMounts":{".":{},"k:{\"mountPath\":\"/etc/app\"}":{".":{},"f:mountPath":{},"f:name":{},"f:readOnly":{}}}},"k:{\"name\":\"proxy\"}":{".":{},"f:args":{},"f:env":{".":{},"k:{\"name\":\"INSTANCE_IP\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}},"k:{\"name\":\"POD_NAMESPACE\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}},"k:{\"name\":\"PROXY_CONFIG\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"SERVICE_ACCOUNT\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},"f:fieldRef":{}}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":15090,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:securityContext":{".":{},"f:allowPrivilegeEscalation":{},"f:capabilities":{".":{},"f:drop":{}},"f:runAsNonRoot":{}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:initContainers":{".":{},"k:{\"name\":\"mesh-init\"}":{".":{},"f:args":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:securityContext":{".":{},"f:allowPrivilegeEscalation":{},"f:capabilities":{".":{},"f:add":{},"f:drop":{}},"f:runAsNonRoot":{},"f:runAsUser":{}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{},"f:volumes":{".":{},"k:{\"name\":\"config\"}":{".":{},"f:configMap":{".":{},"f:defaultMode":{},"f:name":{}},"f:name":{}}}}}`

const statusFields = `{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"%s\"}":{".":{},"f:ip":{}}},"f:startTime":{}}}`
