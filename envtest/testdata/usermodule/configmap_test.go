package usertest

import (
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/envtest"
)

func TestConfigMapRoundTrip(t *testing.T) {
	env := envtest.StartForTest(t, envtest.Options{}) // a real kube-apiserver and etcd, stopped when t ends
	c, err := client.New(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")

	cm := &corev1.ConfigMap{Data: map[string]string{"greeting": "hello"}}
	cm.Name = "demo"
	if _, err := cms.Create(t.Context(), cm, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := cms.Get(t.Context(), "demo", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Data["greeting"] != "hello" || got.UID == "" {
		t.Errorf("read back %v (uid %q), want greeting=hello and a server-set uid", got.Data, got.UID)
	}
}
