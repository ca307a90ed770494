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

// A server that is not listening, reached in memory: what a test inside
// a testing/synctest bubble uses, where sockets do not work.
func ExampleInMemory() {
	srv := fake.New(fake.Options{})
	defer srv.Close()
	c, err := client.New(fakeclient.InMemory(srv))
	if err != nil {
		panic(err)
	}
	ns, err := client.For[*corev1.Namespace](c).Get(context.Background(), "default", client.GetOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(ns.Name, ns.Status.Phase)
	// Output:
	// default Active
}
