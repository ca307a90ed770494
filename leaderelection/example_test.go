package leaderelection_test

import (
	"context"
	"fmt"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/leaderelection"
)

func Example() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	el, err := leaderelection.New(c, leaderelection.Config{
		Namespace: "kube-system",
		Name:      "example-controller",
		Identity:  "replica-a",
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(ctx context.Context) {
				fmt.Println("leading: start the workers")
				cancel() // the program shuts down: end the term
				<-ctx.Done()
				fmt.Println("workers stopped")
			},
			OnStoppedLeading: func() { fmt.Println("stopped leading") },
		},
	})
	if err != nil {
		panic(err)
	}
	// Start informers here and wait for their sync: standbys keep warm
	// caches and only the workers wait for leadership.
	if err := el.Run(ctx); err != nil {
		panic(err)
	}

	lease, err := client.For[*coordinationv1.Lease](c).Namespace("kube-system").Get(context.Background(), "example-controller", client.GetOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("holder after release:", lease.Spec.HolderIdentity == nil)
	// Output:
	// leading: start the workers
	// workers stopped
	// stopped leading
	// holder after release: true
}
