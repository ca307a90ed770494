package fake

import (
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// Add of a namespaced object without a namespace says so (before:
// 'namespaces "" not found'); a cluster-scoped one needs none, and the
// error names the object by its place in the call.
func TestAddNeedsANamespace(t *testing.T) {
	s := New(Options{})
	defer s.Close()
	err := s.Add(&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}})
	if err == nil || !strings.Contains(err.Error(), `add object 1: ConfigMap "settings" is namespaced and has no metadata.namespace`) {
		t.Errorf("Add of a ConfigMap without a namespace: %v", err)
	}
	if err := s.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: "team-a"}}); err != nil {
		t.Errorf("Add in the namespace added first: %v", err)
	}
}
