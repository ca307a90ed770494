package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	shapesac "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1/applyconfig"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/informer"
)

// exchange is one request and its answer as a cborOps test sees them.
type exchange struct {
	method, path, query, sent, accept string
	code                              int
	got                               string
}

func (e exchange) String() string {
	return fmt.Sprintf("%s %s?%s [body %s, accept %q] -> %d %s", e.method, e.path, e.query, e.sent, e.accept, e.code, e.got)
}

// exchangeLog records every exchange of a client.
type exchangeLog struct {
	next http.RoundTripper
	mu   sync.Mutex
	log  []exchange
}

func (l *exchangeLog) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := l.next.RoundTrip(r)
	e := exchange{method: r.Method, path: r.URL.Path, query: r.URL.RawQuery, sent: r.Header.Get("Content-Type"), accept: r.Header.Get("Accept")}
	if err == nil {
		e.code, e.got = resp.StatusCode, resp.Header.Get("Content-Type")
	}
	l.mu.Lock()
	l.log = append(l.log, e)
	l.mu.Unlock()
	return resp, err
}

// since returns the exchanges after the first n.
func (l *exchangeLog) since(n int) []exchange {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]exchange(nil), l.log[n:]...)
}

func (l *exchangeLog) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.log)
}

// Every operation a client has on a custom resource, against
// kube-apiserver v1.36.3 with CBORServingAndStorage on and off: with the
// gate, answers come as CBOR and, once the resource answered CBOR,
// creates and updates (status and scale included) are sent as CBOR;
// without it, every exchange is JSON, one request per operation (no
// refusal, no retry); applies go as apply-patch+cbor with the gate.
// Other patches stay JSON, tables and metadata reads JSON; errors are
// the API errors.
func TestCBOREveryOperation(t *testing.T) {
	eachCBORGate(t, "cbor-ops-", cborEveryOperation)
}

// eachCBORGate runs run on a cluster of its own with the
// CBORServingAndStorage gate on, then on one without it; the clusters
// are named prefix plus gate-on or gate-off.
func eachCBORGate(t *testing.T, prefix string, run func(t *testing.T, cluster *harness.Cluster, gate bool)) {
	for _, gate := range []bool{true, false} {
		name := map[bool]string{true: "gate-on", false: "gate-off"}[gate]
		t.Run(name, func(t *testing.T) {
			opts := harness.Options{Name: prefix + name}
			if gate {
				opts.FeatureGates = []string{"CBORServingAndStorage=true"}
			}
			run(t, harness.StartForTest(t, opts), gate)
		})
	}
}

func cborEveryOperation(t *testing.T, cluster *harness.Cluster, gate bool) {
	ctx := t.Context()
	const ns = "ops"
	if err := cluster.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{cluster.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	hc, err := cluster.HTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	log := &exchangeLog{next: hc.Transport}
	cfg.Transport = log
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	installShapes(t, c)
	widgets := client.For[*shapesv1.Widget](c).Namespace(ns)
	dynamic := client.Dynamic(c, widgets.GroupVersionResource()).Namespace(ns)

	// want checks the exchanges of one operation: one request each
	// (two for a Create before any answer), every answer in the format
	// the gate says (wantAnswer: "cbor" for CBOR when the gate is on,
	// "json" always JSON), every body sent as bodies says ("cbor" for
	// CBOR when the gate is on, "any" unchecked).
	want := func(op string, from int, requests int, wantAnswer, bodies string) {
		t.Helper()
		ex := log.since(from)
		if len(ex) != requests {
			t.Errorf("%s: %d requests, want %d: %v", op, len(ex), requests, ex)
			return
		}
		for _, e := range ex {
			answer := "application/json"
			if gate && wantAnswer == "cbor" {
				answer = "application/cbor"
			}
			if !strings.HasPrefix(e.got, answer) {
				t.Errorf("%s: %v, want an answer in %s", op, e, answer)
			}
			body := bodies
			if body == "cbor" {
				body = map[bool]string{true: "application/cbor", false: "application/json"}[gate]
			}
			if body != "any" && e.sent != body {
				t.Errorf("%s: %v, want a body of %q", op, e, body)
			}
			if !gate && strings.Contains(e.accept, "cbor") && e.code == http.StatusNotAcceptable {
				t.Errorf("%s: %v: a server without the gate refused CBOR", op, e)
			}
		}
	}

	n := log.len()
	if _, err := widgets.Create(ctx, validWidget("a"), client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// crd.Install read the widgets when it waited for them: the body may
	// be CBOR already.
	want("first create", n, 1, "cbor", "any")
	n = log.len()
	a, err := widgets.Get(ctx, "a", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want("get", n, 1, "cbor", "")

	n = log.len()
	if _, err := widgets.Create(ctx, validWidget("b"), client.CreateOptions{}); err != nil {
		t.Fatalf("create: %v", err)
	}
	want("create", n, 1, "cbor", "cbor")

	n = log.len()
	a.Spec.Color = "blue"
	if a, err = widgets.Update(ctx, a, client.UpdateOptions{}); err != nil || a.Spec.Color != "blue" {
		t.Fatalf("update: %v", err)
	}
	want("update", n, 1, "cbor", "cbor")

	n = log.len()
	stale := a.DeepCopy()
	stale.ResourceVersion = "1"
	if _, err := widgets.Update(ctx, stale, client.UpdateOptions{}); !errors.Is(err, client.ErrConflict) {
		t.Errorf("update at a stale version: %v, want ErrConflict", err)
	}
	want("stale update", n, 1, "cbor", "cbor")

	n = log.len()
	bad := a.DeepCopy()
	bad.Spec.Level = 1000
	if _, err := widgets.Update(ctx, bad, client.UpdateOptions{}); !errors.Is(err, client.ErrInvalid) || !hasCause(err, "spec.level") {
		t.Errorf("invalid update: %v, want ErrInvalid naming spec.level", err)
	}
	want("invalid update", n, 1, "cbor", "cbor")

	n = log.len()
	st := a.DeepCopy()
	st.Status = shapesv1.WidgetStatus{Replicas: 3, Selector: "app=shapes", ObservedGeneration: a.Generation}
	if a, err = widgets.UpdateStatus(ctx, st, client.UpdateOptions{}); err != nil || a.Status.Replicas != 3 {
		t.Fatalf("update status: %+v, %v", a, err)
	}
	want("update status", n, 1, "cbor", "cbor")

	n = log.len()
	sc, err := widgets.GetScale(ctx, "a", client.GetOptions{})
	if err != nil || sc.Spec.Replicas != 3 || sc.Status.Selector != "app=shapes" {
		t.Fatalf("scale %+v, %v", sc, err)
	}
	want("get scale", n, 1, "cbor", "")
	n = log.len()
	sc.Spec.Replicas = 5
	if sc, err = widgets.UpdateScale(ctx, sc, client.UpdateOptions{}); err != nil || sc.Spec.Replicas != 5 {
		t.Fatalf("update scale %+v, %v", sc, err)
	}
	want("update scale", n, 1, "cbor", "cbor")

	n = log.len()
	if a, err = widgets.Patch(ctx, "a", client.MergePatch, []byte(`{"spec":{"color":"green"}}`), client.PatchOptions{}); err != nil || a.Spec.Color != "green" || *a.Spec.Replicas != 5 {
		t.Fatalf("merge patch: %+v, %v", a, err)
	}
	if a, err = widgets.Patch(ctx, "a", client.JSONPatch, []byte(`[{"op":"replace","path":"/spec/shade","value":"light"}]`), client.PatchOptions{}); err != nil || a.Spec.Shade != "light" {
		t.Fatalf("json patch: %+v, %v", a, err)
	}
	if _, err = widgets.Status().Patch(ctx, "a", client.MergePatch, []byte(`{"status":{"replicas":4}}`), client.PatchOptions{}); err != nil {
		t.Fatalf("status patch: %v", err)
	}
	ex := log.since(n)
	if len(ex) != 3 || ex[0].sent != "application/merge-patch+json" || ex[1].sent != "application/json-patch+json" {
		t.Errorf("patches: %v", ex)
	}

	n = log.len()
	ap, err := widgets.Apply(ctx, shapesac.Widget("c", ns).WithSpec(shapesac.WidgetSpec().WithName("c").WithColor("red").WithReplicas(2)),
		client.ApplyOptions{FieldManager: "ops"})
	if err != nil || ap.Spec.Color != "red" {
		t.Fatalf("apply: %+v, %v", ap, err)
	}
	if _, err := widgets.ApplyStatus(ctx, shapesac.Widget("c", ns).WithStatus(shapesac.WidgetStatus().WithReplicas(2)),
		client.ApplyOptions{FieldManager: "ops"}); err != nil {
		t.Fatalf("apply status: %v", err)
	}
	applyType := map[bool]string{true: "application/apply-patch+cbor", false: "application/apply-patch+yaml"}[gate]
	if ex := log.since(n); len(ex) != 2 || ex[0].sent != applyType {
		t.Errorf("applies: %v", ex)
	}
	want("apply", n, 2, "cbor", applyType)

	// Reads: dynamic, list, table, metadata-only.
	n = log.len()
	u, err := dynamic.Get(ctx, "a", client.GetOptions{})
	if err != nil || u.GetName() != "a" {
		t.Fatalf("dynamic get: %v", err)
	}
	l, err := widgets.List(ctx, client.ListOptions{Limit: 2})
	if err != nil || len(l.Items) != 2 || l.Continue == "" {
		t.Fatalf("list: %v", err)
	}
	l2, err := widgets.List(ctx, client.ListOptions{Limit: 2, Continue: l.Continue})
	if err != nil || len(l2.Items) != 1 {
		t.Fatalf("second page: %v", err)
	}
	want("dynamic get and paged list", n, 3, "cbor", "")
	n = log.len()
	tab, err := widgets.ListTable(ctx, client.ListOptions{})
	if err != nil || len(tab.Rows) != 3 {
		t.Fatalf("table: %+v, %v", tab, err)
	}
	want("table", n, 1, "json", "")

	// A dynamic update: its CBOR body is written straight from the maps.
	n = log.len()
	if err := unstructured.SetNestedField(u.Object, "gr\u00fcn", "spec", "color"); err != nil {
		t.Fatal(err)
	}
	labels := u.GetLabels()
	labels["written"] = "dynamic"
	u.SetLabels(labels)
	if u, err = dynamic.Update(ctx, u, client.UpdateOptions{}); err != nil {
		t.Fatalf("dynamic update: %v", err)
	}
	want("dynamic update", n, 1, "cbor", "cbor")
	if back, err := widgets.Get(ctx, "a", client.GetOptions{}); err != nil || back.Spec.Color != "gr\u00fcn" || back.Labels["written"] != "dynamic" {
		t.Errorf("after a dynamic CBOR update: color %q, labels %v, %v", back.Spec.Color, back.Labels, err)
	}

	// Watch with initial events and their bookmark.
	n = log.len()
	yes := true
	w, err := widgets.Watch(ctx, client.WatchOptions{SendInitialEvents: &yes, AllowWatchBookmarks: true,
		ResourceVersionMatch: client.MatchNotOlderThan})
	if err != nil {
		t.Fatal(err)
	}
	added := map[string]bool{}
	for {
		ev, err := w.Next()
		if err != nil {
			t.Fatalf("watch-list: %v", err)
		}
		if ev.Type == client.Added {
			added[ev.Object.Name] = true
		}
		if ev.InitialEventsEnd {
			break
		}
	}
	if len(added) != 3 {
		t.Errorf("initial events of %v", added)
	}
	if _, err := widgets.Patch(ctx, "b", client.MergePatch, []byte(`{"spec":{"color":"blue"}}`), client.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	for {
		ev, err := w.Next()
		if err != nil {
			t.Fatalf("watch: %v", err)
		}
		if ev.Type == client.Modified && ev.Object.Name == "b" && ev.Object.Spec.Color == "blue" {
			break
		}
	}
	w.Close()
	if ex := log.since(n); len(ex) < 1 || !strings.HasPrefix(ex[0].got, map[bool]string{true: "application/cbor-seq", false: "application/json"}[gate]) {
		t.Errorf("watch: %v", ex)
	}

	// An informer (list-then-watch, the default) syncs with one unpaged
	// list, streamed in the gate's format, and a watch: no answer
	// thrown away, no pages.
	n = log.len()
	inf, err := informer.New(widgets, informer.Options[*shapesv1.Widget]{})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- inf.Run(runCtx) }()
	if err := inf.WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	if inf.Store().Len() != 3 {
		t.Errorf("informer synced %d widgets, want 3", inf.Store().Len())
	}
	stop()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run = %v", err)
	}
	if ex := log.since(n); len(ex) != 2 || strings.Contains(ex[0].query, "limit") || !strings.Contains(ex[1].query, "watch") ||
		!strings.HasPrefix(ex[0].got, map[bool]string{true: "application/cbor", false: "application/json"}[gate]) {
		t.Errorf("informer sync: %v, want one unpaged list and a watch", ex)
	}

	// Deletes: with preconditions (a wrong uid is a conflict), a
	// collection by label.
	n = log.len()
	uid := ap.UID
	if err := widgets.Delete(ctx, "c", client.DeleteOptions{Preconditions: &client.Preconditions{UID: string(a.UID)}}); !errors.Is(err, client.ErrConflict) {
		t.Errorf("delete with another object's uid: %v, want ErrConflict", err)
	}
	if err := widgets.Delete(ctx, "c", client.DeleteOptions{Preconditions: &client.Preconditions{UID: string(uid)}, PropagationPolicy: client.PropagationForeground}); err != nil {
		t.Errorf("delete: %v", err)
	}
	if err := widgets.DeleteCollection(ctx, client.DeleteCollectionOptions{LabelSelector: client.MatchLabels(map[string]string{"app": "shapes"})}); err != nil {
		t.Errorf("delete collection: %v", err)
	}
	want("deletes", n, 3, "cbor", "application/json")
	if _, err := widgets.Get(ctx, "a", client.GetOptions{}); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("get after delete collection: %v", err)
	}
}
