package fake_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// logKubelet is an emulated kubelet's log source: three lines a second
// apart, ten seconds before the server's clock, and for Follow the lines
// a test sends on later.
type logKubelet struct {
	now   time.Time
	later chan fake.LogLine
	mu    sync.Mutex
	seen  []fake.LogRequest
}

func (k *logKubelet) logs(_ context.Context, req *fake.LogRequest) ([]fake.LogLine, <-chan fake.LogLine, error) {
	k.mu.Lock()
	k.seen = append(k.seen, *req)
	k.mu.Unlock()
	if req.Container == "broken" {
		return nil, nil, errors.New("failed to open log file: no such file")
	}
	start := k.now.Add(-10 * time.Second)
	past := []fake.LogLine{{Time: start, Text: req.Container + " one"}, {Time: start.Add(time.Second), Text: req.Container + " two"}, {Time: start.Add(2 * time.Second), Text: req.Container + " three"}}
	return past, k.later, nil
}

func startLogs(t *testing.T) (*logKubelet, *client.Resource[*corev1.Pod]) {
	t.Helper()
	k := &logKubelet{now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), later: make(chan fake.LogLine)}
	srv, cfg := fakeclient.Start(fake.Options{Logs: k.logs, Now: func() time.Time { return k.now }})
	t.Cleanup(srv.Close)
	waiting := corev1.ContainerStatus{Name: "pending", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}}
	if err := srv.Add(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}, Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: "InternalIP", Address: "10.0.0.1"}}}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "default"},
			Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "web", Image: "nginx"}, {Name: "side", Image: "busybox"}, {Name: "pending", Image: "busybox"}, {Name: "broken", Image: "busybox"}}}},
	); err != nil {
		t.Fatal(err)
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	pods := client.For[*corev1.Pod](c).Namespace("default")
	pod, err := pods.Get(t.Context(), "web-0", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{waiting}
	if _, err := pods.UpdateStatus(t.Context(), pod, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	return k, pods
}

func readLogs(t *testing.T, pods *client.Resource[*corev1.Pod], opts client.LogOptions) (string, error) {
	t.Helper()
	body, err := pods.Logs(t.Context(), "web-0", opts)
	if err != nil {
		return "", err
	}
	defer body.Close()
	b, err := io.ReadAll(body)
	return string(b), err
}

func int64p(n int64) *int64 { return &n }

// Options.Logs serves pods/log over real HTTP with the kubelet's options.
func TestLogsOptions(t *testing.T) {
	k, pods := startLogs(t)
	since := k.now.Add(-9 * time.Second)
	for _, tc := range []struct {
		name string
		opts client.LogOptions
		want string
	}{
		{"whole log", client.LogOptions{Container: "web"}, "web one\nweb two\nweb three\n"},
		{"container", client.LogOptions{Container: "side"}, "side one\nside two\nside three\n"},
		{"tailLines", client.LogOptions{Container: "web", TailLines: int64p(2)}, "web two\nweb three\n"},
		{"tailLines 0", client.LogOptions{Container: "web", TailLines: int64p(0)}, ""},
		{"limitBytes", client.LogOptions{Container: "web", LimitBytes: int64p(10)}, "web one\nwe"},
		{"sinceSeconds", client.LogOptions{Container: "web", SinceSeconds: int64p(9)}, "web two\nweb three\n"},
		{"sinceTime", client.LogOptions{Container: "web", SinceTime: &since}, "web two\nweb three\n"},
		{"timestamps", client.LogOptions{Container: "web", TailLines: int64p(1), Timestamps: true}, "2026-11-29T11:59:52.000000000Z web three\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readLogs(t, pods, tc.opts)
			if err != nil || got != tc.want {
				t.Errorf("Logs = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// The kubelet's errors reach the client as kube-apiserver passes them
// on: a 400 with the kubelet's text.
func TestLogsErrors(t *testing.T) {
	_, pods := startLogs(t)
	for _, tc := range []struct {
		name string
		opts client.LogOptions
		want string
	}{
		{"no container named", client.LogOptions{}, "a container name must be specified for pod web-0, choose one of: [web side pending broken]"},
		{"missing container", client.LogOptions{Container: "nope"}, "container nope is not valid for pod web-0"},
		{"waiting container", client.LogOptions{Container: "pending"}, `container "pending" in pod "web-0" is waiting to start: ContainerCreating`},
		{"no previous", client.LogOptions{Container: "web", Previous: true}, `previous terminated container "web" in pod "web-0" not found`},
		{"log source error", client.LogOptions{Container: "broken"}, "failed to open log file: no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readLogs(t, pods, tc.opts)
			if !errors.Is(err, client.ErrBadRequest) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Logs = %q, %v; want a BadRequest saying %q", got, err, tc.want)
			}
		})
	}
}

// Follow streams the lines written later, each as it comes, and ends
// when the container stops.
func TestLogsFollow(t *testing.T) {
	k, pods := startLogs(t)
	body, err := pods.Logs(t.Context(), "web-0", client.LogOptions{Container: "web", Follow: true, TailLines: int64p(1)})
	if err != nil {
		t.Fatal(err)
	}
	defer body.Close()
	buf := make([]byte, 64)
	want := "web three\n"
	got := ""
	for len(got) < len(want) {
		n, err := body.Read(buf)
		if err != nil {
			t.Fatalf("read after %q: %v", got, err)
		}
		got += string(buf[:n])
	}
	k.later <- fake.LogLine{Time: k.now, Text: "web four"}
	want += "web four\n"
	for len(got) < len(want) {
		n, err := body.Read(buf)
		if err != nil {
			t.Fatalf("read after %q: %v", got, err)
		}
		got += string(buf[:n])
	}
	close(k.later)
	rest, err := io.ReadAll(body)
	if got += string(rest); got != want || err != nil {
		t.Errorf("followed log %q, %v; want %q", got, err, want)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.seen) != 1 || !k.seen[0].Follow || k.seen[0].Container != "web" || k.seen[0].Pod != "web-0" {
		t.Errorf("log requests %+v", k.seen)
	}
}
