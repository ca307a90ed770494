package strategy

import corev1 "github.com/kubewire/kubewire/api/core/v1"

// preparePodUpdate is what kube-apiserver's admission plugins do to a
// Pod update before it is validated: Priority keeps the stored priority
// and preemption policy the update leaves out; DefaultTolerationSeconds
// adds again the not-ready and unreachable tolerations the update
// leaves out.
func preparePodUpdate(p, old *corev1.Pod) {
	if p.Spec.Priority == nil {
		p.Spec.Priority = old.Spec.Priority
	}
	if p.Spec.PreemptionPolicy == nil {
		p.Spec.PreemptionPolicy = old.Spec.PreemptionPolicy
	}
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		if !toleratesNoExecute(p.Spec.Tolerations, key) {
			secs := int64(300)
			p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: key, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: &secs})
		}
	}
}

// toleratesNoExecute reports whether a toleration tolerates the taint
// key:NoExecute.
func toleratesNoExecute(ts []corev1.Toleration, key string) bool {
	for _, t := range ts {
		if (t.Effect == "" || t.Effect == "NoExecute") && (t.Key == key || t.Key == "" && t.Operator == "Exists") {
			return true
		}
	}
	return false
}
