package fake_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// toyKubelet runs a few commands: cat copies stdin to stdout, "exit N"
// exits N, anything else is not found; attach reports the terminal
// sizes it is sent.
type toyKubelet struct {
	mu   sync.Mutex
	seen []fake.ExecRequest
}

func (k *toyKubelet) exec(ctx context.Context, req *fake.ExecRequest) error {
	k.mu.Lock()
	k.seen = append(k.seen, *req)
	k.mu.Unlock()
	if req.Attach {
		for range 2 {
			select {
			case size := <-req.Resize:
				fmt.Fprintf(req.Stdout, "%dx%d\n", size.Width, size.Height)
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	}
	switch cmd := strings.Join(req.Command, " "); {
	case cmd == "cat":
		_, err := io.Copy(req.Stdout, req.Stdin)
		return err
	case strings.HasPrefix(cmd, "exit "):
		var code int
		fmt.Sscan(strings.TrimPrefix(cmd, "exit "), &code)
		fmt.Fprintln(req.Stderr, "exiting")
		return &fake.ExitError{Code: code}
	}
	return fmt.Errorf("failed to exec in container: exec: %q: executable file not found in $PATH", req.Command[0])
}

// Exec and attach through Options.Exec, over real HTTP (and TLS) with
// the client: streams both ways, stdin's end, exit codes, a command
// that cannot start, terminal sizes; and the answers that come before
// any kubelet stay kube-apiserver's.
func TestExecOnTheFake(t *testing.T) {
	k := &toyKubelet{}
	s, cfg := fakeclient.Start(fake.Options{TLS: true, Exec: k.exec})
	t.Cleanup(s.Close)
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	ctx := t.Context()
	nodes := client.For[*corev1.Node](c)
	if _, err := nodes.Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}, Status: corev1.NodeStatus{Addresses: []corev1.NodeAddress{{Type: "InternalIP", Address: "10.0.0.7"}}}}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := nodes.Status().Update(ctx, mustGetNode(t, nodes), client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	pods := client.For[*corev1.Pod](c).Namespace("default")
	for _, p := range []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Name: "db-0"}, Spec: corev1.PodSpec{NodeName: "n1", Containers: []corev1.Container{{Name: "db", Image: "postgres"}}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "pending"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "db", Image: "postgres"}}}},
	} {
		if _, err := pods.Create(ctx, p, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	var stdout, stderr bytes.Buffer
	if err := pods.Exec(ctx, "db-0", client.ExecOptions{Command: []string{"cat"}, Stdin: strings.NewReader("hello\n"), Stdout: &stdout}); err != nil || stdout.String() != "hello\n" {
		t.Errorf("cat = %v, stdout %q; want nil, %q", err, stdout.String(), "hello\n")
	}
	k.mu.Lock()
	got := k.seen[0]
	k.mu.Unlock()
	if got.Namespace != "default" || got.Pod != "db-0" || got.Container != "db" || got.Attach || got.Stdin == nil || got.Stdout == nil || got.Stderr != nil || got.TTY {
		t.Errorf("kubelet saw %+v", got)
	}

	stdout.Reset()
	err = pods.Exec(ctx, "db-0", client.ExecOptions{Command: []string{"exit", "42"}, Stdout: &stdout, Stderr: &stderr})
	var exit *client.ExitError
	if !errors.As(err, &exit) || exit.Code != 42 || stderr.String() != "exiting\n" {
		t.Errorf("exit 42 = %v, stderr %q; want *ExitError 42, \"exiting\\n\"", err, stderr.String())
	}

	err = pods.Exec(ctx, "db-0", client.ExecOptions{Command: []string{"psql"}, Stdout: io.Discard})
	if se, ok := client.StatusOf(err); !ok || !strings.Contains(se.Error(), `"psql": executable file not found`) {
		t.Errorf("a command that cannot start = %v, want its Status", err)
	}

	stdout.Reset()
	resize := make(chan client.TerminalSize, 2)
	resize <- client.TerminalSize{Width: 80, Height: 24}
	resize <- client.TerminalSize{Width: 132, Height: 43}
	if err := pods.Attach(ctx, "db-0", client.AttachOptions{Stdout: &stdout, TTY: true, Resize: resize}); err != nil || stdout.String() != "80x24\n132x43\n" {
		t.Errorf("attach = %v, stdout %q", err, stdout.String())
	}

	// Before the kubelet: kube-apiserver's answers, as without Exec.
	if err := pods.Exec(ctx, "pending", client.ExecOptions{Command: []string{"cat"}, Stdout: io.Discard}); !errors.Is(err, client.ErrBadRequest) || !strings.Contains(err.Error(), "pod pending does not have a host assigned") {
		t.Errorf("exec in an unscheduled Pod = %v", err)
	}
	if err := pods.Exec(ctx, "gone", client.ExecOptions{Command: []string{"cat"}, Stdout: io.Discard}); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("exec in a missing Pod = %v", err)
	}

	// A container whose status says it is not running.
	pod, err := pods.Get(ctx, "db-0", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "db", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}}}}
	if _, err := pods.Status().Update(ctx, pod, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := pods.Exec(ctx, "db-0", client.ExecOptions{Command: []string{"cat"}, Stdout: io.Discard}); !strings.Contains(fmt.Sprint(err), `container "db" in pod "db-0" is not running`) {
		t.Errorf("exec in a stopped container = %v", err)
	}
}

func mustGetNode(t *testing.T, nodes *client.Resource[*corev1.Node]) *corev1.Node {
	t.Helper()
	n, err := nodes.Get(t.Context(), "n1", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n.Status.Addresses = []corev1.NodeAddress{{Type: "InternalIP", Address: "10.0.0.7"}}
	return n
}
