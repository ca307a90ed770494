package e2e

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/internal/testing/chaos"
)

// mediaLog records the Content-Type of each request body and answer.
type mediaLog struct {
	next http.RoundTripper
	mu   sync.Mutex
	sent map[string]int // request Content-Type → count
	got  map[string]int // answer Content-Type → count
}

func (m *mediaLog) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := m.next.RoundTrip(r)
	m.mu.Lock()
	defer m.mu.Unlock()
	if ct := r.Header.Get("Content-Type"); ct != "" {
		m.sent[ct]++
	}
	if err == nil {
		m.got[resp.Header.Get("Content-Type")]++
	}
	return resp, err
}

func (m *mediaLog) counts() (sent, got map[string]int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return copyCounts(m.sent), copyCounts(m.got)
}

func copyCounts(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// cborClients returns a client that offers CBOR (its requests logged)
// and one that keeps JSON, for the same cluster.
func cborClients(t *testing.T, c *harness.Cluster) (cb *client.Client, log *mediaLog, js *client.Client) {
	t.Helper()
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{c.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	jcfg := cfg
	jcfg.DisableCBOR = true
	if js, err = client.New(jcfg); err != nil {
		t.Fatal(err)
	}
	hc, err := c.HTTPClient()
	if err != nil {
		t.Fatal(err)
	}
	log = &mediaLog{next: hc.Transport, sent: map[string]int{}, got: map[string]int{}}
	cfg.Transport = log
	if cb, err = client.New(cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cb.CloseIdleConnections)
	t.Cleanup(js.CloseIdleConnections)
	return cb, log, js
}

// On kube-apiserver v1.36.3 with CBORServingAndStorage, custom resources
// travel as CBOR: typed and dynamic reads, lists, watches (an informer's
// sync and changes) and writes; what they read equals what a JSON client
// reads of the same objects; a 404 is ErrNotFound.
func TestCBORCustomResources(t *testing.T) {
	cluster := harness.StartForTest(t, harness.Options{Name: "cbor", FeatureGates: []string{"CBORServingAndStorage=true"}})
	ctx := t.Context()
	const ns = "cbor"
	if err := cluster.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	cb, log, js := cborClients(t, cluster)
	installShapes(t, js)
	typed := client.For[*shapesv1.Widget](cb).Namespace(ns)
	typedJSON := client.For[*shapesv1.Widget](js).Namespace(ns)
	gvr := client.GroupVersionResource{Group: "shapes.kubewire.dev", Version: "v1", Resource: "widgets"}

	for i := range 20 {
		w := validWidget(fmt.Sprintf("w-%02d", i))
		if _, err := typedJSON.Create(ctx, w, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ignore := cmpopts.IgnoreUnexported(shapesv1.WidgetSpec{})
	got, err := typed.Get(ctx, "w-03", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := typedJSON.Get(ctx, "w-03", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, ignore); d != "" {
		t.Errorf("typed Get over CBOR differs from JSON (-json +cbor):\n%s", d)
	}
	l, err := typed.List(ctx, client.ListOptions{Limit: 7})
	if err != nil || len(l.Items) != 7 || l.Continue == "" {
		t.Fatalf("typed List: %v, %v", l, err)
	}
	dl, err := client.Dynamic(cb, gvr).Namespace(ns).List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	djl, err := client.Dynamic(js, gvr).Namespace(ns).List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(numbersAsFloats(djl.Items), numbersAsFloats(dl.Items)); d != "" {
		t.Errorf("dynamic List over CBOR differs from JSON (-json +cbor):\n%s", d)
	}
	if _, err := typed.Get(ctx, "missing", client.GetOptions{}); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("Get of a missing object: %v, want ErrNotFound", err)
	}

	// An informer syncs (watch-list) and follows changes over CBOR; the
	// writes are CBOR now that the resource answered CBOR.
	inf, err := informer.New(typed, informer.Options[*shapesv1.Widget]{})
	if err != nil {
		t.Fatal(err)
	}
	tracker := chaos.NewTracker[*shapesv1.Widget]("handler")
	inf.AddHandler(tracker, informer.HandlerOptions{})
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- inf.Run(runCtx) }()
	defer func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v", err)
		}
	}()
	if err := inf.WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		name := fmt.Sprintf("w-%02d", i)
		w, err := typed.Get(ctx, name, client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.Spec.Color = "blue"
		if _, err := typed.Update(ctx, w, client.UpdateOptions{}); err != nil {
			t.Fatalf("update %s over CBOR: %v", name, err)
		}
	}
	if err := typed.Delete(ctx, "w-19", client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := typed.Create(ctx, validWidget("w-new"), client.CreateOptions{}); err != nil {
		t.Fatalf("create over CBOR: %v", err)
	}
	convergeWidgets(t, typedJSON, inf, tracker.Versions)
	updated, err := typedJSON.Get(ctx, "w-04", client.GetOptions{})
	if err != nil || updated.Spec.Color != "blue" {
		t.Errorf("the CBOR update did not take: %+v, %v", updated, err)
	}
	cached, ok := inf.Store().Get(ns, "w-04")
	if !ok {
		t.Fatal("w-04 not cached")
	}
	if d := cmp.Diff(updated, cached, ignore); d != "" {
		t.Errorf("cached (CBOR watch) differs from a JSON read (-json +cbor):\n%s", d)
	}

	sent, answered := log.counts()
	t.Logf("request bodies %v, answers %v", sent, answered)
	if sent["application/cbor"] < 11 || answered["application/cbor"] < 10 || answered["application/cbor-seq"] < 1 {
		t.Errorf("CBOR was not used: request bodies %v, answers %v", sent, answered)
	}
	if answered["application/json"] > 0 {
		t.Errorf("%d answers in JSON from a server with CBOR", answered["application/json"])
	}
}

// On a kube-apiserver without the gate the same client reads JSON from
// the first request on (no refusal, no retry) and never writes CBOR.
func TestCBORWithoutTheGate(t *testing.T) {
	cluster := harness.StartForTest(t, harness.Options{Name: "no-cbor"})
	ctx := t.Context()
	const ns = "nocbor"
	if err := cluster.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	cb, log, js := cborClients(t, cluster)
	installShapes(t, js)
	typed := client.For[*shapesv1.Widget](cb).Namespace(ns)
	if _, err := typed.Create(ctx, validWidget("w"), client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	w, err := typed.Get(ctx, "w", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w.Spec.Color = "green"
	if _, err := typed.Update(ctx, w, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	sent, answered := log.counts()
	if sent["application/cbor"] > 0 || answered["application/cbor"] > 0 || answered["application/json"] != 3 {
		t.Errorf("request bodies %v, answers %v; want JSON only, 3 answers", sent, answered)
	}
}

// numbersAsFloats makes every number a float64: CBOR keeps 2.0 a float
// where JSON's 2 reads back as an integer.
func numbersAsFloats(items []*unstructured.Unstructured) []any {
	var conv func(v any) any
	conv = func(v any) any {
		switch v := v.(type) {
		case int64:
			return float64(v)
		case []any:
			out := make([]any, len(v))
			for i := range v {
				out[i] = conv(v[i])
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(v))
			for k, e := range v {
				out[k] = conv(e)
			}
			return out
		}
		return v
	}
	out := make([]any, len(items))
	for i := range items {
		out[i] = conv(items[i].Object)
	}
	return out
}
