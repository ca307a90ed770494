package chaos_test

import (
	"context"
	"fmt"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/internal/testing/chaos"
)

func ExampleRun() {
	srv, cfg := fakeclient.Start(fake.Options{Namespaces: []string{"default", "a"}})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	rep, err := chaos.Run(context.Background(), chaos.Config{
		Client:     c,
		Namespaces: []string{"a"},
		Duration:   500 * time.Millisecond,
		Faults:     []chaos.Fault{{Name: "watch drop", Inject: srv.Faults().DropWatches}},
		Clear:      srv.Faults().Clear,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("divergences:", len(rep.Divergences))
	// Output:
	// divergences: 0
}
