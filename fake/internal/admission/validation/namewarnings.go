package validation

import (
	"fmt"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	batchv1 "github.com/kubewire/kubewire/api/batch/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Warnings are Warnings(d, old) preceded by the registry strategies'
// warning on a create whose name is a DNS subdomain but not a DNS label:
// the name of a Pod becomes its hostname, and the name of a workload
// that makes Pods starts theirs, so kube-apiserver recommends a label.
// (StatefulSets and DaemonSets get no such warning on v1.36.)
func (v *Validator) Warnings(d, old *object.Draft) []string {
	var w []string
	if old == nil {
		w = v.nameWarning(d)
	}
	return append(w, Warnings(d, old)...)
}

func (v *Validator) nameWarning(d *object.Draft) []string {
	var used string
	switch d.Typed.(type) {
	case *corev1.Pod:
		used = "the Pod's hostname"
	case *appsv1.Deployment, *appsv1.ReplicaSet, *batchv1.Job, *batchv1.CronJob, *corev1.ReplicationController:
		used = "Pod names and hostnames"
	default:
		return nil
	}
	msgs := v.patterns.labelErrors(d.Meta.Name)
	if len(msgs) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("metadata.name: this is used in %s, which can result in surprising behavior; a DNS label is recommended: %v", used, msgs)}
}
