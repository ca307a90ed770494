package fake_test

import (
	"context"
	"fmt"
	"io"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// An emulated kubelet lets a test read and follow a fake Pod's log:
// Options.Logs gives the lines a container wrote so far and a channel of
// those it writes later, closed when it stops. The server applies the
// client's tailLines, sinceSeconds, limitBytes and timestamps.
func ExampleLogRequest() {
	later := make(chan fake.LogLine)
	kubelet := func(ctx context.Context, req *fake.LogRequest) ([]fake.LogLine, <-chan fake.LogLine, error) {
		t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		return []fake.LogLine{{Time: t, Text: "starting"}, {Time: t.Add(time.Second), Text: "listening on :8080"}}, later, nil
	}
	srv, cfg := fakeclient.Start(fake.Options{Logs: kubelet})
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
	tail := int64(1)
	log, err := pods.Logs(context.Background(), "web-0", client.LogOptions{Follow: true, TailLines: &tail, Timestamps: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer log.Close()
	go func() {
		later <- fake.LogLine{Time: time.Date(2026, 1, 2, 3, 4, 7, 0, time.UTC), Text: "GET / 200"}
		close(later) // the container stops
	}()
	out, err := io.ReadAll(log)
	fmt.Printf("%s%v\n", out, err)
	// Output:
	// 2026-01-02T03:04:06.000000000Z listening on :8080
	// 2026-01-02T03:04:07.000000000Z GET / 200
	// <nil>
}
