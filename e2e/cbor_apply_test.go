package e2e

import (
	"net/http"
	"slices"
	"testing"

	"github.com/kubewire/kubewire/api/cborwire"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/kubeconfig"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	shapesac "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1/applyconfig"
	"github.com/kubewire/kubewire/e2e/harness"
)

// Server-side apply in CBOR against kube-apiserver v1.36.3. With
// CBORServingAndStorage, a typed Apply that creates, a typed Apply
// that changes, a dynamic Apply and a Patch of the user's own CBOR all
// go as application/apply-patch+cbor, one request each, are taken, read
// back (through a JSON client) as applied, and managedFields name each
// manager with operation Apply. Without the gate, Apply goes as JSON
// (the reads answered JSON), and a Patch of CBOR is refused once (415)
// and sent again as JSON; the next goes as JSON at once.
func TestCBORApply(t *testing.T) {
	eachCBORGate(t, "cbor-apply-", cborApply)
}

func cborApply(t *testing.T, cluster *harness.Cluster, gate bool) {
	ctx := t.Context()
	const ns = "apply"
	if err := cluster.CreateNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	cfg, err := kubeconfig.Load(kubeconfig.Options{Paths: []string{cluster.Kubeconfig}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS = -1
	jcfg := cfg
	jcfg.DisableCBOR = true
	js, err := client.New(jcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(js.CloseIdleConnections)
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
	installShapes(t, js)
	widgets := client.For[*shapesv1.Widget](c).Namespace(ns)
	dynamic := client.Dynamic(c, widgets.GroupVersionResource()).Namespace(ns)
	readBack := client.For[*shapesv1.Widget](js).Namespace(ns)

	applyType := map[bool]string{true: "application/apply-patch+cbor", false: "application/apply-patch+yaml"}[gate]
	// sent checks that the exchanges since n are one PATCH per body
	// type listed, each answered with code.
	sent := func(op string, n int, code int, types ...string) {
		t.Helper()
		ex := log.since(n)
		var got []string
		for _, e := range ex {
			got = append(got, e.sent)
		}
		if !slices.Equal(got, types) {
			t.Errorf("%s: sent %q, want %q: %v", op, got, types, ex)
			return
		}
		if last := ex[len(ex)-1]; last.code != code {
			t.Errorf("%s: %v, want %d", op, last, code)
		}
	}
	// managedBy checks that the stored widget name has an Apply entry of
	// manager in its managedFields.
	managedBy := func(op, name, manager string) *shapesv1.Widget {
		t.Helper()
		w, err := readBack.Get(ctx, name, client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(w.ManagedFields, func(m metav1.ManagedFieldsEntry) bool {
			return m.Manager == manager && m.Operation == metav1.ManagedFieldsOperationApply
		}) {
			t.Errorf("%s: managedFields %+v name no Apply by %q", op, w.ManagedFields, manager)
		}
		return w
	}

	// A read first: the writes follow what it was answered in.
	if _, err := widgets.List(ctx, client.ListOptions{}); err != nil {
		t.Fatal(err)
	}

	n := log.len()
	created, err := widgets.Apply(ctx, shapesac.Widget("a", ns).WithSpec(shapesac.WidgetSpec().WithName("a").WithColor("red").WithReplicas(2)),
		client.ApplyOptions{FieldManager: "cbor-typed"})
	if err != nil || created.Spec.Color != "red" || created.Spec.Replicas == nil || *created.Spec.Replicas != 2 {
		t.Fatalf("typed apply creating: %+v, %v", created, err)
	}
	sent("typed apply creating", n, http.StatusCreated, applyType)
	if w := managedBy("typed apply creating", "a", "cbor-typed"); w.Spec.Color != "red" || w.Spec.Name != "a" || len(w.ManagedFields) != 1 {
		t.Errorf("created by apply: spec %+v, managedFields %+v", w.Spec, w.ManagedFields)
	}

	n = log.len()
	changed, err := widgets.Apply(ctx, shapesac.Widget("a", ns).WithSpec(shapesac.WidgetSpec().WithName("a").WithColor("blue").WithReplicas(2)),
		client.ApplyOptions{FieldManager: "cbor-typed"})
	if err != nil || changed.Spec.Color != "blue" {
		t.Fatalf("typed apply changing: %+v, %v", changed, err)
	}
	sent("typed apply changing", n, http.StatusOK, applyType)
	if w := managedBy("typed apply changing", "a", "cbor-typed"); w.Spec.Color != "blue" {
		t.Errorf("changed by apply: spec %+v", w.Spec)
	}

	n = log.len()
	if _, err := dynamic.Apply(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "shapes.kubewire.dev/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "a", "labels": map[string]any{"team": "cbor"}},
	}}, client.ApplyOptions{FieldManager: "cbor-dynamic"}); err != nil {
		t.Fatalf("dynamic apply: %v", err)
	}
	sent("dynamic apply", n, http.StatusOK, applyType)
	if w := managedBy("dynamic apply", "a", "cbor-dynamic"); w.Labels["team"] != "cbor" || w.Spec.Color != "blue" {
		t.Errorf("after a dynamic apply of a label: labels %v, spec %+v", w.Labels, w.Spec)
	}

	// The user's own CBOR: taken as it is with the gate; refused once
	// without, then JSON.
	data, err := cborwire.FromJSON([]byte(`{"apiVersion":"shapes.kubewire.dev/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"name":"a","color":"blue","shade":"light"}}`))
	if err != nil {
		t.Fatal(err)
	}
	n = log.len()
	if _, err := widgets.Patch(ctx, "a", client.ApplyCBORPatch, data, client.PatchOptions{FieldManager: "cbor-patcher"}); err != nil {
		t.Fatalf("CBOR apply patch: %v", err)
	}
	if gate {
		sent("CBOR apply patch", n, http.StatusOK, "application/apply-patch+cbor")
	} else {
		sent("CBOR apply patch", n, http.StatusOK, "application/apply-patch+cbor", "application/apply-patch+yaml")
		if ex := log.since(n); ex[0].code != http.StatusUnsupportedMediaType {
			t.Errorf("CBOR apply patch without the gate: %v, want 415 first", ex[0])
		}
	}
	if w := managedBy("CBOR apply patch", "a", "cbor-patcher"); w.Spec.Shade != "light" {
		t.Errorf("after the CBOR apply patch: spec %+v", w.Spec)
	}
	n = log.len()
	data, err = cborwire.FromJSON([]byte(`{"apiVersion":"shapes.kubewire.dev/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"name":"a","color":"blue","shade":"dark"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := widgets.Patch(ctx, "a", client.ApplyCBORPatch, data, client.PatchOptions{FieldManager: "cbor-patcher"}); err != nil {
		t.Fatalf("second CBOR apply patch: %v", err)
	}
	sent("second CBOR apply patch", n, http.StatusOK, applyType)
	if w := managedBy("second CBOR apply patch", "a", "cbor-patcher"); w.Spec.Shade != "dark" {
		t.Errorf("after the second CBOR apply patch: spec %+v", w.Spec)
	}
}
