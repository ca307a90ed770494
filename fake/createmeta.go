package fake

import metav1 "github.com/kubewire/kubewire/api/meta/v1"

// wipeSystemFields clears what a create's body may not set, as
// kube-apiserver's create handler does before it records managedFields:
// the system sets these, so no manager owns them.
func wipeSystemFields(m *metav1.ObjectMeta) {
	m.CreationTimestamp = metav1.Time{}
	m.UID = ""
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	m.SelfLink = ""
}
