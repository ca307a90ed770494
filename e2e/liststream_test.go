package e2e

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/e2e/harness"
)

// TestListStream reads ConfigMaps on a real kube-apiserver as one
// streamed unpaged list, typed (protobuf answers: the list message's
// items decoded as they arrive) and dynamic (JSON), and finds the
// objects List finds; a client whose MaxResponseBytes the list exceeds
// gets codec.ErrTooLarge and nothing else.
func TestListStream(t *testing.T) {
	const ns, n = "list-stream", 60
	cluster := harness.StartForTest(t, harness.Options{Name: "list-stream"})
	ctx := t.Context()
	if err := cluster.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	kc := realClient(t, cluster)
	cms := client.For[*corev1.ConfigMap](kc).Namespace(ns)
	for i := range n {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%02d", i), Labels: map[string]string{"i": fmt.Sprint(i)}},
			Data: map[string]string{"k": fmt.Sprintf("value %d", i)}}
		if _, err := cms.Create(ctx, cm, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	want, err := cms.List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	summary := func(o interface {
		GetName() string
		GetResourceVersion() string
		GetLabels() map[string]string
	}) string {
		return o.GetName() + "@" + o.GetResourceVersion() + " i=" + o.GetLabels()["i"]
	}
	var wantItems []string
	for _, cm := range want.Items {
		wantItems = append(wantItems, summary(cm))
	}
	if len(wantItems) != n {
		t.Fatalf("List found %d ConfigMaps, want %d", len(wantItems), n)
	}

	t.Run("typed, protobuf", func(t *testing.T) {
		var got []string
		meta, err := cms.ListStream(ctx, client.ListOptions{}, func(cm *corev1.ConfigMap) error {
			if cm.Data["k"] != "value "+cm.Labels["i"] {
				t.Errorf("%s: data %v", cm.Name, cm.Data)
			}
			got = append(got, summary(cm))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantItems, got); diff != "" {
			t.Errorf("items (-List +ListStream):\n%s", diff)
		}
		if meta.ResourceVersion == "" {
			t.Error("no resourceVersion")
		}
	})
	t.Run("dynamic, JSON", func(t *testing.T) {
		dyn := client.Dynamic(kc, client.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace(ns)
		var got []string
		if _, err := dyn.ListStream(ctx, client.ListOptions{}, func(u *unstructured.Unstructured) error {
			got = append(got, summary(u))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantItems, got); diff != "" {
			t.Errorf("items (-List +ListStream):\n%s", diff)
		}
	})
	t.Run("over MaxResponseBytes", func(t *testing.T) {
		cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{cluster.Kubeconfig}})
		if err != nil {
			t.Fatal(err)
		}
		cfg.QPS, cfg.MaxResponseBytes = -1, 2<<10
		small, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(small.CloseIdleConnections)
		items := 0
		_, err = client.For[*corev1.ConfigMap](small).Namespace(ns).ListStream(ctx, client.ListOptions{}, func(*corev1.ConfigMap) error {
			items++
			return nil
		})
		if !errors.Is(err, codec.ErrTooLarge) || items != 0 {
			t.Errorf("got %v after %d items, want codec.ErrTooLarge before any (the protobuf list's length is read first)", err, items)
		}
	})
}
