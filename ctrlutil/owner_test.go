package ctrlutil_test

import (
	"testing"

	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/ctrlutil"
)

func TestIsControlledBy(t *testing.T) {
	owner := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "owner", UID: "u1"}}
	recreated := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "owner", UID: "u1-again"}}
	notCreated := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "owner"}}
	controlled := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "d"}}
	if err := ctrlutil.SetControllerReference(owner, controlled); err != nil {
		t.Fatal(err)
	}
	plainOwned := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "d"}}
	if err := ctrlutil.SetOwnerReference(owner, plainOwned); err != nil {
		t.Fatal(err)
	}
	noUID := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: "d", OwnerReferences: []metav1.OwnerReference{
		{APIVersion: "v1", Kind: "ConfigMap", Name: "owner", Controller: ptr(true)}}}}
	tests := []struct {
		name  string
		obj   *appsv1.Deployment
		owner *corev1.ConfigMap
		want  bool
	}{
		{"Controller", controlled, owner, true},
		{"OwnerNotController", plainOwned, owner, false},
		{"SameNameNewUID", controlled, recreated, false},
		{"NoOwner", &appsv1.Deployment{}, owner, false},
		{"NeitherHasAUID", noUID, notCreated, false},
	}
	for _, tt := range tests {
		if got := ctrlutil.IsControlledBy(tt.obj, tt.owner); got != tt.want {
			t.Errorf("%s: IsControlledBy = %v, want %v", tt.name, got, tt.want)
		}
	}
}
