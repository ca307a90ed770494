package e2e

import (
	"context"
	"errors"
	"io"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// TestExecErrorPath execs, with kubewire's client over WebSocket, into
// Pods that kube-apiserver cannot reach (missing, on no node, with no
// container named, on a missing Node, on a Node with no address): the
// user gets kube-apiserver's own answer as a clear error, and the fake,
// with and without its emulated kubelet, answers the same code, reason
// and message.
func TestExecErrorPath(t *testing.T) {
	const ns = "podexec-e2e"
	type answer struct {
		code            int32
		reason, message string
	}
	steps := []struct {
		name, pod, container string
	}{
		{"missing pod", "missing", ""},
		{"pod on no node", "unscheduled", ""},
		{"no container named", "two", ""},
		{"unknown container", "unscheduled", "nope"},
		{"missing node", "lost", ""},
		{"node without addresses", "bare", ""},
	}
	run := func(t *testing.T, c *client.Client, createNamespace func(context.Context) error) []answer {
		ctx := t.Context()
		if err := createNamespace(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := client.For[*corev1.Node](c).Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "podexec-bare"}}, client.CreateOptions{}); err != nil && !errors.Is(err, client.ErrAlreadyExists) {
			t.Fatal(err)
		}
		pods := client.For[*corev1.Pod](c).Namespace(ns)
		one := []corev1.Container{{Name: "c", Image: "i"}}
		for _, p := range []*corev1.Pod{
			{ObjectMeta: metav1.ObjectMeta{Name: "unscheduled"}, Spec: corev1.PodSpec{Containers: one}},
			{ObjectMeta: metav1.ObjectMeta{Name: "two"}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "a", Image: "i"}, {Name: "b", Image: "i"}}}},
			{ObjectMeta: metav1.ObjectMeta{Name: "lost"}, Spec: corev1.PodSpec{NodeName: "podexec-gone", Containers: one}},
			{ObjectMeta: metav1.ObjectMeta{Name: "bare"}, Spec: corev1.PodSpec{NodeName: "podexec-bare", Containers: one}},
		} {
			if _, err := pods.Create(ctx, p, client.CreateOptions{}); err != nil && !errors.Is(err, client.ErrAlreadyExists) {
				t.Fatal(err)
			}
		}
		var got []answer
		for _, st := range steps {
			err := pods.Exec(ctx, st.pod, client.ExecOptions{Container: st.container, Command: []string{"ls"}, Stdout: io.Discard})
			se, ok := client.StatusOf(err)
			if !ok {
				t.Errorf("%s: %v, want the server's Status", st.name, err)
				got = append(got, answer{})
				continue
			}
			got = append(got, answer{se.Status.Code, string(se.Status.Reason), se.Status.Message})
		}
		return got
	}

	cluster := harness.Shared(t, realTargets[0].name, realTargets[0].opts)
	real := run(t, adminClient(t, cluster), func(ctx context.Context) error { return cluster.CreateNamespace(ctx, ns) })
	for i, st := range steps {
		t.Logf("kube-apiserver, %s: %+v", st.name, real[i])
	}
	if real[1].code != 400 || real[1].message != "pod unscheduled does not have a host assigned" {
		t.Errorf("kube-apiserver on a Pod with no node: %+v", real[1])
	}
	for _, withKubelet := range []bool{false, true} {
		opts := fake.Options{Namespaces: []string{"default", ns}}
		if withKubelet {
			opts.Exec = func(context.Context, *fake.ExecRequest) error { return errors.New("the kubelet was reached") }
		}
		srv, cfg := fakeclient.Start(opts)
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		got := run(t, c, func(context.Context) error { return nil })
		c.CloseIdleConnections()
		srv.Close()
		for i, st := range steps {
			if got[i] != real[i] {
				t.Errorf("%s (fake, emulated kubelet %v):\n fake           %+v\n kube-apiserver %+v", st.name, withKubelet, got[i], real[i])
			}
		}
	}
}
