package client_test

import (
	"context"
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// A test waits for what another goroutine (a controller, say) writes,
// without a watch loop of its own.
func ExampleResource_WaitFor() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")

	wrote := make(chan error, 1)
	go func() {
		_, err := cms.Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "settings"},
			Data:       map[string]string{"ready": "true"},
		}, client.CreateOptions{})
		wrote <- err
	}()

	// The ConfigMap may not exist yet: WaitFor waits until it does and
	// meets the condition.
	cm, err := cms.WaitFor(ctx, "settings", func(cm *corev1.ConfigMap) (bool, error) {
		return cm.Data["ready"] == "true", nil
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(cm.Name, "ready:", cm.Data["ready"], <-wrote)

	if err := cms.Delete(ctx, "settings", client.DeleteOptions{}); err != nil {
		panic(err)
	}
	fmt.Println("deleted:", cms.WaitForDeletion(ctx, "settings"))
	// Output:
	// settings ready: true <nil>
	// deleted: <nil>
}
