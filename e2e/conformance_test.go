package e2e

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/conformance"
)

// widgetCRD is the custom resource the conformance suite expects as
// Target.Widgets, defined as the fake's conformance target defines it.
var widgetCRD = json.RawMessage(conformance.WidgetDefinition)

// realTargets are the kube-apiserver configurations the suite runs
// against. The second reads everything from etcd, so compacting etcd
// expires continue tokens, Exact lists and watches on demand; with the
// watch cache (the first) those are served from the cache and a
// compaction shows only on the paths that reach etcd, so it gets no
// Compact hook.
var realTargets = []struct {
	name    string
	opts    harness.Options
	compact bool
}{
	{"kube-apiserver", harness.Options{}, false},
	{"kube-apiserver-no-watch-cache", harness.Options{APIServerFlags: []string{"--watch-cache=false"}}, true},
}

// TestConformance runs kubewire's fake-server conformance suite against
// the fake and against real kube-apiservers, one subtest per target and
// scenario: TestConformance/TARGET/SCENARIO.
func TestConformance(t *testing.T) {
	t.Run("fake", func(t *testing.T) {
		srv := fake.Start(fake.Options{TLS: true})
		t.Cleanup(srv.Close)
		target, err := conformance.FakeTarget(srv)
		if err != nil {
			t.Fatal(err)
		}
		conformance.Run(t, target)
	})
	for _, rt := range realTargets {
		t.Run(rt.name, func(t *testing.T) {
			c := harness.Shared(t, rt.name, rt.opts)
			ctx := t.Context()
			ns := "conformance"
			if err := c.CreateNamespace(ctx, ns); err != nil {
				t.Fatal(err)
			}
			widgets := "/apis/example.com/v1/namespaces/" + ns + "/widgets"
			if err := c.CreateCRD(ctx, widgetCRD, widgets); err != nil {
				t.Fatal(err)
			}
			target := conformance.Target{
				BaseURL:   c.URL,
				Client:    c.Client(t),
				Token:     c.AdminToken,
				Namespace: ns,
				Widgets:   widgets,
				// resourceVersion=0 ignores limit only with the watch cache.
				WatchCache: !slices.Contains(rt.opts.APIServerFlags, "--watch-cache=false"),
			}
			if rt.compact {
				target.Compact = compactFunc(c)
			}
			conformance.Run(t, target)
		})
	}
}

// compactFunc adapts Cluster.Compact to Target.Compact; the suite fails
// the scenario with the error.
func compactFunc(c *harness.Cluster) func(context.Context) error {
	return func(ctx context.Context) error {
		_, err := c.Compact(ctx)
		return err
	}
}
