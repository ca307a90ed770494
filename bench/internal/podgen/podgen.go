// Package podgen builds the Pods the benchmarks decode, with the upstream
// k8s.io/api types so that both SDKs read bytes produced by the reference
// encoder. Two shapes: Small (about 1 KB in protobuf, the shape of a
// freshly scheduled Pod) and Realistic (about 8-9 KB: a running Pod as a
// cluster stores it, with defaults, status and two managedFields entries).
package podgen

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Shape selects the kind of Pod to build.
type Shape int

const (
	Small Shape = iota
	Realistic
)

func (s Shape) String() string {
	if s == Small {
		return "small"
	}
	return "realistic"
}

// Pod returns the i-th Pod of a deployment-like set: names, uids, IPs and
// resource versions are unique; namespaces, labels, images, node names and
// managers repeat as they do in a real cluster.
func Pod(shape Shape, i int) *corev1.Pod {
	ns := fmt.Sprintf("team-%d", i%20)
	app := fmt.Sprintf("app-%d", i%50)
	hash := fmt.Sprintf("7f%06x", i%50)
	created := metav1.Unix(1_790_000_000+int64(i%3600), 0)
	p := &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name:              fmt.Sprintf("%s-%s-%05x", app, hash, i),
			GenerateName:      fmt.Sprintf("%s-%s-", app, hash),
			Namespace:         ns,
			UID:               types.UID(fmt.Sprintf("5e1c%04x-9a2b-4c3d-8e4f-%012x", i%65536, i)),
			ResourceVersion:   fmt.Sprint(100000 + i),
			CreationTimestamp: created,
			Labels:            map[string]string{"app": app, "pod-template-hash": hash, "tier": "backend"},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: app + "-" + hash,
				UID: types.UID(fmt.Sprintf("0a0b%04x-1111-2222-3333-444455556666", i%50)), Controller: ptr(true), BlockOwnerDeletion: ptr(true),
			}},
		},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:  "main",
				Image: "registry.example.com/" + app + ":1.4.2",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080, Protocol: corev1.ProtocolTCP}},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
				},
				TerminationMessagePath:   "/dev/termination-log",
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy:          corev1.PullIfNotPresent,
			}},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			ServiceAccountName:            "default",
			NodeName:                      fmt.Sprintf("node-%03d", i%100),
			SchedulerName:                 "default-scheduler",
		},
		Status: smallStatus(i, created),
	}
	p.Spec.Tolerations = []corev1.Toleration{
		{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
		{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
	}
	if shape == Realistic {
		realistic(p, i, created)
	}
	return p
}

func ptr[T any](v T) *T { return &v }

// smallStatus is the status of a running Pod without the kubelet's details.
func smallStatus(i int, created metav1.Time) corev1.PodStatus {
	podIP := fmt.Sprintf("10.%d.%d.%d", 64+i/65536%64, i/256%256, i%256)
	hostIP := fmt.Sprintf("192.168.1.%d", 10+i%100)
	return corev1.PodStatus{
		Phase: corev1.PodRunning, QOSClass: corev1.PodQOSBurstable,
		HostIP: hostIP, PodIP: podIP, StartTime: &created,
		Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: created},
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: created},
		},
	}
}
