//go:build unix

package envtest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/envtest"
)

// TestControllerManager shows what kube-controller-manager adds: a new
// namespace gets its default ServiceAccount and kube-root-ca.crt, the
// garbage collector deletes a deleted owner's dependents, and a deleted
// namespace goes away instead of staying Terminating.
func TestControllerManager(t *testing.T) {
	env := envtest.StartForTest(t, envtest.Options{Name: "kcm", ControllerManager: true})
	if env.PID("kube-controller-manager") == 0 {
		t.Fatal("no kube-controller-manager runs")
	}
	ctx := t.Context()
	c, err := client.New(env.Config())
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()

	namespaces := client.For[*corev1.Namespace](c)
	ns := &corev1.Namespace{}
	ns.Name = "kcm-test"
	if _, err := namespaces.Create(ctx, ns, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the namespace's default ServiceAccount", func(ctx context.Context) error {
		_, err := client.For[*corev1.ServiceAccount](c).Namespace("kcm-test").Get(ctx, "default", client.GetOptions{})
		return err
	})
	eventually(t, "the namespace's kube-root-ca.crt", func(ctx context.Context) error {
		_, err := client.For[*corev1.ConfigMap](c).Namespace("kcm-test").Get(ctx, "kube-root-ca.crt", client.GetOptions{})
		return err
	})

	cms := client.For[*corev1.ConfigMap](c).Namespace("kcm-test")
	owner := &corev1.ConfigMap{}
	owner.Name = "owner"
	owner, err = cms.Create(ctx, owner, client.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dependent := &corev1.ConfigMap{}
	dependent.Name = "dependent"
	dependent.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID}}
	if _, err := cms.Create(ctx, dependent, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cms.Delete(ctx, "owner", client.DeleteOptions{PropagationPolicy: client.PropagationBackground}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the garbage collector deleting the dependent", func(ctx context.Context) error {
		return gone(cms.Get(ctx, "dependent", client.GetOptions{}))
	})

	if err := namespaces.Delete(ctx, "kcm-test", client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the namespace controller removing the namespace", func(ctx context.Context) error {
		return gone(namespaces.Get(ctx, "kcm-test", client.GetOptions{}))
	})
}

// gone turns a Get's result into nil when the object is gone.
func gone[T any](_ T, err error) error {
	if errors.Is(err, client.ErrNotFound) {
		return nil
	}
	if err == nil {
		return errors.New("still there")
	}
	return err
}

// eventually polls check until it returns nil, failing t after a minute.
func eventually(t *testing.T, what string, check func(context.Context) error) {
	t.Helper()
	start := time.Now()
	deadline := start.Add(time.Minute)
	for {
		err := check(t.Context())
		if err == nil {
			t.Logf("%s after %s", what, time.Since(start).Round(time.Millisecond))
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after a minute: %v", what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
