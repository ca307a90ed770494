package metrics_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/events"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/metrics"
	"github.com/kubewire/kubewire/reflector"
	"github.com/kubewire/kubewire/sharding"
	"github.com/kubewire/kubewire/workqueue"
)

// gather returns the registry's families by name.
func gather(t *testing.T, m *metrics.Metrics) map[string]*dto.MetricFamily {
	t.Helper()
	fams, err := m.Registry().Gather()
	if err != nil {
		t.Fatalf("Gather: %v", err)
	}
	out := map[string]*dto.MetricFamily{}
	for _, f := range fams {
		out[f.GetName()] = f
	}
	return out
}

// value returns the value of the series of family name whose labels
// include want (name=value pairs), and whether there is one.
func value(fams map[string]*dto.MetricFamily, name string, want ...string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
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
			return s.GetCounter().GetValue(), true
		case s.Gauge != nil:
			return s.GetGauge().GetValue(), true
		case s.Histogram != nil:
			return float64(s.GetHistogram().GetSampleCount()), true
		}
	}
	return 0, false
}

func expect(t *testing.T, fams map[string]*dto.MetricFamily, want float64, name string, labels ...string) {
	t.Helper()
	got, ok := value(fams, name, labels...)
	if !ok {
		t.Errorf("no series %s%v", name, labels)
	} else if got != want {
		t.Errorf("%s%v = %v, want %v", name, labels, got, want)
	}
}

type stats struct {
	name string
	s    controller.Stats
}

func (s stats) Name() string            { return s.name }
func (s stats) Stats() controller.Stats { return s.s }

type leader bool

func (l leader) IsLeader() bool { return bool(l) }

type member sharding.Status

func (m member) Status() sharding.Status { return sharding.Status(m) }

type recorder events.Stats

func (r recorder) Stats() events.Stats { return events.Stats(r) }

type cache struct {
	n      int
	synced bool
	err    error
}

func (c cache) Len() int                { return c.n }
func (c cache) HasSynced() bool         { return c.synced }
func (c cache) Err() error              { return c.err }
func (c cache) ResourceVersion() string { return "1" }

// Every hook moves its series, with controller-runtime's and client-go's
// labels and kubewire's own.
func TestHooks(t *testing.T) {
	m := metrics.New()
	// client
	cm := m.Client()
	cm.Request("10.0.0.1:6443", "GET", 200, 10*time.Millisecond)
	cm.Request("10.0.0.1:6443", "GET", 200, 10*time.Millisecond)
	cm.Request("10.0.0.1:6443", "PUT", 409, time.Millisecond)
	cm.Request("10.0.0.1:6443", "GET", 0, time.Second)
	// controller
	ctl := m.Controllers()
	if err := m.AddController(stats{"widgets", controller.Stats{Workers: 4, Active: 2, Unfinished: 3 * time.Second, Longest: 2 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	if err := m.AddController(stats{name: "widgets"}); err == nil {
		t.Error("a second controller named widgets was accepted")
	}
	ctl.Reconciled("widgets", controller.Success, time.Millisecond)
	ctl.Reconciled("widgets", controller.Success, time.Millisecond)
	ctl.Reconciled("widgets", controller.Requeue, time.Millisecond)
	ctl.Reconciled("widgets", controller.Error, time.Millisecond)
	ctl.Reconciled("widgets", controller.Panic, time.Millisecond)
	ctl.Reconciled("widgets", controller.Terminal, time.Millisecond)
	q := m.Queue("widgets")
	q.Add()
	q.Add()
	q.Depth(1)
	q.QueueLatency(time.Millisecond)
	q.WorkDuration(time.Millisecond)
	q.Retry()
	// informer
	rm := m.Informers().Informer(client.GroupVersionResource{Group: "operator.kubewire.dev", Version: "v1", Resource: "widgets"},
		informer.Scope{Namespace: "shop"}, cache{n: 7, synced: true, err: errors.New("forbidden")})
	rm.ListStarted(reflector.WatchListing, reflector.ReasonInitial)
	rm.ListDone(reflector.WatchListing, 7, time.Second, nil)
	rm.ListStarted(reflector.Listing, reflector.ReasonExpired)
	rm.WatchEvent(client.Added)
	rm.WatchEvent(client.Bookmark)
	rm.WatchEnded(time.Minute, 2, errors.New("EOF"))
	// the same resource and scope again: gauges add up
	m.Informers().Informer(client.GroupVersionResource{Group: "operator.kubewire.dev", Version: "v1", Resource: "widgets"},
		informer.Scope{Namespace: "shop"}, cache{n: 3})
	// leader election, sharding, events
	if err := m.AddLeaderElection("widget-operator", leader(true)); err != nil {
		t.Fatal(err)
	}
	if err := m.AddShardingMember("widgets", member{Joined: true, Members: []string{"a", "b", "c"}, Assigned: 3, Claimed: 3, Acting: 2}); err != nil {
		t.Fatal(err)
	}
	if err := m.AddRecorder("widget-operator", recorder{Created: 5, Dropped: 2, Failed: 1}); err != nil {
		t.Fatal(err)
	}
	// a webhook server's reviews
	wh := m.Webhooks()
	wh.WebhookServing("/validate")
	wh.WebhookStarted("/validate")
	wh.WebhookStarted("/validate")
	wh.WebhookFinished("/validate", 403, time.Millisecond)

	f := gather(t, m)
	expect(t, f, 0, "controller_runtime_webhook_requests_total", "webhook", "/validate", "code", "200")
	expect(t, f, 0, "controller_runtime_webhook_requests_total", "webhook", "/validate", "code", "500")
	expect(t, f, 1, "controller_runtime_webhook_requests_total", "webhook", "/validate", "code", "403")
	expect(t, f, 1, "controller_runtime_webhook_latency_seconds", "webhook", "/validate", "code", "403")
	expect(t, f, 1, "controller_runtime_webhook_requests_in_flight", "webhook", "/validate")
	const host = "10.0.0.1:6443"
	expect(t, f, 2, "rest_client_requests_total", "code", "200", "method", "GET", "host", host)
	expect(t, f, 1, "rest_client_requests_total", "code", "409", "method", "PUT", "host", host)
	expect(t, f, 1, "rest_client_requests_total", "code", "<error>", "method", "GET", "host", host)
	expect(t, f, 3, "rest_client_request_duration_seconds", "verb", "GET", "host", host)

	expect(t, f, 2, "controller_runtime_reconcile_total", "controller", "widgets", "result", "success")
	expect(t, f, 1, "controller_runtime_reconcile_total", "controller", "widgets", "result", "requeue_after")
	expect(t, f, 0, "controller_runtime_reconcile_total", "controller", "widgets", "result", "requeue")
	// A terminal error is an error too, as controller-runtime counts it.
	expect(t, f, 3, "controller_runtime_reconcile_total", "controller", "widgets", "result", "error")
	expect(t, f, 3, "controller_runtime_reconcile_errors_total", "controller", "widgets")
	expect(t, f, 1, "controller_runtime_reconcile_panics_total", "controller", "widgets")
	expect(t, f, 1, "controller_runtime_terminal_reconcile_errors_total", "controller", "widgets")
	expect(t, f, 6, "controller_runtime_reconcile_time_seconds", "controller", "widgets")
	expect(t, f, 4, "controller_runtime_max_concurrent_reconciles", "controller", "widgets")
	expect(t, f, 2, "controller_runtime_active_workers", "controller", "widgets")

	expect(t, f, 1, "workqueue_depth", "name", "widgets", "controller", "widgets", "priority", "")
	expect(t, f, 2, "workqueue_adds_total", "name", "widgets", "controller", "widgets")
	expect(t, f, 1, "workqueue_retries_total", "name", "widgets", "controller", "widgets")
	expect(t, f, 1, "workqueue_queue_duration_seconds", "name", "widgets", "controller", "widgets")
	expect(t, f, 1, "workqueue_work_duration_seconds", "name", "widgets", "controller", "widgets")
	expect(t, f, 3, "workqueue_unfinished_work_seconds", "name", "widgets", "controller", "widgets")
	expect(t, f, 2, "workqueue_longest_running_processor_seconds", "name", "widgets", "controller", "widgets")

	w := []string{"resource", "widgets.operator.kubewire.dev", "namespace", "shop", "label_selector", "", "field_selector", ""}
	expect(t, f, 10, "kubewire_informer_objects", w...)
	expect(t, f, 0, "kubewire_informer_synced", w...) // the second has not synced
	expect(t, f, 1, "kubewire_informer_failing", w...)
	expect(t, f, 1, "kubewire_informer_lists_total", append(w, "reason", "initial")...)
	expect(t, f, 1, "kubewire_informer_lists_total", append(w, "reason", "expired")...)
	expect(t, f, 1, "kubewire_informer_list_duration_seconds", w...)
	expect(t, f, 1, "kubewire_informer_watch_events_total", append(w, "type", "ADDED")...)
	expect(t, f, 1, "kubewire_informer_watch_events_total", append(w, "type", "BOOKMARK")...)
	expect(t, f, 0, "kubewire_informer_watch_events_total", append(w, "type", "DELETED")...)
	expect(t, f, 1, "kubewire_informer_watch_restarts_total", w...)
	if age, ok := value(f, "kubewire_informer_resource_version_age_seconds", w...); !ok || age < 0 || age > 60 {
		t.Errorf("resource version age = %v (%v), want a few seconds at most", age, ok)
	}

	expect(t, f, 1, "leader_election_master_status", "name", "widget-operator")
	expect(t, f, 3, "kubewire_sharding_slots", "ring", "widgets", "state", "assigned")
	expect(t, f, 2, "kubewire_sharding_slots", "ring", "widgets", "state", "acting")
	expect(t, f, 3, "kubewire_sharding_members", "ring", "widgets")
	expect(t, f, 1, "kubewire_sharding_joined", "ring", "widgets")
	expect(t, f, 5, "kubewire_events_total", "component", "widget-operator", "result", "created")
	expect(t, f, 1, "kubewire_events_total", "component", "widget-operator", "result", "failed")
	expect(t, f, 2, "kubewire_events_dropped_total", "component", "widget-operator")

	if _, ok := f["go_goroutines"]; !ok {
		t.Error("no Go runtime series")
	}

	// Every series the package documentation lists exists, and every
	// series of the registry is documented.
	documented := documentedSeries(t)
	for _, name := range documented {
		if _, ok := f[name]; !ok {
			t.Errorf("documented series %s is not in the registry", name)
		}
	}
	for name := range f {
		if !slices.Contains(documented, name) && !strings.HasPrefix(name, "go_") && !strings.HasPrefix(name, "process_") {
			t.Errorf("series %s is not in the package documentation", name)
		}
	}
}

// documentedSeries reads the series names listed in doc.go.
func documentedSeries(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := regexp.MustCompile(`^//\t((?:controller_runtime|workqueue|rest_client|leader_election|certwatcher|kubewire)_[a-z_]+)`)
	var names []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := line.FindStringSubmatch(sc.Text()); m != nil {
			names = append(names, m[1])
		}
	}
	if len(names) < 30 {
		t.Fatalf("found %d series in doc.go: %v", len(names), names)
	}
	return names
}

// TestQueueDepthReadWhenScraped: a queue made with Queue's metrics is
// not told to publish its depth on each change; the workqueue_depth
// series reads it at each scrape, the keys waiting to be handed out.
func TestQueueDepthReadWhenScraped(t *testing.T) {
	m := metrics.New()
	q, err := workqueue.New[string](workqueue.Options{Metrics: m.Queue("widgets")})
	if err != nil {
		t.Fatal(err)
	}
	depth := []string{"name", "widgets", "controller", "widgets", "priority", ""}
	expect(t, gather(t, m), 0, "workqueue_depth", depth...)
	for _, k := range []string{"a", "b", "c", "a"} {
		q.Add(k)
	}
	f := gather(t, m)
	expect(t, f, 3, "workqueue_depth", depth...)
	expect(t, f, 3, "workqueue_adds_total", "name", "widgets", "controller", "widgets")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	k, err := q.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	expect(t, gather(t, m), 2, "workqueue_depth", depth...)
	q.Done(k)
	for range 2 {
		k, err := q.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		q.Done(k)
	}
	f = gather(t, m)
	expect(t, f, 0, "workqueue_depth", depth...)
	expect(t, f, 3, "workqueue_queue_duration_seconds", "name", "widgets", "controller", "widgets")
	expect(t, f, 3, "workqueue_work_duration_seconds", "name", "widgets", "controller", "widgets")
}

// controller-runtime's certwatcher series count the reads of a webhook
// server's certificate files and their failures; a program without a
// webhook server shows neither.
func TestCertificateReads(t *testing.T) {
	m := metrics.New()
	if _, ok := gather(t, m)["certwatcher_read_certificate_total"]; ok {
		t.Error("certwatcher series shown before any webhook server reported")
	}
	wh := m.Webhooks()
	wh.WebhookCertificateRead(nil)
	wh.WebhookCertificateRead(errors.New("tls: private key does not match public key"))
	wh.WebhookCertificateRead(nil)
	f := gather(t, m)
	expect(t, f, 3, "certwatcher_read_certificate_total")
	expect(t, f, 1, "certwatcher_read_certificate_errors_total")
	if typ := f["certwatcher_read_certificate_errors_total"].GetType(); typ != dto.MetricType_COUNTER {
		t.Errorf("certwatcher_read_certificate_errors_total is a %v, want a counter", typ)
	}
}
