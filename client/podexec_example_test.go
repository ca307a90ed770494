package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// Run a command in a Pod's container, as `kubectl exec` does: stdin
// goes in, stdout and stderr come back apart, and a non-zero exit is a
// *client.ExitError. Here the fake API server's emulated kubelet
// (fake.Options.Exec) plays the container.
func ExampleResource_Exec() {
	kubelet := func(ctx context.Context, req *fake.ExecRequest) error {
		in, _ := io.ReadAll(req.Stdin)
		fmt.Fprintf(req.Stdout, "%d rows\n", strings.Count(string(in), "\n"))
		return &fake.ExitError{Code: 2}
	}
	srv, cfg := fakeclient.Start(fake.Options{Exec: kubelet})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}, Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: "InternalIP", Address: "10.0.0.1"}}}}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "db-0", Namespace: "default"}, Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "db", Image: "postgres"}}}}
	if err := srv.Add(node, pod); err != nil {
		fmt.Println(err)
		return
	}

	pods := client.For[*corev1.Pod](c).Namespace("default")
	err = pods.Exec(ctx, "db-0", client.ExecOptions{
		Container: "db",
		Command:   []string{"psql", "-f", "-"},
		Stdin:     strings.NewReader("insert 1;\ninsert 2;\n"),
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
	})
	var exit *client.ExitError
	if errors.As(err, &exit) {
		fmt.Println("exit code", exit.Code)
	} else if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 2 rows
	// exit code 2
}
