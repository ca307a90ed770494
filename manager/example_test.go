package manager_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
)

func Example() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "settings"}}); err != nil {
		panic(err)
	}
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	m, err := manager.New(c, manager.Options{
		Name:           "example-operator",
		LeaderElection: &leaderelection.Config{Namespace: "kube-system", Identity: "replica-a"},
	})
	if err != nil {
		panic(err)
	}
	configMaps := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{})
	ctx, cancel := context.WithCancel(context.Background())
	reconcile := func(ctx context.Context, req controller.Request) (controller.Result, error) {
		if cm, ok := configMaps.Lister().Get(req.Namespace, req.Name); ok {
			m.Events().Eventf(cm, nil, "Normal", "Seen", "Reconcile", "seen by %s", "replica-a")
		}
		fmt.Println("leader", m.IsLeader(), "reconciles", req)
		cancel()
		return controller.Result{}, nil
	}
	ctl, err := controller.New("configmaps", configMaps, controller.ReconcilerFunc(reconcile), controller.Options{})
	if err != nil {
		panic(err)
	}
	m.Add(ctl)

	readyz := httptest.NewServer(m.Handler())
	defer readyz.Close()
	if err := m.Run(ctx); err != nil {
		panic(err)
	}
	resp, err := readyz.Client().Get(readyz.URL + "/readyz")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(resp.StatusCode, "\n", string(body))
	// Output:
	// leader true reconciles default/settings
	// 200
	// [+]informers ok
	// [+]controller configmaps ok
	// [+]leader: standing by
	// readyz check passed
}
