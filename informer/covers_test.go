package informer_test

import (
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
)

// Covers tells from an object's namespace, name and labels whether a
// Factory informer's Scope holds it; what it cannot tell counts as held.
func TestCovers(t *testing.T) {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f, err := informer.NewFactory(c, informer.FactoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inf := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "a",
		LabelSelector: client.MatchLabels(map[string]string{"app": "web"}),
		FieldSelector: client.FieldSelector{}.NotEquals("metadata.name", "skip").Equals("type", "x")})
	all := informer.Shared[*corev1.ConfigMap](f, informer.Scope{})
	obj := func(ns, name string, labels map[string]string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels}}
	}
	web := map[string]string{"app": "web"}
	for _, tc := range []struct {
		obj  *corev1.ConfigMap
		want bool
	}{
		{obj("a", "cm", web), true},
		{obj("b", "cm", web), false},
		{obj("a", "cm", nil), false},
		{obj("a", "cm", map[string]string{"app": "db"}), false},
		{obj("a", "skip", web), false},
	} {
		if got := inf.Covers(tc.obj.Namespace, tc.obj.Name, tc.obj.Labels); got != tc.want {
			t.Errorf("Covers(%s/%s %v) = %v, want %v", tc.obj.Namespace, tc.obj.Name, tc.obj.Labels, got, tc.want)
		}
		if !all.Covers(tc.obj.Namespace, tc.obj.Name, tc.obj.Labels) {
			t.Errorf("an informer of everything does not cover %s/%s", tc.obj.Namespace, tc.obj.Name)
		}
	}
}
