package defaults

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/intstr"
	"github.com/kubewire/kubewire/api/quantity"
)

func TestImageTag(t *testing.T) {
	tests := map[string]string{
		"nginx":                                "latest",
		"nginx:1.27":                           "1.27",
		"registry.example.com:5000/a/b":        "latest",
		"registry.example.com:5000/a/b:v2":     "v2",
		"busybox@sha256:0123":                  "",
		"busybox:1@sha256:0123":                "1",
		"registry.example.com:5000/a@sha256:0": "",
	}
	for image, want := range tests {
		if got := imageTag(image); got != want {
			t.Errorf("imageTag(%q) = %q, want %q", image, got, want)
		}
	}
}

// Defaults reach every occurrence of a type: probes, ports, volumes and
// env of a Job's containers; a Pod's requests follow its limits.
func TestApplyNested(t *testing.T) {
	job := &batchv1.Job{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{
			Name: "c", Image: "i:1",
			Ports:         []corev1.ContainerPort{{ContainerPort: 80}},
			LivenessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt32(80)}}},
			Env:           []corev1.EnvVar{{Name: "N", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "spec.nodeName"}}}},
		}},
		Volumes: []corev1.Volume{{Name: "empty"}, {Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}}},
	}}}}
	Apply(job)
	c := job.Spec.Template.Spec.Containers[0]
	got := []any{c.Ports[0].Protocol, c.LivenessProbe.TimeoutSeconds, c.LivenessProbe.PeriodSeconds, c.LivenessProbe.HTTPGet.Path, c.LivenessProbe.HTTPGet.Scheme,
		c.Env[0].ValueFrom.FieldRef.APIVersion, job.Spec.Template.Spec.Volumes[0].EmptyDir != nil, *job.Spec.Template.Spec.Volumes[1].ConfigMap.DefaultMode,
		*job.Spec.BackoffLimit, *job.Spec.Completions, string(*job.Spec.CompletionMode), *job.Spec.Suspend, string(*job.Spec.PodReplacementPolicy)}
	want := []any{corev1.Protocol("TCP"), int32(1), int32(10), "/", corev1.URIScheme("HTTP"), "v1", true, int32(0o644), int32(6), int32(1), "NonIndexed", false, "TerminatingOrFailed"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("job defaults (-want +got):\n%s", diff)
	}

	pod := &corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
		Limits: corev1.ResourceList{"cpu": quantity.MustParse("1")},
	}}}}}
	Apply(pod)
	if q := pod.Spec.Containers[0].Resources.Requests["cpu"]; q.String() != "1" || !*pod.Spec.EnableServiceLinks {
		t.Errorf("pod: requests %v, enableServiceLinks %v", pod.Spec.Containers[0].Resources.Requests, *pod.Spec.EnableServiceLinks)
	}
}

func TestApplyService(t *testing.T) {
	svc := &corev1.Service{Spec: corev1.ServiceSpec{Type: "NodePort", Ports: []corev1.ServicePort{{Port: 80}, {Port: 53, TargetPort: intstr.FromString("dns")}}}}
	Apply(svc)
	sp := svc.Spec
	got := []any{sp.SessionAffinity, sp.Ports[0].Protocol, sp.Ports[0].TargetPort, sp.Ports[1].TargetPort, sp.ExternalTrafficPolicy, *sp.InternalTrafficPolicy}
	want := []any{corev1.ServiceAffinity("None"), corev1.Protocol("TCP"), intstr.FromInt32(80), intstr.FromString("dns"), corev1.ServiceExternalTrafficPolicy("Cluster"), corev1.ServiceInternalTrafficPolicy("Cluster")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("service defaults (-want +got):\n%s", diff)
	}
}
