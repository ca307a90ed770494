package e2e

import (
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/e2e/harness"
	widgetv1 "github.com/kubewire/kubewire/examples/operator/api/v1"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/conformance"
	"github.com/kubewire/kubewire/reflector"
	"github.com/kubewire/kubewire/sharding"
)

// shardedCluster is a kube-apiserver with sharded list and watch
// (KEP-5866, alpha in v1.36).
var shardedCluster = harness.Options{FeatureGates: []string{"ShardedListAndWatch=true"}}

// TestShardingConformance runs the conformance suite's sharding
// scenarios against the fake and against a kube-apiserver with the
// ShardedListAndWatch feature gate: the same filtering, the same echoed
// shardInfo (and its absence on custom resources, metadata lists and
// Tables), the same paging counts and the same 500s for bad selectors.
func TestShardingConformance(t *testing.T) {
	t.Run("fake", func(t *testing.T) {
		srv := fake.Start(fake.Options{TLS: true})
		t.Cleanup(srv.Close)
		target, err := conformance.FakeTarget(srv)
		if err != nil {
			t.Fatal(err)
		}
		conformance.RunSharding(t, target)
	})
	t.Run("kube-apiserver", func(t *testing.T) {
		c := harness.Shared(t, "sharded", shardedCluster)
		ctx := t.Context()
		ns := "sharding-conformance"
		if err := c.CreateNamespace(ctx, ns); err != nil {
			t.Fatal(err)
		}
		widgets := "/apis/example.com/v1/namespaces/" + ns + "/widgets"
		if err := c.CreateCRD(ctx, widgetCRD, widgets); err != nil {
			t.Fatal(err)
		}
		conformance.RunSharding(t, conformance.Target{BaseURL: c.URL, Client: c.Client(t), Token: c.AdminToken,
			Namespace: ns, WatchCache: true, Widgets: widgets, ShardedListAndWatch: true})
	})
}

// Timings of the sharded replicas: short, so that a dead replica's
// slots move within seconds, with the margins of leader election.
const (
	shardLease   = 8 * time.Second
	shardRenew   = 6 * time.Second
	shardRetry   = time.Second
	shardNS      = "sharding"
	shardWork    = time.Millisecond // simulated work per Reconcile
	shardWorkers = 8
	shardSlots   = sharding.DefaultSlots
	// shardHealTarget is the target for a dead replica's part,
	// and for every part after an API server outage: lease duration + 5 s.
	shardHealTarget = shardLease + 5*time.Second
)

// shardWidgetsEnv sets how many Widgets TestSharding makes; the default
// is the CI form. The full-scale run, by hand:
//
//	cd e2e && KUBEWIRE_E2E_SHARDING_WIDGETS=30000 GOFLAGS=-mod=mod go test -run 'TestSharding$' -v -timeout 60m .
const shardWidgetsEnv = "KUBEWIRE_E2E_SHARDING_WIDGETS"

func shardWidgets(t *testing.T) int {
	t.Helper()
	n := 3000
	if testing.Short() {
		n = 1500
	}
	if v := os.Getenv(shardWidgetsEnv); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 100 {
			t.Fatalf("%s=%q: want a number of Widgets, at least 100", shardWidgetsEnv, v)
		}
	}
	return n
}

// TestSharding runs replicas of a sharded Widget controller, each a
// process of its own, on a kube-apiserver with sharded list and watch:
// 3,000 Widgets (KUBEWIRE_E2E_SHARDING_WIDGETS for more) converge; then,
// while Widgets are changed, created and deleted, one replica is killed
// with SIGKILL (its Lease left to expire), a fourth one joins, and
// kube-apiserver is restarted. It measures, and logs (-v):
//
//   - from the SIGKILL until every Widget of the dead replica's part is
//     reconciled by a survivor (target: lease duration + 5 s);
//   - from kube-apiserver being back until every part is served again:
//     every replica works on its slots and its cache holds its part and
//     follows the server (target: lease duration + 5 s);
//   - the lists of Widgets (and the ring's full states) each replica
//     made in each phase, by reason and range.
//
// PASS and FAIL lines compare the times with the targets; they do not
// fail the test, which asserts the behaviour: the survivors list only
// the ranges they gain (no full relist), the outage costs no relist but
// one per informer the server answers 410 (the caches are kept, the
// watches resume), no Widget is ever reconciled by two replicas at once,
// and at rest every Widget is cached by exactly the replica whose part
// holds its uid, at its resourceVersion, and reconciled by it.
func TestSharding(t *testing.T) {
	n := shardWidgets(t)
	cluster := harness.StartForTest(t, harness.Options{Name: "sharding", FeatureGates: shardedCluster.FeatureGates})
	ctx := t.Context()
	admin := shardClient(t, cluster)
	if err := cluster.CreateNamespace(ctx, shardNS); err != nil {
		t.Fatal(err)
	}
	if err := crd.Install(ctx, admin, widgetv1.CustomResourceDefinitions(), crd.Options{}); err != nil {
		t.Fatal(err)
	}
	widgets := client.For[*widgetv1.Widget](admin).Namespace(shardNS)
	start := time.Now()
	shardParallel(t, n, 32, func(i int) error {
		w := &widgetv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("widget-%05d", i)}, Spec: widgetv1.WidgetSpec{Color: "red", Size: int32(i % 100)}}
		_, err := widgets.Create(ctx, w, client.CreateOptions{})
		return err
	})
	t.Logf("%d Widgets created in %v", n, time.Since(start).Round(time.Millisecond))

	f := newFence()
	fenceURL := f.serve(t)
	running := map[string]*replicaProc{}
	for _, id := range []string{"replica-1", "replica-2", "replica-3"} {
		running[id] = startReplicaProc(t, cluster, id, fenceURL)
	}
	start = time.Now()
	atRest(t, admin, running, 15*time.Minute)
	t.Logf("three replicas converged in %v: %s", time.Since(start).Round(time.Millisecond), describeReplicas(t, running))
	for id, st := range statuses(t, running) {
		if len(listRecords(st.Lists).stored()) == 0 {
			t.Fatalf("%s recorded no list of Widgets: its reflector's Metrics are not the test's", id)
		}
	}

	churn := startChurn(ctx, widgets, n)
	time.Sleep(2 * time.Second)

	// A replica killed: its part is taken over by the survivors, who
	// list only the ranges they gain.
	victim := running["replica-2"]
	vst := victim.status(t)
	delete(running, victim.id)
	mark := markLists(t, running)
	f.track(ids(running)...)
	killed := time.Now()
	t.Logf("%s: SIGKILL to %s", killed.Format(time.TimeOnly+".000"), victim.id)
	victim.kill(t)
	f.dead(victim.id)
	renewed := leaseRenewal(t, admin, victim.id)
	owned := widgetsIn(t, admin, vst.Selector)
	tookOver, settled := waitTakeover(t, admin, f, running, owned, killed, 5*time.Minute)
	t.Logf("replica-2 SIGKILLed (%d Widgets in its part; its last renewal %v before the kill): every one reconciled by a survivor %v after the kill (%v after its last renewal); the ring settled, the caches holding the new parts, %v after the kill",
		len(owned), killed.Sub(renewed).Round(time.Millisecond), tookOver.Round(time.Millisecond), (tookOver + killed.Sub(renewed)).Round(time.Millisecond), settled.Round(time.Millisecond))
	verdict(t, "a dead replica's part reconciled by the survivors, from its SIGKILL", tookOver, shardHealTarget)
	full, parts := listsSince(t, running, mark)
	for id, recs := range full {
		if len(recs.stored()) > 0 {
			t.Errorf("%s relisted what it held after the kill: %s", id, recs)
		}
	}
	t.Logf("lists after the kill: %s", parts)

	// A replica joins: the others narrow (no list), it lists its part.
	mark = markLists(t, running)
	running["replica-4"] = startReplicaProc(t, cluster, "replica-4", fenceURL)
	joined := waitServed(t, running, 5*time.Minute)
	t.Logf("replica-4 joined: parts rebalanced and cached after %v", joined.Round(time.Millisecond))
	full, parts = listsSince(t, running, mark)
	for id, recs := range full {
		if id != "replica-4" && len(recs.stored()) > 0 {
			t.Errorf("%s relisted what it held when replica-4 joined: %s", id, recs)
		}
	}
	t.Logf("lists after the join: %s; full: %s", parts, full)

	// kube-apiserver out for about 12 s: the replicas stop working at
	// their renew deadline, keep their caches, and serve again.
	mark = markLists(t, running)
	ring := ringRelists(t, running)
	start = time.Now()
	t.Logf("%s: restarting kube-apiserver", start.Format(time.TimeOnly+".000"))
	if err := cluster.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	back := time.Now()
	t.Logf("%s: kube-apiserver is back", back.Format(time.TimeOnly+".000"))
	servedAgain := waitServed(t, running, 5*time.Minute)
	t.Logf("kube-apiserver out for %v; every part served again %v after it was back", back.Sub(start).Round(time.Millisecond), servedAgain.Round(time.Millisecond))
	verdict(t, "every part served again, from the API server being back", servedAgain, shardHealTarget)
	full, parts = listsSince(t, running, mark)
	for id, recs := range full {
		// Attempts that failed (the server's storage initializing) are
		// retries of one relist; one is allowed, after a 410.
		if stored := recs.stored(); len(stored) > 1 || len(stored) == 1 && recs[0].Reason != string(reflector.ReasonExpired) {
			t.Errorf("%s relisted Widgets through the outage other than once after a 410: %s", id, recs)
		}
	}
	if parts != "none" {
		t.Errorf("lists of parts through the outage (the caches should be kept): %s", parts)
	}
	for id, n := range ringRelists(t, running) {
		if n-ring[id] > 1 {
			t.Errorf("%s: the ring's Leases relisted %d times through the outage", id, n-ring[id])
		}
		t.Logf("%s: %d full relists of Widgets stored (attempts: %s), %d of the ring's Leases through the outage", id, len(full[id].stored()), full[id], n-ring[id])
	}

	ops := churn()
	start = time.Now()
	atRest(t, admin, running, 10*time.Minute)
	t.Logf("churn (%s) over; at rest after %v: %s", ops, time.Since(start).Round(time.Millisecond), describeReplicas(t, running))
	for id, r := range running {
		if !r.status(t).OnServer {
			t.Errorf("%s: the server did not apply the shard selector", id)
		}
	}
	f.check(t)
	t.Logf("reconciles by replica: %v", f.counts())
}
