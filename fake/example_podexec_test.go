package fake_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// An emulated kubelet lets a test exec into a fake Pod: Options.Exec
// gets each exec and attach that kube-apiserver would pass to a kubelet
// (a scheduled Pod, its container, a Node with an address), with the
// client's streams. This one runs "cat": stdin ends when the client's
// input does.
func ExampleExecRequest() {
	kubelet := func(ctx context.Context, req *fake.ExecRequest) error {
		if strings.Join(req.Command, " ") != "cat" {
			return fmt.Errorf("%s: not found", req.Command[0])
		}
		_, err := io.Copy(req.Stdout, req.Stdin)
		return err
	}
	srv, cfg := fakeclient.Start(fake.Options{Exec: kubelet})
	defer srv.Close()
	if err := srv.Add(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}, Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: "InternalIP", Address: "10.0.0.1"}}}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "default"}, Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "web", Image: "nginx"}}}},
	); err != nil {
		fmt.Println(err)
		return
	}
	c, err := client.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	pods := client.For[*corev1.Pod](c).Namespace("default")
	var out bytes.Buffer
	err = pods.Exec(context.Background(), "web-0", client.ExecOptions{Command: []string{"cat"}, Stdin: strings.NewReader("hello\n"), Stdout: &out})
	fmt.Printf("%q %v\n", out.String(), err)
	err = pods.Exec(context.Background(), "web-0", client.ExecOptions{Command: []string{"bash"}, Stdout: &out})
	fmt.Println(err)
	// Output:
	// "hello\n" <nil>
	// client: GET /api/v1/namespaces/default/pods/web-0/exec: bash: not found
}
