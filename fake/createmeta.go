package fake

import (
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// maxGeneratedNameBase is how much of a generateName kube-apiserver
// keeps: a label's 63 characters less the 5 random ones it appends.
const maxGeneratedNameBase = 63 - 5

// generatedName is a name made from generateName as kube-apiserver
// makes it: the prefix cut to 58 characters, then 5 random ones.
func generatedName(base string) string {
	if len(base) > maxGeneratedNameBase {
		base = base[:maxGeneratedNameBase]
	}
	return base + object.RandomSuffix()
}

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
