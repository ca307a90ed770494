package e2e

import (
	"flag"
	"testing"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/internal/testing/chaos"
	"github.com/kubewire/kubewire/reflector"
)

var chaosDuration = flag.Duration("chaos.duration", 40*time.Second, "how long the chaos run against kube-apiserver lasts")

// TestChaos runs the chaos workload against a kube-apiserver of its own
// (etcd-backed reads, so compaction reaches watches and lists), with
// kube-apiserver restarts and etcd compactions injected mid-run, and
// checks that every cache and handler converges on the server's state.
func TestChaos(t *testing.T) {
	c := harness.StartForTest(t, harness.Options{Name: "chaos", APIServerFlags: []string{"--watch-cache=false"}})
	ctx := t.Context()
	namespaces := []string{"chaos-a", "chaos-b"}
	for _, ns := range namespaces {
		if err := c.CreateNamespace(ctx, ns); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{c.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	kc, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := chaos.Run(ctx, chaos.Config{
		Client:     kc,
		Namespaces: namespaces,
		Duration:   *chaosDuration,
		Seed:       1,
		Faults: []chaos.Fault{
			{Name: "kube-apiserver restart", Inject: func() {
				if err := c.RestartAPIServer(ctx); err != nil {
					t.Error(err)
				}
			}},
			{Name: "etcd compaction", Inject: func() {
				if _, err := c.Compact(ctx); err != nil {
					t.Error(err)
				}
			}},
		},
		FaultInterval: 4 * time.Second,
		Reflector: reflector.Options{
			InitialBackoff: 50 * time.Millisecond,
			MaxBackoff:     time.Second,
			WatchTimeout:   10 * time.Second,
		},
		Settle: time.Minute,
		Logf:   t.Logf,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Divergences) > 0 {
		t.Errorf("%d divergences", len(rep.Divergences))
	}
	if rep.Faults["kube-apiserver restart"] == 0 || rep.Faults["etcd compaction"] == 0 {
		t.Errorf("not every fault was injected: %v", rep.Faults)
	}
}
