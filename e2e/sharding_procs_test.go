package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/e2e/harness"
	widgetv1 "github.com/kubewire/kubewire/examples/operator/api/v1"
	"github.com/kubewire/kubewire/pager"
	"github.com/kubewire/kubewire/reflector"
)

// shardLogDirEnv names a folder where TestSharding writes each
// replica's log (ID.log), for a run by hand.
const shardLogDirEnv = "KUBEWIRE_E2E_SHARDING_LOGDIR"

// replicaProc is one replica process of TestSharding (see
// TestShardReplicaProcess).
type replicaProc struct {
	id    string
	cmd   *exec.Cmd
	stdin io.WriteCloser
	addr  string
	out   syncBuf
	done  chan error
	once  sync.Once
	err   error
	hc    *http.Client
}

func startReplicaProc(t *testing.T, cluster *harness.Cluster, id, fenceURL string) *replicaProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(replicaConfig{Kubeconfig: cluster.Kubeconfig, ID: id, Namespace: shardNS, Fence: fenceURL,
		Lease: shardLease, Renew: shardRenew, Retry: shardRetry, Work: shardWork, Workers: shardWorkers})
	p := &replicaProc{id: id, done: make(chan error, 1), hc: &http.Client{Timeout: 30 * time.Second}}
	p.cmd = exec.Command(exe, "-test.run=^TestShardReplicaProcess$", "-test.timeout=0")
	p.cmd.Env = append(os.Environ(), shardReplicaEnv+"="+string(cfg))
	p.cmd.Stderr = &p.out
	if dir := os.Getenv(shardLogDirEnv); dir != "" {
		// Keep the replica's log: KUBEWIRE_E2E_SHARDING_DEBUG=1 makes it
		// say every transition of its reflectors.
		f, err := os.Create(filepath.Join(dir, id+".log"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		p.cmd.Stderr = io.MultiWriter(&p.out, f)
	}
	p.cmd.SysProcAttr = operatorProcAttr()
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if err := p.stop(); err != nil {
			t.Errorf("%s: %v", id, err)
		}
		if t.Failed() {
			t.Logf("output of %s:\n%s", id, p.out.String())
		}
	})
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if a, ok := strings.CutPrefix(lines.Text(), "addr "); ok {
			p.addr = a
			break
		}
		p.out.Write(append(lines.Bytes(), '\n'))
	}
	if p.addr == "" {
		t.Fatalf("%s did not start: %v\n%s", id, p.wait(10*time.Second), p.out.String())
	}
	go func() { _, _ = io.Copy(&p.out, stdout) }()
	return p
}

func (p *replicaProc) get(path string, v any) error {
	resp, err := p.hc.Get("http://" + p.addr + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %s", p.id, path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

func (p *replicaProc) status(t *testing.T) replicaStatus {
	t.Helper()
	var st replicaStatus
	if err := p.get("/status", &st); err != nil {
		t.Fatalf("%s: %v\n%s", p.id, err, p.out.String())
	}
	return st
}

// cache returns name → resourceVersion of the Widgets it caches.
func (p *replicaProc) cache(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	if err := p.get("/cache", &out); err != nil {
		t.Fatalf("%s: %v", p.id, err)
	}
	return out
}

func (p *replicaProc) wait(timeout time.Duration) error {
	p.once.Do(func() {
		select {
		case p.err = <-p.done:
		case <-time.After(timeout):
			_ = p.cmd.Process.Kill()
			p.err = fmt.Errorf("%s did not exit within %v", p.id, timeout)
			<-p.done
		}
	})
	return p.err
}

// kill ends the process with SIGKILL: its Lease stays behind, as a
// process killed or a node lost leaves it.
func (p *replicaProc) kill(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var ee *exec.ExitError
	if err := p.wait(10 * time.Second); !errors.As(err, &ee) {
		t.Fatalf("%s after SIGKILL: %v", p.id, err)
	}
}

// stop ends the replica as a rolling update does (it leaves the ring),
// unless it was killed.
func (p *replicaProc) stop() error {
	_ = p.stdin.Close()
	err := p.wait(45 * time.Second)
	var ee *exec.ExitError
	if errors.As(err, &ee) && !ee.Exited() {
		return nil // killed
	}
	return err
}

// shardClient is an admin client of the cluster with no client-side
// rate limit.
func shardClient(t *testing.T, c *harness.Cluster) *client.Client {
	t.Helper()
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{c.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	kc, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(kc.CloseIdleConnections)
	return kc
}

func ids(running map[string]*replicaProc) []string {
	out := make([]string, 0, len(running))
	for id := range running {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

func statuses(t *testing.T, running map[string]*replicaProc) map[string]replicaStatus {
	t.Helper()
	out := map[string]replicaStatus{}
	for id, p := range running {
		out[id] = p.status(t)
	}
	return out
}

// servedProblem reports "" when every replica counts the same members,
// works on all the slots assigned to it, and its cache holds that part
// and follows the server (its reflector watches); else what is not.
func servedProblem(sts map[string]replicaStatus) string {
	acting := 0
	for id, st := range sts {
		switch {
		case !st.Joined || len(st.Members) != len(sts) || st.Acting != st.Assigned:
			return fmt.Sprintf("%s: joined %v, members %v, acting on %d of %d slots", id, st.Joined, st.Members, st.Acting, st.Assigned)
		case !st.Cache.Equal(st.Selector) || !st.SyncedOK || !st.Synced.Equal(st.Selector):
			return fmt.Sprintf("%s: the cache does not hold the replica's part yet", id)
		case st.State != reflector.Watching.String():
			return fmt.Sprintf("%s: the cache's reflector is %s", id, st.State)
		}
		acting += st.Acting
	}
	if acting != shardSlots {
		return fmt.Sprintf("%d of %d slots acted on", acting, shardSlots)
	}
	return ""
}

// waitServed waits until servedProblem is "" and returns how long that
// took.
func waitServed(t *testing.T, running map[string]*replicaProc, timeout time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for {
		why := servedProblem(statuses(t, running))
		if why == "" {
			return time.Since(start)
		}
		if time.Since(start) > timeout {
			t.Fatalf("not served after %v: %s", timeout, why)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// leaseRenewal returns the renewTime of a replica's Lease.
func leaseRenewal(t *testing.T, admin *client.Client, id string) time.Time {
	t.Helper()
	l, err := client.For[*coordinationv1.Lease](admin).Namespace(shardNS).Get(t.Context(), "sharded-widgets-"+id, client.GetOptions{})
	if err != nil || l.Spec.RenewTime == nil {
		t.Fatalf("the Lease of %s: %v", id, err)
	}
	return l.Spec.RenewTime.Time
}

// listWidgets lists every Widget on the server.
func listWidgets(ctx context.Context, admin *client.Client) ([]*widgetv1.Widget, error) {
	p, err := pager.New(client.For[*widgetv1.Widget](admin).Namespace(shardNS).List, pager.Options{PageSize: 5000})
	if err != nil {
		return nil, err
	}
	all, err := p.ListAll(ctx)
	if err != nil {
		return nil, err
	}
	return all.Items, nil
}

// widgetsIn returns the names of the Widgets on the server sel selects.
func widgetsIn(t *testing.T, admin *client.Client, sel client.ShardSelector) []string {
	t.Helper()
	all, err := listWidgets(t.Context(), admin)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, w := range all {
		if sel.Matches(w) {
			out = append(out, w.Name)
		}
	}
	return out
}

// waitTakeover waits until every Widget of names still on the server
// has been reconciled by one of the replicas the fence tracks, and the
// ring is served; it returns the time from since to the last of those
// Reconcile calls, and to the first moment the ring was served.
func waitTakeover(t *testing.T, admin *client.Client, f *fence, running map[string]*replicaProc, names []string, since time.Time, timeout time.Duration) (reconciled, served time.Duration) {
	t.Helper()
	api := client.For[*widgetv1.Widget](admin).Namespace(shardNS)
	var lastCheck time.Time
	for {
		if served == 0 && servedProblem(statuses(t, running)) == "" {
			served = time.Since(since)
		}
		missing, last := f.reconciled(names)
		if len(missing) > 0 && len(missing) <= 100 && time.Since(lastCheck) > 2*time.Second {
			// Widgets deleted meanwhile are nobody's to reconcile.
			lastCheck = time.Now()
			gone := map[string]bool{}
			for _, n := range missing {
				if _, err := api.Get(t.Context(), n, client.GetOptions{}); errors.Is(err, client.ErrNotFound) {
					gone[n] = true
				}
			}
			names = slices.DeleteFunc(names, func(n string) bool { return gone[n] })
			missing, last = f.reconciled(names)
		}
		if len(missing) == 0 && served > 0 {
			return last.Sub(since), served
		}
		if time.Since(since) > timeout {
			t.Fatalf("after %v: %d Widgets not reconciled by a survivor (%v...); served: %s", timeout, len(missing), missing[:min(5, len(missing))], servedProblem(statuses(t, running)))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// listMark is where each replica's list records were at a moment.
type listMark map[string]int

func markLists(t *testing.T, running map[string]*replicaProc) listMark {
	t.Helper()
	m := listMark{}
	for id, st := range statuses(t, running) {
		m[id] = len(st.Lists)
	}
	return m
}

// listsSince returns each replica's full lists of Widgets since mark
// (a replica started since counts from its start), and the lists of
// parts, described.
func listsSince(t *testing.T, running map[string]*replicaProc, mark listMark) (full map[string]listRecords, parts string) {
	t.Helper()
	full = map[string]listRecords{}
	var desc []string
	for _, id := range ids(running) {
		st := running[id].status(t)
		for _, rec := range st.Lists[mark[id]:] {
			if rec.Reason == string(reflector.ReasonShardWidened) {
				desc = append(desc, fmt.Sprintf("%s listed slots %s (%d Widgets)", id, slotsOf(rec.Range), rec.Items))
				continue
			}
			full[id] = append(full[id], rec)
		}
	}
	if len(desc) == 0 {
		return full, "none"
	}
	return full, strings.Join(desc, "; ")
}

type listRecords []listRecord

// stored counts the lists that completed.
func (l listRecords) stored() listRecords {
	var out listRecords
	for _, r := range l {
		if r.Done && r.Err == "" {
			out = append(out, r)
		}
	}
	return out
}

func (l listRecords) String() string {
	var out []string
	for _, r := range l {
		s := fmt.Sprintf("%s (%s) of slots %s", r.How, r.Reason, slotsOf(r.Range))
		switch {
		case !r.Done:
			s += " in progress"
		case r.Err != "":
			s += fmt.Sprintf(" failed after %d Widgets: %s", r.Items, r.Err)
		default:
			s += fmt.Sprintf(": %d Widgets", r.Items)
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// slotsOf writes a selector's ranges as the ring's slots ("0-5,9").
func slotsOf(sel client.ShardSelector) string {
	if sel.IsZero() {
		return "all (no selector)"
	}
	const shift = 64 - 6 // 64 slots
	var out []string
	for _, r := range sel.Normalize().Ranges {
		lo, hi := r.Start>>shift, (r.End-1)>>shift
		if lo == hi {
			out = append(out, fmt.Sprint(lo))
		} else {
			out = append(out, fmt.Sprintf("%d-%d", lo, hi))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ",")
}

func ringRelists(t *testing.T, running map[string]*replicaProc) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for id, st := range statuses(t, running) {
		out[id] = st.RingRelists
	}
	return out
}

// verdict logs a PASS or FAIL line against a timing target; a miss is
// reported, not failed: timings belong to the full-scale run by hand.
func verdict(t *testing.T, what string, got, target time.Duration) {
	t.Helper()
	v := "PASS"
	if got > target {
		v = "FAIL"
	}
	t.Logf("%s: %s %v (target %v)", v, what, got.Round(time.Millisecond), target)
}

// atRest waits until the ring is served and every Widget on the server
// is cached by exactly one replica (the one whose part holds its uid),
// at its resourceVersion, and reconciled by it at its generation.
func atRest(t *testing.T, admin *client.Client, running map[string]*replicaProc, timeout time.Duration) {
	t.Helper()
	start := time.Now()
	for {
		why := restProblem(t, admin, running)
		if why == "" {
			return
		}
		if time.Since(start) > timeout {
			t.Fatalf("not at rest after %v: %s", timeout, why)
		}
		time.Sleep(2 * time.Second)
	}
}

func restProblem(t *testing.T, admin *client.Client, running map[string]*replicaProc) string {
	sts := statuses(t, running)
	if why := servedProblem(sts); why != "" {
		return why
	}
	all, err := listWidgets(t.Context(), admin)
	if err != nil {
		return err.Error()
	}
	caches := map[string]map[string]string{}
	cached := 0
	for id, p := range running {
		caches[id] = p.cache(t)
		cached += len(caches[id])
	}
	if cached != len(all) {
		return fmt.Sprintf("%d Widgets cached in all, %d on the server", cached, len(all))
	}
	var problems []string
	for _, w := range all {
		var owners []string
		for id := range running {
			mine := sts[id].Selector.Matches(w)
			if mine {
				owners = append(owners, id)
			}
			rv, ok := caches[id][w.Name]
			switch {
			case ok && !mine:
				problems = append(problems, fmt.Sprintf("%s cached by %s, whose part does not hold it", w.Name, id))
			case ok && rv != w.ResourceVersion:
				problems = append(problems, fmt.Sprintf("%s cached by %s at resourceVersion %s, %s on the server", w.Name, id, rv, w.ResourceVersion))
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

func describeReplicas(t *testing.T, running map[string]*replicaProc) string {
	t.Helper()
	var parts []string
	for _, id := range ids(running) {
		st := running[id].status(t)
		parts = append(parts, fmt.Sprintf("%s %d slots (%d ranges) %d Widgets cached, sharded on the server %v",
			id, st.Acting, len(st.Selector.Ranges), st.Objects, st.OnServer))
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
