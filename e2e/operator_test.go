package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/e2e/harness"
	widgetv1 "github.com/kubewire/kubewire/examples/operator/api/v1"
)

const (
	opWidgets   = 200
	opNamespace = "widgets"
	opName      = "widget-operator" // the operator's Lease and events' reportingController
	opFinalizer = "operator.kubewire.dev/cleanup"
	opManagedBy = "app.kubernetes.io/managed-by"
)

// TestOperator runs examples/operator as two replicas (processes) on a
// kube-apiserver of its own, with its CustomResourceDefinition created
// through the typed apiextensions/v1 client: 200 Widgets are created
// and converge; then, while Widgets are recoloured, created and deleted,
// the leader is killed (SIGKILL, its Lease left to expire) and a third
// replica started; then kube-apiserver is restarted amid more changes.
// Each time the cluster must converge to what the operator defines: every
// Widget with its finalizer, an owned ConfigMap with its color and size,
// and a status naming it at its generation; no ConfigMap without its
// Widget. Convergence and failover times are logged (-v).
func TestOperator(t *testing.T) {
	cluster := harness.StartForTest(t, harness.Options{})
	ctx := t.Context()
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{cluster.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	if err := cluster.CreateNamespace(ctx, opNamespace); err != nil {
		t.Fatal(err)
	}
	installWidgetCRD(t, c)
	bin := buildOperator(t)
	widgets := client.For[*widgetv1.Widget](c).Namespace(opNamespace)

	replicas := map[string]*operatorProc{}
	for _, id := range []string{"replica-1", "replica-2"} {
		replicas[id] = startOperator(t, bin, cluster.Kubeconfig, id)
	}

	// 200 Widgets, created by 8 writers.
	start := time.Now()
	parallel(t, opWidgets, func(i int) error {
		_, err := widgets.Create(ctx, newWidget(i), client.CreateOptions{})
		return err
	})
	created := time.Now()
	waitOperatorConverged(t, c, "the initial Widgets", 60*time.Second)
	t.Logf("%d Widgets converged %v after the first create (%v after the last); %s leads",
		opWidgets, time.Since(start).Round(time.Millisecond), time.Since(created).Round(time.Millisecond), operatorLeader(ctx, c))

	// Churn, and the leader killed in the middle.
	rng := rand.New(rand.NewPCG(7, 11))
	next := opWidgets
	churn := func(rounds int) {
		t.Helper()
		for range rounds {
			i := rng.IntN(next)
			switch rng.IntN(4) {
			case 0:
				if err := widgets.Delete(ctx, widgetName(i), client.DeleteOptions{}); err != nil && !errors.Is(err, client.ErrNotFound) {
					t.Fatal(err)
				}
			case 1:
				if _, err := widgets.Create(ctx, newWidget(next), client.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
				next++
			default:
				err := client.RetryOnConflict(ctx, 0, func() error {
					w, err := widgets.Get(ctx, widgetName(i), client.GetOptions{})
					if err != nil {
						return err
					}
					w.Spec.Color, w.Spec.Size = fmt.Sprintf("color-%d", rng.IntN(1000)), w.Spec.Size+1
					_, err = widgets.Update(ctx, w, client.UpdateOptions{})
					return err
				})
				if err != nil && !errors.Is(err, client.ErrNotFound) {
					t.Fatal(err)
				}
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	churn(100)
	leader := operatorLeader(ctx, c)
	if replicas[leader] == nil {
		t.Fatalf("the Lease names %q, not one of the replicas", leader)
	}
	killedAt := time.Now()
	t.Logf("killing the leader %s (SIGKILL; peak RSS %s)", leader, peakRSS(replicas[leader].cmd.Process.Pid))
	replicas[leader].kill()
	delete(replicas, leader)
	replicas["replica-3"] = startOperator(t, bin, cluster.Kubeconfig, "replica-3")
	churn(100)
	churned := time.Now()
	waitOperatorConverged(t, c, "after the killed leader", 90*time.Second)
	newLeader := operatorLeader(ctx, c)
	t.Logf("killed leader: %s took over; converged %v after the churn ended, %v after the kill (the Lease lasts 15s)",
		newLeader, time.Since(churned).Round(time.Millisecond), time.Since(killedAt).Round(time.Millisecond))
	if newLeader == leader {
		t.Errorf("the killed replica %s still leads", leader)
	}

	// kube-apiserver restarted amid changes.
	churn(50)
	restartAt := time.Now()
	if err := cluster.RestartAPIServer(ctx); err != nil {
		t.Fatal(err)
	}
	down := time.Since(restartAt)
	churn(50)
	churned = time.Now()
	waitOperatorConverged(t, c, "after the kube-apiserver restart", 90*time.Second)
	t.Logf("kube-apiserver restart (%v until ready): converged %v after the churn ended, %v after the restart began; %s leads",
		down.Round(time.Millisecond), time.Since(churned).Round(time.Millisecond), time.Since(restartAt).Round(time.Millisecond), operatorLeader(ctx, c))

	list, err := widgets.List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	counts := operatorEvents(ctx, t, c)
	t.Logf("%d Widgets at the end (%d created in all); events: %v", len(list.Items), next, counts)
	if counts["ConfigMapWritten"] < opWidgets || counts["CleanedUp"] == 0 {
		t.Errorf("events %v: want at least %d ConfigMapWritten and some CleanedUp", counts, opWidgets)
	}
	for id, p := range replicas {
		if code, body := p.readyz(); code != http.StatusOK {
			t.Errorf("%s /readyz: %d\n%s", id, code, body)
		}
	}
	for id, p := range replicas {
		rss := peakRSS(p.cmd.Process.Pid)
		if err := p.stop(); err != nil {
			t.Errorf("%s: %v\n%s", id, err, p.output())
		}
		t.Logf("%s exited cleanly on SIGTERM; peak RSS %s", id, rss)
	}
}

func widgetName(i int) string { return fmt.Sprintf("widget-%04d", i) }

func newWidget(i int) *widgetv1.Widget {
	return &widgetv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: widgetName(i)},
		Spec:       widgetv1.WidgetSpec{Color: []string{"red", "green", "blue"}[i%3], Size: int32(i % 10)},
	}
}

// installWidgetCRD creates the Widget definition with the typed
// apiextensions/v1 client and waits until Widgets can be listed.
func installWidgetCRD(t *testing.T, c *client.Client) {
	t.Helper()
	defs, err := crd.Parse(widgetv1.CustomResourceDefinitions()...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.For[*apiextv1.CustomResourceDefinition](c).Create(t.Context(), defs[0], client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := client.For[*widgetv1.Widget](c).List(t.Context(), client.ListOptions{Limit: 1})
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Widgets not served 30s after the definition was created: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// buildOperator builds examples/operator into a temporary folder.
func buildOperator(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "operator")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "github.com/kubewire/kubewire/examples/operator")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build examples/operator: %v\n%s", err, out)
	}
	return bin
}

// operatorProc is one replica of the operator, a process.
type operatorProc struct {
	id      string
	cmd     *exec.Cmd
	health  string
	metrics string
	out     syncBuf
	done    chan error
	once    sync.Once
	err     error
}

func startOperator(t *testing.T, bin, kubeconfigPath, id string) *operatorProc {
	t.Helper()
	health, metrics := freeLoopback(t), freeLoopback(t)
	p := &operatorProc{id: id, health: health, metrics: metrics, done: make(chan error, 1)}
	p.cmd = exec.Command(bin, "-kubeconfig", kubeconfigPath, "-id", id, "-health-addr", health, "-metrics-addr", metrics)
	p.cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfigPath)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	p.cmd.SysProcAttr = operatorProcAttr()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.kill()
		if t.Failed() {
			t.Logf("output of %s:\n%s", id, p.output())
		}
	})
	return p
}

// wait returns the process's exit error once it exited.
func (p *operatorProc) wait(timeout time.Duration) error {
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

func (p *operatorProc) kill() {
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.wait(10 * time.Second)
}

// stop ends the process with SIGTERM, as a Pod's deletion does, and
// returns an error unless it exits with status 0.
func (p *operatorProc) stop() error {
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	return p.wait(30 * time.Second)
}

func (p *operatorProc) output() string { return p.out.String() }

func (p *operatorProc) readyz() (int, string) {
	resp, err := http.Get("http://" + p.health + "/readyz")
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// parallel runs f(0..n-1) on 8 goroutines and fails on the first error.
func parallel(t *testing.T, n int, f func(i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	next := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range next {
				if err := f(i); err != nil {
					errs <- err
				}
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

func operatorLeader(ctx context.Context, c *client.Client) string {
	l, err := client.For[*coordinationv1.Lease](c).Namespace("default").Get(ctx, opName, client.GetOptions{})
	if err != nil || l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// waitOperatorConverged waits until operatorDivergence is empty.
func waitOperatorConverged(t *testing.T, c *client.Client, what string, timeout time.Duration) {
	t.Helper()
	waitConvergedIn(t, c, opNamespace, what, timeout)
}

// waitConvergedIn waits until operatorDivergence of namespace ns is
// empty.
func waitConvergedIn(t *testing.T, c *client.Client, ns, what string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last []string
	for {
		div, err := operatorDivergence(t.Context(), c, ns)
		if err == nil && len(div) == 0 {
			return
		}
		if err == nil {
			last = div
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not converged after %v: %d differences, e.g. %v (last error %v)", what, timeout, len(last), last[:min(5, len(last))], err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// operatorDivergence lists how the Widgets and the operator's ConfigMaps
// of namespace ns differ from what the operator defines.
func operatorDivergence(ctx context.Context, c *client.Client, ns string) ([]string, error) {
	ws, err := client.For[*widgetv1.Widget](c).Namespace(ns).List(ctx, client.ListOptions{})
	if err != nil {
		return nil, err
	}
	cms, err := client.For[*corev1.ConfigMap](c).Namespace(ns).List(ctx, client.ListOptions{LabelSelector: client.MatchLabels(map[string]string{opManagedBy: opName})})
	if err != nil {
		return nil, err
	}
	byName := map[string]*corev1.ConfigMap{}
	for _, cm := range cms.Items {
		byName[cm.Name] = cm
	}
	var out []string
	for _, w := range ws.Items {
		cm := byName[w.Name+"-widget"]
		delete(byName, w.Name+"-widget")
		switch {
		case w.DeletionTimestamp != nil:
			out = append(out, w.Name+": being deleted")
		case cm == nil:
			out = append(out, w.Name+": no ConfigMap")
		case cm.Data["color"] != w.Spec.Color || cm.Data["size"] != fmt.Sprint(w.Spec.Size):
			out = append(out, fmt.Sprintf("%s: ConfigMap says %v", w.Name, cm.Data))
		case len(cm.OwnerReferences) != 1 || cm.OwnerReferences[0].UID != w.UID:
			out = append(out, w.Name+": ConfigMap not owned by the Widget")
		case len(w.Finalizers) != 1 || w.Finalizers[0] != opFinalizer:
			out = append(out, fmt.Sprintf("%s: finalizers %v", w.Name, w.Finalizers))
		case w.Status.ConfigMap != cm.Name || w.Status.ObservedGeneration != w.Generation:
			out = append(out, fmt.Sprintf("%s: status %+v at generation %d", w.Name, w.Status, w.Generation))
		}
	}
	for name := range byName {
		out = append(out, name+": ConfigMap of no Widget")
	}
	return out, nil
}

// operatorEvents counts the operator's events in the Widgets' namespace
// by reason.
func operatorEvents(ctx context.Context, t *testing.T, c *client.Client) map[string]int {
	evs, err := client.For[*eventsv1.Event](c).Namespace(opNamespace).List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range evs.Items {
		if e.ReportingController == opName {
			out[e.Reason]++
		}
	}
	return out
}
