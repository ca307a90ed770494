package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	appsv1ac "github.com/kubewire/kubewire/api/apps/v1/applyconfig"
	corev1ac "github.com/kubewire/kubewire/api/core/v1/applyconfig"
	metav1ac "github.com/kubewire/kubewire/api/meta/v1/applyconfig"
	"github.com/kubewire/kubewire/api/unstructured"
)

func webDeployment(replicas int32) *appsv1ac.DeploymentApplyConfiguration {
	return appsv1ac.Deployment("web", "default").
		WithLabels(map[string]string{"app": "web"}).
		WithSpec(appsv1ac.DeploymentSpec().
			WithReplicas(replicas).
			WithSelector(metav1ac.LabelSelector().WithMatchLabels(map[string]string{"app": "web"})).
			WithTemplate(corev1ac.PodTemplateSpec().
				WithLabels(map[string]string{"app": "web"}).
				WithSpec(corev1ac.PodSpec().WithContainers(corev1ac.Container().WithName("web").WithImage("web:1")))))
}

// Apply of a built-in kind sends exactly the fields set, with apiVersion
// and kind, as an apply patch; the server records the manager.
func TestApplyBuiltin(t *testing.T) {
	_, c, rec := startFakeWire(t, wireOptions{})
	ctx := context.Background()
	deployments := For[*appsv1.Deployment](c).Namespace("default")

	d, err := deployments.Apply(ctx, webDeployment(2), ApplyOptions{FieldManager: "web-controller"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "web" || d.Spec.Replicas == nil || *d.Spec.Replicas != 2 || d.Spec.Template.Spec.Containers[0].Image != "web:1" {
		t.Errorf("applied %+v", d.Spec)
	}
	if len(d.ManagedFields) == 0 || d.ManagedFields[0].Manager != "web-controller" || d.ManagedFields[0].Operation != "Apply" {
		t.Errorf("managed fields %+v", d.ManagedFields)
	}
	req, body := rec.last(t)
	if req.Method != "PATCH" || req.URL.Path != "/apis/apps/v1/namespaces/default/deployments/web" ||
		req.Header.Get("Content-Type") != string(ApplyPatch) || req.URL.Query().Get("fieldManager") != "web-controller" {
		t.Errorf("request %s %s %s", req.Method, req.URL, req.Header.Get("Content-Type"))
	}
	var sent any
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default", "labels": map[string]any{"app": "web"}},
		"spec": map[string]any{
			"replicas": 2.0,
			"selector": map[string]any{"matchLabels": map[string]any{"app": "web"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "web"}},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "web", "image": "web:1"}}},
			},
		},
	}
	if diff := cmp.Diff(want, sent); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}

	// The fake does not track field ownership, so a second manager does
	// not conflict here (e2e checks kube-apiserver's 409); Force is sent.
	scaler := appsv1ac.Deployment("web", "default").WithSpec(appsv1ac.DeploymentSpec().WithReplicas(5))
	d, err = deployments.Apply(ctx, scaler, ApplyOptions{FieldManager: "autoscaler", Force: true})
	if err != nil || *d.Spec.Replicas != 5 {
		t.Fatalf("forced: %v", err)
	}
	if req, _ := rec.last(t); req.URL.Query().Get("force") != "true" {
		t.Errorf("force not sent: %s", req.URL)
	}
}

func TestApplyUnstructured(t *testing.T) {
	_, c, _ := startFakeWire(t, wireOptions{})
	cms := Dynamic(c, GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings"},
		"data":     map[string]any{"mode": "fast"},
	}}
	got, err := cms.Apply(context.Background(), u, ApplyOptions{FieldManager: "settings-writer"})
	if err != nil {
		t.Fatal(err)
	}
	if mode, _, _ := unstructured.NestedString(got.Object, "data", "mode"); mode != "fast" || got.GetNamespace() != "default" {
		t.Errorf("applied %v", got.Object)
	}
}

func TestApplyInvalid(t *testing.T) {
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { t.Errorf("request sent: %s", r.URL) })
	deployments := For[*appsv1.Deployment](c)
	ctx := context.Background()
	for name, tc := range map[string]struct {
		r   *Resource[*appsv1.Deployment]
		cfg ApplyConfiguration
		o   ApplyOptions
	}{
		"no manager":        {deployments.Namespace("default"), webDeployment(1), ApplyOptions{}},
		"nil":               {deployments, (*appsv1ac.DeploymentApplyConfiguration)(nil), ApplyOptions{FieldManager: "m"}},
		"no name":           {deployments.Namespace("default"), appsv1ac.Deployment("", "default"), ApplyOptions{FieldManager: "m"}},
		"other namespace":   {deployments.Namespace("shop"), webDeployment(1), ApplyOptions{FieldManager: "m"}},
		"namespaced, no ns": {deployments, appsv1ac.Deployment("web", ""), ApplyOptions{FieldManager: "m"}},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := tc.r.Apply(ctx, tc.cfg, tc.o); !errors.Is(err, ErrInvalidOptions) {
				t.Errorf("err = %v, want ErrInvalidOptions", err)
			}
		})
	}
	if n := len(rec.requests()); n != 0 {
		t.Errorf("%d requests", n)
	}
}

// ApplyStatus of a user's kind goes to the status subresource, with
// apiVersion and kind from the kind info.
func TestApplyStatusUserKind(t *testing.T) {
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1","namespace":"shop"}}`))
	})
	cfg := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": "w1", "namespace": "shop"},
		"status":   map[string]any{"ready": true},
	}}
	if _, err := For[*widget](c).ApplyStatus(context.Background(), cfg, ApplyOptions{FieldManager: "widget-controller"}); err != nil {
		t.Fatal(err)
	}
	req, body := rec.last(t)
	if req.URL.Path != "/apis/example.com/v1/namespaces/shop/widgets/w1/status" || req.Header.Get("Accept") != "application/cbor, application/json" {
		t.Errorf("request %s, Accept %s", req.URL, req.Header.Get("Accept"))
	}
	var sent map[string]any
	json.Unmarshal(body, &sent)
	if sent["apiVersion"] != "example.com/v1" || sent["kind"] != "Widget" {
		t.Errorf("body %s", body)
	}
}
