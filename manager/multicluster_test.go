package manager_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
)

// copyToB is a controller of a's ConfigMaps writing their copies in
// cluster b, whose ConfigMaps it watches through an added Factory.
func copyToB(t *testing.T, m *manager.Manager, b *client.Client) *informer.Informer[*corev1.ConfigMap] {
	t.Helper()
	fb, err := informer.NewFactory(b, informer.FactoryOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m.AddFactory(fb)
	inB := informer.Shared[*corev1.ConfigMap](fb, informer.Scope{Namespace: "default"})
	inA := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
	api := client.For[*corev1.ConfigMap](b)
	ctl, err := controller.NewFor("copy", inA, func(ctx context.Context, cm *corev1.ConfigMap) (controller.Result, error) {
		if _, ok := inB.Lister().Get(cm.Namespace, cm.Name); ok {
			return controller.Result{}, nil
		}
		_, err := api.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: cm.Namespace, Name: cm.Name}, Data: cm.Data}, client.CreateOptions{})
		return controller.Result{}, err
	}, controller.Options{})
	if err != nil {
		t.Fatal(err)
	}
	controller.Watches(ctl, inB, func(cm *corev1.ConfigMap) []controller.Request {
		return []controller.Request{controller.RequestFor(cm)}
	})
	m.Add(ctl)
	return inB
}

// One manager reconciles across two clusters: the other cluster's
// Factory is warm before the replica leads, a change there (a copy
// deleted) queues the primary's Request, and its failures are on
// /readyz.
func TestAddFactoryOfAnotherCluster(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srvA, cfgA := newServer(t)
		_, cfgB := newServer(t)
		if err := srvA.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "settings"}, Data: map[string]string{"k": "v"}}); err != nil {
			t.Fatal(err)
		}
		b := newClient(t, cfgB)
		m, err := manager.New(newClient(t, cfgA), manager.Options{Name: "copier", Logger: slog.New(slog.DiscardHandler),
			LeaderElection: &leaderelection.Config{Namespace: "default", Identity: "a"}})
		if err != nil {
			t.Fatal(err)
		}
		inB := copyToB(t, m, b)
		// Another replica holds the Lease: this one stands by, warm.
		if err := srvA.Add(leaseHeldBy("copier", "other")); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- m.Run(ctx) }()
		synctest.Wait()
		if !inB.HasSynced() || m.IsLeader() {
			t.Fatalf("standing by: cluster b's cache synced %v, leading %v; want synced, not leading", inB.HasSynced(), m.IsLeader())
		}
		eventually(t, "it leads once the Lease expires", m.IsLeader)
		cms := client.For[*corev1.ConfigMap](b).Namespace("default")
		eventually(t, "the copy is in b", func() bool { _, err := cms.Get(ctx, "settings", client.GetOptions{}); return err == nil })
		if err := cms.Delete(ctx, "settings", client.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		eventually(t, "the copy deleted in b is written again", func() bool { _, err := cms.Get(ctx, "settings", client.GetOptions{}); return err == nil })

		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}

// leaseHeldBy is a Lease name that holder renewed just now.
func leaseHeldBy(name, holder string) *coordinationv1.Lease {
	now := metav1.NewMicroTime(time.Now())
	seconds := int32(15)
	return &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: &holder, RenewTime: &now, AcquireTime: &now, LeaseDurationSeconds: &seconds}}
}

// The other cluster's refusal is the manager's: Run fails as for its
// own Factory's, naming it, and /readyz says so.
func TestAddFactoryRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, cfgA := newServer(t)
		srvB, cfgB := newServer(t)
		srvB.Faults().Add(fake.Fault{Match: fake.Match{Resource: "configmaps"}, Code: http.StatusForbidden,
			Message: `configmaps is forbidden: User "copier" cannot list resource "configmaps"`})
		m, err := manager.New(newClient(t, cfgA), manager.Options{Name: "copier", Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		copyToB(t, m, newClient(t, cfgB))
		err = m.Run(t.Context())
		if !errors.Is(err, client.ErrForbidden) || !strings.Contains(err.Error(), "cannot list resource") {
			t.Errorf("Run = %v, want cluster b's refusal", err)
		}
		if _, body := get(t, m.Handler(), "/readyz?verbose"); !strings.Contains(body, "[-]informers") || !strings.Contains(body, "forbidden") {
			t.Errorf("/readyz:\n%s", body)
		}
	})
}
