package e2e

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/ctrlutil"
	"github.com/kubewire/kubewire/e2e/harness"
	widgetv1 "github.com/kubewire/kubewire/examples/operator/api/v1"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/conformance"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/pager"
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
	shardLease = 8 * time.Second
	shardRenew = 6 * time.Second
	shardRetry = time.Second
	shardNS    = "sharding"
	shardWork  = time.Millisecond // simulated work per Reconcile
)

// TestSharding runs three replicas of a sharded Widget controller in
// this process, on a kube-apiserver with sharded list and watch: 30,000
// Widgets (3,000 with -short) converge; then, while Widgets are changed,
// created and deleted, one replica is killed (cut off the network and
// stopped, its Lease left to expire), a fourth one joins, and
// kube-apiserver is restarted. At rest each time: every Widget is cached
// by exactly one replica, the one whose part its uid hashes into, and
// reconciled by it at its current generation; never was a Widget
// reconciled by two replicas at once (checked by an in-test fence around
// every Reconcile). The time until a dead replica's part is served again
// (the survivors work on all the slots and their caches hold their new
// parts) is logged (-v), as are the other phases.
func TestSharding(t *testing.T) {
	n := 30000
	if testing.Short() {
		n = 3000
	}
	cluster := harness.StartForTest(t, harness.Options{Name: "sharding", FeatureGates: shardedCluster.FeatureGates})
	ctx := t.Context()
	admin := shardClient(t, cluster, nil)
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

	f := &fence{running: map[string]string{}, reconciles: map[string]int{}}
	running := map[string]*shardReplica{}
	for _, id := range []string{"replica-1", "replica-2", "replica-3"} {
		running[id] = startShardReplica(t, cluster, id, f)
	}
	start = time.Now()
	atRest(t, admin, running, 15*time.Minute)
	t.Logf("three replicas converged in %v: %s", time.Since(start).Round(time.Millisecond), describeReplicas(running))

	churn := startChurn(ctx, widgets, n)
	time.Sleep(2 * time.Second)
	victim := running["replica-2"]
	renewed := victim.m.Member().Status().LastRenewal
	killed := time.Now()
	victim.kill()
	delete(running, "replica-2")
	served := waitRing(t, running, 5*time.Minute)
	t.Logf("replica-2 killed: its part served again after %v (%v after its last renewal; lease duration %v)",
		served.Round(time.Millisecond), killed.Add(served).Sub(renewed).Round(time.Millisecond), shardLease)

	running["replica-4"] = startShardReplica(t, cluster, "replica-4", f)
	joined := waitRing(t, running, 5*time.Minute)
	t.Logf("replica-4 joined: parts rebalanced and cached after %v", joined.Round(time.Millisecond))

	start = time.Now()
	if err := cluster.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	restarted := time.Since(start)
	back := waitRing(t, running, 5*time.Minute)
	t.Logf("kube-apiserver restarted in %v; parts served again %v later", restarted.Round(time.Millisecond), back.Round(time.Millisecond))

	ops := churn()
	start = time.Now()
	atRest(t, admin, running, 10*time.Minute)
	t.Logf("churn (%s) over; at rest after %v: %s", ops, time.Since(start).Round(time.Millisecond), describeReplicas(running))
	for id, r := range running {
		if !r.widgets.ShardedOnServer() {
			t.Errorf("%s: the server did not apply the shard selector", id)
		}
	}
	f.check(t)
	t.Logf("reconciles by replica: %v", f.counts())
}

// fence records the Reconcile calls in progress, and fails on a Widget
// reconciled by two replicas at once.
type fence struct {
	mu         sync.Mutex
	running    map[string]string
	reconciles map[string]int
	overlaps   []string
}

func (f *fence) enter(key, id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if other, ok := f.running[key]; ok {
		f.overlaps = append(f.overlaps, fmt.Sprintf("%s reconciled by %s while %s reconciles it", key, id, other))
	}
	f.running[key] = id
	f.reconciles[id]++
}

func (f *fence) leave(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.running, key)
}

func (f *fence) counts() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for k, v := range f.reconciles {
		out[k] = v
	}
	return out
}

func (f *fence) check(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, o := range f.overlaps {
		if i == 20 {
			t.Errorf("... and %d more", len(f.overlaps)-20)
			break
		}
		t.Error(o)
	}
}

// cutLink is a transport that can be cut off: requests then hang until
// their ctx ends, as to a process that died or a node cut off.
type cutLink struct {
	rt  http.RoundTripper
	cut atomic.Bool
}

func (c *cutLink) RoundTrip(req *http.Request) (*http.Response, error) {
	if c.cut.Load() {
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	return c.rt.RoundTrip(req)
}

// shardClient is an admin client of the cluster with no client-side
// rate limit, through link when set.
func shardClient(t *testing.T, c *harness.Cluster, link *cutLink) *client.Client {
	t.Helper()
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{c.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	if link != nil {
		cfg.Transport = link
	}
	kc, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.CloseIdleConnections)
	return kc
}

// shardReplica is one replica of the sharded controller.
type shardReplica struct {
	id      string
	m       *manager.Manager
	widgets *informer.Informer[*widgetv1.Widget]
	link    *cutLink
	cancel  context.CancelFunc
	done    chan error
}

func startShardReplica(t *testing.T, cluster *harness.Cluster, id string, f *fence) *shardReplica {
	t.Helper()
	link := &cutLink{rt: cluster.Client(t).Transport.(*http.Transport).Clone()}
	c := shardClient(t, cluster, link)
	m, err := manager.New(c, manager.Options{
		Name: "sharded-widgets",
		Sharding: &sharding.Config{Namespace: shardNS, Identity: id, LeaseDuration: shardLease, RenewDeadline: shardRenew, RetryPeriod: shardRetry,
			Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelInfo}))},
		Informers: informer.FactoryOptions{DropManagedFields: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	widgets := informer.Shared[*widgetv1.Widget](m.Factory(), informer.Scope{Namespace: shardNS, Shard: m.ShardKey()})
	api := client.For[*widgetv1.Widget](c)
	ctl, err := controller.NewFor("widgets", widgets, func(ctx context.Context, w *widgetv1.Widget) (controller.Result, error) {
		f.enter(w.Name, id)
		defer f.leave(w.Name)
		time.Sleep(shardWork)
		if w.Status.ObservedGeneration == w.Generation && w.Status.ConfigMap == id {
			return controller.Result{}, nil
		}
		// The status names the replica that reconciled the Widget last:
		// at rest, the one whose part holds it.
		_, _, err := ctrlutil.Patch(ctx, api, w, func(w *widgetv1.Widget) error {
			w.Status = widgetv1.WidgetStatus{ConfigMap: id, ObservedGeneration: w.Generation}
			return nil
		})
		return controller.Result{}, ctrlutil.IgnoreNotFound(err)
	}, controller.Options{Workers: 8, Shard: m.ShardKey()})
	if err != nil {
		t.Fatal(err)
	}
	m.Add(ctl)
	ctx, cancel := context.WithCancel(context.Background())
	r := &shardReplica{id: id, m: m, widgets: widgets, link: link, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- m.Run(ctx) }()
	t.Cleanup(func() {
		r.cancel()
		if err := <-r.done; err != nil && !r.link.cut.Load() {
			t.Errorf("%s: Run: %v", id, err)
		}
	})
	return r
}

// kill cuts the replica off the server and stops it: its Lease stays
// behind, as a process killed or a node lost leaves it.
func (r *shardReplica) kill() {
	r.link.cut.Store(true)
	r.cancel()
}

// ringSettled reports "" when every running replica counts the same
// members, works on all the slots assigned to it, and its cache holds
// its part; else what is not.
func ringSettled(running map[string]*shardReplica) string {
	acting := 0
	for id, r := range running {
		st := r.m.Member().Status()
		if !st.Joined || len(st.Members) != len(running) || st.Acting != st.Assigned {
			return fmt.Sprintf("%s: joined %v, members %v, acting on %d of %d slots", id, st.Joined, st.Members, st.Acting, st.Assigned)
		}
		if got, ok := r.widgets.SyncedShard(); !ok || !got.Equal(st.Selector) {
			return fmt.Sprintf("%s: the cache does not hold the replica's part yet", id)
		}
		acting += st.Acting
	}
	if acting != sharding.DefaultSlots {
		return fmt.Sprintf("%d of %d slots acted on", acting, sharding.DefaultSlots)
	}
	return ""
}

// waitRing waits until ringSettled and returns how long that took.
func waitRing(t *testing.T, running map[string]*shardReplica, timeout time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		why := ringSettled(running)
		if why == "" {
			return time.Since(start)
		}
		if time.Since(start) > timeout {
			t.Fatalf("ring not settled after %v: %s", timeout, why)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// atRest waits until the ring is settled and every Widget on the server
// is cached by exactly one replica (the one whose part holds its uid),
// at its resourceVersion, and reconciled by it at its generation.
func atRest(t *testing.T, admin *client.Client, running map[string]*shardReplica, timeout time.Duration) {
	t.Helper()
	start := time.Now()
	for {
		why := restProblem(t.Context(), admin, running)
		if why == "" {
			return
		}
		if time.Since(start) > timeout {
			t.Fatalf("not at rest after %v: %s", timeout, why)
		}
		time.Sleep(2 * time.Second)
	}
}

func restProblem(ctx context.Context, admin *client.Client, running map[string]*shardReplica) string {
	if why := ringSettled(running); why != "" {
		return why
	}
	p, err := pager.New(client.For[*widgetv1.Widget](admin).Namespace(shardNS).List, pager.Options{PageSize: 5000})
	if err != nil {
		return err.Error()
	}
	all, err := p.ListAll(ctx)
	if err != nil {
		return err.Error()
	}
	cached := 0
	for _, r := range running {
		cached += r.widgets.Store().Len()
	}
	if cached != len(all.Items) {
		return fmt.Sprintf("%d Widgets cached in all, %d on the server", cached, len(all.Items))
	}
	var problems []string
	for _, w := range all.Items {
		var owners []string
		for id, r := range running {
			if r.m.Member().Selector().Matches(w) {
				owners = append(owners, id)
			}
			if got, ok := r.widgets.Store().Get(w.Namespace, w.Name); ok && !r.m.Member().Selector().Matches(w) {
				problems = append(problems, fmt.Sprintf("%s cached by %s, whose part does not hold it", w.Name, id))
			} else if ok && got.ResourceVersion != w.ResourceVersion {
				problems = append(problems, fmt.Sprintf("%s cached by %s at resourceVersion %s, %s on the server", w.Name, id, got.ResourceVersion, w.ResourceVersion))
			}
		}
		switch {
		case len(owners) != 1:
			problems = append(problems, fmt.Sprintf("%s in the parts of %v", w.Name, owners))
		case w.Status.ConfigMap != owners[0] || w.Status.ObservedGeneration != w.Generation:
			problems = append(problems, fmt.Sprintf("%s: reconciled by %q at generation %d, generation %d, owner %s", w.Name, w.Status.ConfigMap, w.Status.ObservedGeneration, w.Generation, owners[0]))
		}
		if len(problems) >= 5 {
			break
		}
	}
	return strings.Join(problems, "; ")
}

func describeReplicas(running map[string]*shardReplica) string {
	ids := make([]string, 0, len(running))
	for id := range running {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var parts []string
	for _, id := range ids {
		r := running[id]
		st := r.m.Member().Status()
		parts = append(parts, fmt.Sprintf("%s %d slots (%d ranges) %d Widgets cached, sharded on the server %v",
			id, st.Acting, len(st.Selector.Ranges), r.widgets.Store().Len(), r.widgets.ShardedOnServer()))
	}
	return strings.Join(parts, "; ")
}

// startChurn changes Widgets until the returned function is called:
// about 100 operations a second, most of them spec changes, some
// deletions and creations. The function returns a summary.
func startChurn(ctx context.Context, widgets *client.Resource[*widgetv1.Widget], n int) func() string {
	ctx, cancel := context.WithCancel(ctx)
	var updates, deletes, creates atomic.Int64
	var mu sync.Mutex
	deleted := map[int]bool{}
	var wg sync.WaitGroup
	for worker := range 4 {
		wg.Go(func() {
			tick := time.NewTicker(40 * time.Millisecond)
			defer tick.Stop()
			for k := 0; ; k++ {
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
				i := rand.N(n)
				mu.Lock()
				gone := deleted[i]
				if k%10 == 9 && !gone {
					deleted[i] = true
				}
				mu.Unlock()
				name := fmt.Sprintf("widget-%05d", i)
				switch {
				case gone:
					continue
				case k%10 == 9:
					if err := widgets.Delete(ctx, name, client.DeleteOptions{}); err == nil {
						deletes.Add(1)
					}
					w := &widgetv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("extra-%d-%05d", worker, k)}, Spec: widgetv1.WidgetSpec{Color: "blue"}}
					if _, err := widgets.Create(ctx, w, client.CreateOptions{}); err == nil {
						creates.Add(1)
					}
				default:
					err := client.RetryOnConflict(ctx, 0, func() error {
						w, err := widgets.Get(ctx, name, client.GetOptions{})
						if err != nil {
							return err
						}
						w.Spec.Size = (w.Spec.Size + 1) % 100
						_, err = widgets.Update(ctx, w, client.UpdateOptions{})
						return err
					})
					if err == nil {
						updates.Add(1)
					}
				}
			}
		})
	}
	return func() string {
		cancel()
		wg.Wait()
		return fmt.Sprintf("%d spec changes, %d deletions, %d creations", updates.Load(), deletes.Load(), creates.Load())
	}
}

// shardParallel runs f(0) ... f(n-1) on workers goroutines and fails t
// with the first error.
func shardParallel(t *testing.T, n, workers int, f func(i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	var first atomic.Pointer[error]
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil && !errors.Is(err, client.ErrAlreadyExists) {
					first.CompareAndSwap(nil, &err)
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if p := first.Load(); p != nil {
		t.Fatal(*p)
	}
}
