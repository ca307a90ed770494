package manager_test

import (
	"context"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/metrics"
)

// restGets sums rest_client_requests_total{method="GET"} in a registry,
// -1 when the series are not there at all.
func restGets(t *testing.T, mx *metrics.Metrics) float64 {
	t.Helper()
	fams, err := mx.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	sum := -1.0
	for _, f := range fams {
		if f.GetName() != "rest_client_requests_total" {
			continue
		}
		sum = 0
		for _, s := range f.GetMetric() {
			for _, l := range s.GetLabel() {
				if l.GetName() == "method" && l.GetValue() == "GET" {
					sum += s.GetCounter().GetValue()
				}
			}
		}
	}
	return sum
}

// Two managers sharing one client both serve its requests in their
// rest_client series, each request counted once: the client reports to
// the first manager's series, which the second serves too.
func TestManagersSharingAClientBothServeItsRequests(t *testing.T) {
	_, cfg := newNetServer(t)
	c := newClient(t, cfg)
	var ms []*manager.Manager
	for _, name := range []string{"one", "two"} {
		m, err := manager.New(c, manager.Options{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	ctx := context.Background()
	for range 3 {
		if _, err := client.For[*corev1.ConfigMap](c).Namespace("default").List(ctx, client.ListOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i, m := range ms {
		if got := restGets(t, m.Metrics()); got != 3 {
			t.Errorf("manager %d: rest_client_requests_total GET = %v, want 3", i+1, got)
		}
	}
}

// countingMetrics is a program's own client.Metrics.
type countingMetrics struct{ n chan struct{} }

func (c countingMetrics) Request(string, string, int, time.Duration) { c.n <- struct{}{} }

// A client whose Config.Metrics is the program's own reports there
// only: the manager's series stay at zero rather than count twice.
func TestManagerKeepsAClientsOwnMetrics(t *testing.T) {
	_, cfg := newNetServer(t)
	own := countingMetrics{n: make(chan struct{}, 10)}
	cfg.Metrics = own
	c := newClient(t, cfg)
	m, err := manager.New(c, manager.Options{Name: "own"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.For[*corev1.ConfigMap](c).Namespace("default").List(context.Background(), client.ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(own.n) != 1 {
		t.Errorf("the program's metrics saw %d requests, want 1", len(own.n))
	}
	if got := restGets(t, m.Metrics()); got > 0 {
		t.Errorf("the manager counted the request too: %v", got)
	}
}
