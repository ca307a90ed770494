package events_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/types"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/events"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// env is a fake server served in memory (for synctest bubbles) and a
// client of it.
type env struct {
	srv *fake.Server
	c   *client.Client
}

// newEnv starts the server; rt, when set, wraps its transport.
func newEnv(t *testing.T, wrap func(http.RoundTripper) http.RoundTripper) *env {
	t.Helper()
	s := fake.New(fake.Options{})
	t.Cleanup(s.Close)
	cfg := fakeclient.Config(s)
	cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, s.RoundTripper()
	if wrap != nil {
		cfg.Transport = wrap(cfg.Transport)
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &env{srv: s, c: c}
}

// recorder makes a Recorder with test options and runs it; stop ends
// Run and returns once it has.
func (e *env) recorder(t *testing.T, opts events.Options) (rec *events.Recorder, stop func()) {
	t.Helper()
	if opts.Component == "" {
		opts.Component = "example.com/test-controller"
	}
	if opts.Instance == "" {
		opts.Instance = "test-1"
	}
	rec, err := events.NewRecorder(e.c, opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rec.Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
	t.Cleanup(stop)
	return rec, stop
}

// v1Events lists the events.k8s.io/v1 Events in ns, by name.
func (e *env) v1Events(t *testing.T, ns string) []*eventsv1.Event {
	t.Helper()
	l, err := client.For[*eventsv1.Event](e.c).Namespace(ns).List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(l.Items, func(a, b *eventsv1.Event) int { return strings.Compare(a.Name, b.Name) })
	return l.Items
}

// coreEvents lists the core/v1 Events in ns.
func (e *env) coreEvents(t *testing.T, ns string) []*corev1.Event {
	t.Helper()
	l, err := client.For[*corev1.Event](e.c).Namespace(ns).List(context.Background(), client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l.Items
}

func pod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, UID: types.UID("uid-" + name), ResourceVersion: "42"}}
}
