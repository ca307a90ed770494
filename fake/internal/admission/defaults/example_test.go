package defaults_test

import (
	"fmt"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/admission/defaults"
)

// A Deployment as a client sends it gets the defaults kube-apiserver
// gives it, down to its pod template's containers.
func ExampleApply() {
	d := &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Containers: []corev1.Container{{Name: "web", Image: "nginx"}},
	}}}}
	defaults.Apply(d)
	c := d.Spec.Template.Spec.Containers[0]
	fmt.Println(*d.Spec.Replicas, d.Spec.Strategy.Type, d.Spec.Strategy.RollingUpdate.MaxSurge.StrVal, *d.Spec.ProgressDeadlineSeconds)
	fmt.Println(d.Spec.Template.Spec.RestartPolicy, d.Spec.Template.Spec.DNSPolicy, c.ImagePullPolicy, c.TerminationMessagePath)
	// Output:
	// 1 RollingUpdate 25% 600
	// Always ClusterFirst Always /dev/termination-log
}
