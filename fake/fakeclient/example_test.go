package fakeclient_test

import (
	"context"
	"fmt"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

func ExampleStart() {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		panic(err)
	}
	list, err := client.For[*corev1.Namespace](c).List(context.Background(), client.ListOptions{})
	if err != nil {
		panic(err)
	}
	for _, ns := range list.Items {
		fmt.Println(ns.Name)
	}
	// Output:
	// default
	// kube-node-lease
	// kube-public
	// kube-system
}
