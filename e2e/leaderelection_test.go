package e2e

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/leaderelection"
)

// Short timings keep the run short: lease 4s, renew deadline 3s, retry
// 500ms.
const (
	leLease = 4 * time.Second
	leRenew = 3 * time.Second
	leRetry = 500 * time.Millisecond
)

// TestLeaderElection runs candidates against a real kube-apiserver: two
// and three candidates with graceful hand-overs, a killed leader, and a
// kube-apiserver restart longer than the renew deadline. It checks that
// there are never two leaders at once (in the process, and with a
// fencing counter the leaders increment in a ConfigMap with optimistic
// concurrency) and logs the failover times.
func TestLeaderElection(t *testing.T) {
	cluster := harness.Shared(t, "leaderelection", harness.Options{})
	ns := "leader-election"
	if err := cluster.CreateNamespace(t.Context(), ns); err != nil {
		t.Fatal(err)
	}
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{cluster.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	env := &leEnv{cfg: cfg, ns: ns}

	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("%dCandidatesHandOver", n), func(t *testing.T) {
			lease := fmt.Sprintf("handover-%d", n)
			tr, f := &leTracker{}, env.newFence(t, lease)
			cands := map[string]*leCandidate{}
			for i := range n {
				id := fmt.Sprintf("%s-c%d", lease, i)
				cands[id] = env.start(t, lease, id, tr, f, leOptions{})
			}
			leader := tr.waitLeader(t, "", 2*leLease)
			time.Sleep(2 * leLease) // renewals keep it the leader
			if got := tr.current(); got != leader {
				t.Errorf("leader changed from %s to %q on a healthy server", leader, got)
			}
			for len(cands) > 1 {
				stopAt := time.Now()
				if err := cands[leader].stop(); err != nil {
					t.Errorf("Run of %s: %v", leader, err)
				}
				delete(cands, leader)
				next := tr.waitLeader(t, leader, 2*leLease)
				took := tr.startOf(next).Sub(stopAt)
				t.Logf("graceful hand-over %s -> %s: the successor led %s after the leader was told to stop (goal < 1s)", leader, next, took.Round(time.Millisecond))
				if took >= time.Second {
					t.Errorf("hand-over took %s, want under 1s", took)
				}
				leader = next
				time.Sleep(2 * leRetry)
			}
			for _, c := range cands {
				if err := c.stop(); err != nil {
					t.Errorf("Run of %s: %v", c.id, err)
				}
			}
			tr.check(t)
			f.check(t)
		})
	}

	t.Run("KilledLeader", func(t *testing.T) {
		lease := "killed"
		tr, f := &leTracker{}, env.newFence(t, lease)
		cands := map[string]*leCandidate{}
		for i := range 3 {
			id := fmt.Sprintf("%s-c%d", lease, i)
			cands[id] = env.start(t, lease, id, tr, f, leOptions{keepOnCancel: true})
		}
		leader := tr.waitLeader(t, "", 2*leLease)
		for round := range 2 {
			time.Sleep(leLease + leRetry/3)
			lastRenew := cands[leader].el.Record().RenewTime
			killAt := time.Now()
			if err := cands[leader].stop(); err != nil { // KeepOnCancel: the Lease stays held, as when a process dies
				t.Errorf("Run of %s: %v", leader, err)
			}
			delete(cands, leader)
			next := tr.waitLeader(t, leader, 3*leLease)
			took := tr.startOf(next).Sub(killAt)
			t.Logf("killed leader %s (round %d): %s led %s after the kill, %s after the last renewal (goal: within lease duration + retry period = %s)",
				leader, round, next, took.Round(time.Millisecond), tr.startOf(next).Sub(lastRenew).Round(time.Millisecond), leLease+leRetry)
			if took > leLease+leRetry {
				t.Errorf("failover took %s, want within %s", took, leLease+leRetry)
			}
			leader = next
		}
		for _, c := range cands {
			if err := c.stop(); err != nil {
				t.Errorf("Run of %s: %v", c.id, err)
			}
		}
		tr.check(t)
		f.check(t)
	})

	t.Run("APIServerRestart", func(t *testing.T) {
		lease := "restart"
		tr, f := &leTracker{}, env.newFence(t, lease)
		var lost atomic.Int32
		var cands []*leCandidate
		for i := range 3 {
			cands = append(cands, env.start(t, lease, fmt.Sprintf("%s-c%d", lease, i), tr, f, leOptions{rerun: true, lost: &lost}))
		}
		leader := tr.waitLeader(t, "", 2*leLease)
		time.Sleep(leLease)
		start := time.Now()
		if err := cluster.RestartAPIServer(t.Context()); err != nil {
			t.Fatal(err)
		}
		back := time.Now()
		down := back.Sub(start)
		next := tr.waitLeader(t, "", 3*leLease)
		t.Logf("kube-apiserver restart took %s until ready (renew deadline %s); %s led before, %s led again %s after the restart began",
			down.Round(time.Millisecond), leRenew, leader, next, tr.startOf(next).Sub(start).Round(time.Millisecond))
		terms := tr.allTerms()
		if end := terms[0].end; !end.IsZero() {
			t.Logf("%s stepped down %s after the restart began", leader, end.Sub(start).Round(time.Millisecond))
		}
		if down > leRenew+leRetry && (lost.Load() == 0 || terms[0].end.IsZero()) {
			t.Errorf("the server was down %s, longer than the renew deadline, but %s did not step down", down, leader)
		}
		time.Sleep(2 * leRetry)
		for _, c := range cands {
			if err := c.stop(); err != nil {
				t.Errorf("Run of %s: %v", c.id, err)
			}
		}
		tr.check(t)
		f.check(t)
	})
}

// leEnv makes candidates for one cluster.
type leEnv struct {
	cfg client.Config
	ns  string
}

type leOptions struct {
	keepOnCancel bool
	rerun        bool          // campaign again after losing leadership
	lost         *atomic.Int32 // counts ErrLeadershipLost
}

// leCandidate is one running Elector with a client of its own.
type leCandidate struct {
	id     string
	el     *leaderelection.Elector
	cancel context.CancelFunc
	done   chan struct{}
	err    error
}

func (c *leCandidate) stop() error {
	c.cancel()
	<-c.done
	return c.err
}

func (e *leEnv) start(t *testing.T, lease, id string, tr *leTracker, f *leFence, o leOptions) *leCandidate {
	t.Helper()
	c, err := client.New(e.cfg)
	if err != nil {
		t.Fatal(err)
	}
	el, err := leaderelection.New(c, leaderelection.Config{
		Namespace: e.ns, Name: lease, Identity: id,
		LeaseDuration: leLease, RenewDeadline: leRenew, RetryPeriod: leRetry,
		KeepOnCancel: o.keepOnCancel,
		Callbacks: leaderelection.Callbacks{OnStartedLeading: func(ctx context.Context) {
			n := tr.start(id)
			f.writeWhileLeading(ctx, c, n)
			tr.stop(id, n)
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cd := &leCandidate{id: id, el: el, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(cd.done)
		defer c.CloseIdleConnections()
		for {
			cd.err = el.Run(ctx)
			if errors.Is(cd.err, leaderelection.ErrLeadershipLost) && o.lost != nil {
				o.lost.Add(1)
			}
			if !o.rerun || ctx.Err() != nil || (cd.err != nil && !errors.Is(cd.err, leaderelection.ErrLeadershipLost)) {
				return
			}
		}
	}()
	t.Cleanup(func() { _ = cd.stop() })
	return cd
}

// leTracker records leadership as the candidates' callbacks see it, and
// any moment with two leaders.
type leTracker struct {
	mu       sync.Mutex
	leader   string
	terms    []leTerm
	overlaps []string
}

type leTerm struct {
	id         string
	start, end time.Time
}

func (tr *leTracker) start(id string) int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.leader != "" {
		tr.overlaps = append(tr.overlaps, fmt.Sprintf("%s started leading while %s leads", id, tr.leader))
	}
	tr.leader = id
	tr.terms = append(tr.terms, leTerm{id: id, start: time.Now()})
	return len(tr.terms) - 1
}

func (tr *leTracker) stop(id string, n int) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.leader == id {
		tr.leader = ""
	}
	tr.terms[n].end = time.Now()
}

func (tr *leTracker) current() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.leader
}

func (tr *leTracker) allTerms() []leTerm {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]leTerm(nil), tr.terms...)
}

// startOf is when id's latest term started.
func (tr *leTracker) startOf(id string) time.Time {
	terms := tr.allTerms()
	for i := len(terms) - 1; i >= 0; i-- {
		if terms[i].id == id {
			return terms[i].start
		}
	}
	return time.Time{}
}

func (tr *leTracker) waitLeader(t *testing.T, not string, within time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if id := tr.current(); id != "" && id != not {
			return id
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new leader (other than %q) within %s", not, within)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (tr *leTracker) check(t *testing.T) {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, o := range tr.overlaps {
		t.Error(o)
	}
}

// leFence is a counter in a ConfigMap that leaders increment with
// optimistic concurrency while they lead; each value records the term
// that wrote it, and terms must never interleave.
type leFence struct {
	ns, name string
	mu       sync.Mutex
	writes   map[int]int // counter value -> term
}

func (e *leEnv) newFence(t *testing.T, lease string) *leFence {
	t.Helper()
	c, err := client.New(e.cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	f := &leFence{ns: e.ns, name: lease + "-fence", writes: map[int]int{}}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: e.ns, Name: f.name}, Data: map[string]string{"counter": "0"}}
	if _, err := client.For[*corev1.ConfigMap](c).Create(t.Context(), cm, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return f
}

// writeWhileLeading increments the counter every RetryPeriod until ctx
// ends.
func (f *leFence) writeWhileLeading(ctx context.Context, c *client.Client, term int) {
	cms := client.For[*corev1.ConfigMap](c).Namespace(f.ns)
	for ctx.Err() == nil {
		cm, err := cms.Get(ctx, f.name, client.GetOptions{})
		if err == nil && ctx.Err() == nil {
			v, _ := strconv.Atoi(cm.Data["counter"])
			cm.Data["counter"] = strconv.Itoa(v + 1)
			cm.Data["term"] = strconv.Itoa(term)
			if _, err := cms.Update(ctx, cm, client.UpdateOptions{}); err == nil {
				f.mu.Lock()
				f.writes[v+1] = term
				f.mu.Unlock()
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(leRetry):
		}
	}
}

func (f *leFence) check(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	values := make([]int, 0, len(f.writes))
	for v := range f.writes {
		values = append(values, v)
	}
	sort.Ints(values)
	last, terms := -1, 0
	for _, v := range values {
		n := f.writes[v]
		switch {
		case n < last:
			t.Errorf("fence value %d written by term %d after term %d wrote", v, n, last)
		case n > last:
			last, terms = n, terms+1
		}
	}
	if len(values) == 0 {
		t.Error("no leader wrote the fence")
	}
	t.Logf("fence: %d increments by %d terms, never interleaved", len(values), terms)
}
