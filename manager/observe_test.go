package manager_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/events"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/workqueue"
)

// fastQueue retries failed Requests after a millisecond.
var fastQueue = workqueue.Options{BaseDelay: time.Millisecond, MaxDelay: 10 * time.Millisecond, QPS: 1e9, Burst: 1 << 20}

// scrape reads the text exposition at url.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %d\n%s", url, resp.StatusCode, b)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return fams
}

// sample returns the value of the series of family name whose labels
// include the name=value pairs of want (a histogram's sample count).
func sample(fams map[string]*dto.MetricFamily, name string, want ...string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
next:
	for _, s := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range s.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		for i := 0; i+1 < len(want); i += 2 {
			if labels[want[i]] != want[i+1] {
				continue next
			}
		}
		switch {
		case s.Counter != nil:
			return s.GetCounter().GetValue()
		case s.Gauge != nil:
			return s.GetGauge().GetValue()
		case s.Histogram != nil:
			return float64(s.GetHistogram().GetSampleCount())
		}
	}
	return -1
}

// A running manager serves /metrics on MetricsAddr (and beside /healthz),
// and its series move as the controller works: reconciles and their
// errors, the work queue, the client's requests, the informer's cache,
// leadership and events.
func TestMetricsServed(t *testing.T) {
	srv, cfg := newNetServer(t)
	var logs logBuffer
	c := newClient(t, cfg)
	m, err := manager.New(c, manager.Options{
		Name: "metered", MetricsAddr: "127.0.0.1:0", HealthAddr: "127.0.0.1:0",
		LeaderElection: &leaderelection.Config{Namespace: "default", Identity: "only"},
		Logger:         slog.New(slog.NewTextHandler(&logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
	var mu sync.Mutex
	seen := map[string]int{}
	reconciled := make(chan string, 100)
	holds := map[string]chan struct{}{"hold-1": make(chan struct{}), "hold-2": make(chan struct{})}
	m.Add(newController(t, "cms", cms, controller.ForObject(cms, func(ctx context.Context, cm *corev1.ConfigMap) (controller.Result, error) {
		mu.Lock()
		seen[cm.Name]++
		n := seen[cm.Name]
		mu.Unlock()
		if cm.Name == "bad" && n == 1 {
			return controller.Result{}, errors.New("bad the first time")
		}
		if _, err := client.For[*corev1.ConfigMap](c).Namespace(cm.Namespace).Get(ctx, cm.Name, client.GetOptions{}); err != nil {
			return controller.Result{}, err // a read through the client, for rest_client_requests_total
		}
		m.Events().Eventf(cm, nil, events.Normal, "Seen", "Reconcile", "seen")
		reconciled <- cm.Name
		if hold, ok := holds[cm.Name]; ok {
			select { // a barrier: see waitRecorded
			case <-hold:
			case <-ctx.Done():
			}
		}
		return controller.Result{}, nil
	}), controller.Options{Queue: fastQueue}))
	// waitRecorded returns once every reconcile before it has recorded
	// its metrics: the one worker records a reconcile's metrics after the
	// reconciler returns (after it told the test), and before it takes
	// the next key, so a reconcile of a barrier object that holds the
	// worker until release is closed marks the point.
	waitRecorded := func(barrier string) (release func()) {
		t.Helper()
		if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: barrier}}); err != nil {
			t.Fatal(err)
		}
		if got := <-reconciled; got != barrier {
			t.Fatalf("reconciled %q, want the barrier %q", got, barrier)
		}
		return func() { close(holds[barrier]) }
	}
	if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "a"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	}()
	<-reconciled // a: the replica leads, the endpoints listen
	release := waitRecorded("hold-1")
	url := "http://" + m.MetricsAddr() + "/metrics"
	before := scrape(t, url)
	release()
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"controller_runtime_reconcile_total", []string{"controller", "cms", "result", "success"}, 1},
		{"controller_runtime_reconcile_total", []string{"controller", "cms", "result", "requeue"}, 0}, // exists at zero
		{"controller_runtime_reconcile_errors_total", []string{"controller", "cms"}, 0},
		{"leader_election_master_status", []string{"name", "metered"}, 1},
		{"kubewire_informer_objects", []string{"resource", "configmaps", "namespace", "default"}, 2}, // a and the barrier
	} {
		if got := sample(before, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v after the first reconcile, want %v", c.name, c.labels, got, c.want)
		}
	}

	for _, name := range []string{"b", "bad"} {
		if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name}}); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		<-reconciled
	}
	release = waitRecorded("hold-2")
	after := scrape(t, url)
	release()
	for _, c := range []struct {
		name   string
		labels []string
		min    float64
	}{
		{"controller_runtime_reconcile_total", []string{"controller", "cms", "result", "success"}, 3},
		{"controller_runtime_reconcile_total", []string{"controller", "cms", "result", "error"}, 1},
		{"controller_runtime_reconcile_errors_total", []string{"controller", "cms"}, 1},
		{"controller_runtime_reconcile_time_seconds", []string{"controller", "cms"}, 4},
		{"controller_runtime_max_concurrent_reconciles", []string{"controller", "cms"}, 1},
		{"workqueue_adds_total", []string{"name", "cms", "controller", "cms"}, 4},
		{"workqueue_retries_total", []string{"name", "cms", "controller", "cms"}, 1},
		{"workqueue_queue_duration_seconds", []string{"name", "cms"}, 4},
		{"workqueue_work_duration_seconds", []string{"name", "cms"}, 4},
		{"rest_client_requests_total", []string{"method", "GET", "code", "200"}, 2},
		{"rest_client_requests_total", []string{"method", "POST", "code", "201"}, 1}, // events, the Lease
		{"rest_client_request_duration_seconds", []string{"verb", "GET"}, 2},
		{"kubewire_informer_objects", []string{"resource", "configmaps", "namespace", "default"}, 3},
		{"kubewire_informer_synced", []string{"resource", "configmaps", "namespace", "default"}, 1},
		{"kubewire_informer_watch_events_total", []string{"resource", "configmaps", "type", "ADDED"}, 2}, // a was listed
		{"kubewire_informer_lists_total", []string{"resource", "configmaps", "reason", "initial"}, 1},
	} {
		if got := sample(after, c.name, c.labels...); got < c.min {
			t.Errorf("%s%v = %v after the reconciles, want at least %v", c.name, c.labels, got, c.min)
		}
	}
	if got := sample(after, "kubewire_informer_failing", "resource", "configmaps"); got != 0 {
		t.Errorf("kubewire_informer_failing = %v, want 0", got)
	}
	if sample(after, "rest_client_requests_total", "method", "GET", "code", "200") <= sample(before, "rest_client_requests_total", "method", "GET", "code", "200") {
		t.Error("rest_client_requests_total did not move")
	}
	// The health listener serves the same registry.
	beside := scrape(t, "http://"+m.HealthAddr()+"/metrics")
	if got := sample(beside, "controller_runtime_reconcile_errors_total", "controller", "cms"); got < 1 {
		t.Errorf("/metrics beside /healthz: reconcile_errors_total = %v", got)
	}
	// The controller logged its failure through the manager's logger,
	// with the Request and a reconcileID.
	out := logs.String()
	if n := strings.Count(out, "bad the first time"); n != 1 {
		t.Errorf("the failure was logged %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out, "controller=cms namespace=default name=bad reconcileID=") {
		t.Errorf("the failure's log line lacks the controller's fields:\n%s", out)
	}
}

// logBuffer is a log sink safe for concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Without a Logger the manager logs through slog.Default(): a program
// that sets nothing sees a failed Reconcile.
func TestLogsByDefault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, cfg := newServer(t)
		var logs logBuffer
		prev := slog.Default()
		slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
		defer slog.SetDefault(prev)

		c := newClient(t, cfg)
		m, err := manager.New(c, manager.Options{Name: "quiet"})
		if err != nil {
			t.Fatal(err)
		}
		if c.Logger() != slog.Default() {
			t.Error("the client did not inherit the manager's logger")
		}
		cms := informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
		calls := 0
		retried := make(chan struct{})
		m.Add(newController(t, "fails", cms, controller.ReconcilerFunc(func(ctx context.Context, req controller.Request) (controller.Result, error) {
			if calls++; calls == 2 { // the first failure was logged before the retry
				close(retried)
			}
			return controller.Result{}, fmt.Errorf("cannot reconcile %s", req)
		}), controller.Options{Queue: fastQueue}))
		if err := srv.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "x"}}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- m.Run(ctx) }()
		<-retried
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if out := logs.String(); !strings.Contains(out, "level=ERROR") || !strings.Contains(out, "controller=fails") || !strings.Contains(out, "cannot reconcile default/x") {
			t.Errorf("the default logger did not get the failure at Error with the controller:\n%s", out)
		}
	})
}

// A cache the server refuses ends Run with the refusal once, not once
// per place that knows of it; the log says it once too.
func TestRefusedCacheReportedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, cfg := newServer(t)
		srv.Faults().Add(fake.Fault{Match: fake.Match{Verbs: []string{"list", "watch"}, Resource: "secrets"}, Code: http.StatusForbidden,
			Message: `secrets is forbidden: User "system:serviceaccount:ops:operator" cannot list resource "secrets" in API group "" at the cluster scope`})
		var logs logBuffer
		m, err := manager.New(newClient(t, cfg), manager.Options{Name: "refused", Logger: slog.New(slog.NewTextHandler(&logs, nil))})
		if err != nil {
			t.Fatal(err)
		}
		secrets := informer.Shared[*corev1.Secret](m.Factory(), informer.Scope{})
		m.Add(newController(t, "secrets", secrets, controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
			return controller.Result{}, nil
		}), controller.Options{}))
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		err = m.Run(ctx)
		if !errors.Is(err, client.ErrForbidden) {
			t.Fatalf("Run = %v, want the refusal", err)
		}
		if n := strings.Count(err.Error(), "cannot list resource"); n != 1 {
			t.Errorf("Run's error tells the refusal %d times, want once:\n%v", n, err)
		}
		t.Logf("Run = %v\nlogs:\n%s", err, logs.String())
	})
}
