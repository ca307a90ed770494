package client

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	autoscalingv1 "github.com/kubewire/kubewire/api/autoscaling/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

func TestWrites(t *testing.T) {
	ctx := context.Background()
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "fixtures", ResourceVersion: "214"}}
	grace := int64(0)
	tests := []struct {
		name                           string
		call                           func(*Resource[*corev1.Pod]) error
		method, uri, contentType, body string
	}{
		{"create", func(r *Resource[*corev1.Pod]) error {
			_, err := r.Create(ctx, pod, CreateOptions{DryRun: true, FieldManager: "me", FieldValidation: FieldValidationStrict})
			return err
		}, "POST", "/api/v1/namespaces/fixtures/pods?dryRun=All&fieldManager=me&fieldValidation=Strict", "application/vnd.kubernetes.protobuf", ""},
		{"update", func(r *Resource[*corev1.Pod]) error {
			_, err := r.Update(ctx, pod, UpdateOptions{})
			return err
		}, "PUT", "/api/v1/namespaces/fixtures/pods/web-1", "application/vnd.kubernetes.protobuf", ""},
		{"update status", func(r *Resource[*corev1.Pod]) error {
			_, err := r.UpdateStatus(ctx, pod, UpdateOptions{FieldManager: "ctl"})
			return err
		}, "PUT", "/api/v1/namespaces/fixtures/pods/web-1/status?fieldManager=ctl", "application/vnd.kubernetes.protobuf", ""},
		{"json patch", func(r *Resource[*corev1.Pod]) error {
			_, err := r.Namespace("fixtures").Patch(ctx, "web-1", JSONPatch, []byte(`[{"op":"remove","path":"/x"}]`), PatchOptions{})
			return err
		}, "PATCH", "/api/v1/namespaces/fixtures/pods/web-1", "application/json-patch+json", `[{"op":"remove","path":"/x"}]`},
		{"merge patch", func(r *Resource[*corev1.Pod]) error {
			_, err := r.Namespace("fixtures").Patch(ctx, "web-1", MergePatch, []byte(`{}`), PatchOptions{})
			return err
		}, "PATCH", "/api/v1/namespaces/fixtures/pods/web-1", "application/merge-patch+json", `{}`},
		{"strategic patch on status", func(r *Resource[*corev1.Pod]) error {
			_, err := r.Namespace("fixtures").Status().Patch(ctx, "web-1", StrategicMergePatch, []byte(`{}`), PatchOptions{FieldValidation: FieldValidationWarn})
			return err
		}, "PATCH", "/api/v1/namespaces/fixtures/pods/web-1/status?fieldValidation=Warn", "application/strategic-merge-patch+json", `{}`},
		{"apply", func(r *Resource[*corev1.Pod]) error {
			_, err := r.Namespace("fixtures").Patch(ctx, "web-1", ApplyPatch, []byte("metadata: {}"), PatchOptions{FieldManager: "me", Force: true})
			return err
		}, "PATCH", "/api/v1/namespaces/fixtures/pods/web-1?fieldManager=me&force=true", "application/apply-patch+yaml", "metadata: {}"},
		{"delete", func(r *Resource[*corev1.Pod]) error {
			return r.Namespace("fixtures").Delete(ctx, "web-1", DeleteOptions{
				GracePeriodSeconds: &grace, PropagationPolicy: PropagationForeground,
				Preconditions: &Preconditions{UID: "u1", ResourceVersion: "214"}, DryRun: true,
			})
		}, "DELETE", "/api/v1/namespaces/fixtures/pods/web-1", "application/json",
			`{"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1","gracePeriodSeconds":0,"preconditions":{"uid":"u1","resourceVersion":"214"},"propagationPolicy":"Foreground","dryRun":["All"]}`},
		{"delete collection", func(r *Resource[*corev1.Pod]) error {
			return r.Namespace("fixtures").DeleteCollection(ctx, DeleteCollectionOptions{
				LabelSelector: LabelSelector{}.Equals("app", "web"), PropagationPolicy: PropagationBackground,
			})
		}, "DELETE", "/api/v1/namespaces/fixtures/pods?labelSelector=app%3Dweb", "application/json",
			`{"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1","propagationPolicy":"Background"}`},
	}
	fx := load(t, "objects/pods-web-1.json")
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
			if err := tc.call(For[*corev1.Pod](c)); err != nil {
				t.Fatal(err)
			}
			req, body := rec.last(t)
			got := []string{req.Method, req.URL.RequestURI(), req.Header.Get("Content-Type")}
			if diff := cmp.Diff([]string{tc.method, tc.uri, tc.contentType}, got); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
			if tc.body != "" {
				if diff := cmp.Diff(tc.body, string(body)); diff != "" {
					t.Errorf("body (-want +got):\n%s", diff)
				}
			} else {
				var sent corev1.Pod
				if err := codec.Decode(req.Header.Get("Content-Type"), body, &sent); err != nil || sent.Name != "web-1" {
					t.Errorf("body %q does not hold the pod: %v", body, err)
				}
			}
		})
	}
}

func TestCreateWarningGoesToHandler(t *testing.T) {
	fx := load(t, "errors/warn-unknown-field.json")
	var got []Warning
	c, _ := newServerConfig(t, Config{QPS: -1, WarningHandler: WarningHandlerFunc(func(w Warning) { got = append(got, w) })},
		func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "fixtures"}}
	if _, err := For[*corev1.ConfigMap](c).Create(context.Background(), cm, CreateOptions{FieldValidation: FieldValidationWarn}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Warning{{Code: 299, Agent: "-", Text: `unknown field "bogus"`}}, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestScale(t *testing.T) {
	scale := `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web","namespace":"fixtures"},"spec":{"replicas":3},"status":{"replicas":2}}`
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(scale))
	})
	deploys := Dynamic(c, GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}).Namespace("fixtures")
	s, err := deploys.GetScale(context.Background(), "web", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Spec.Replicas != 3 || s.Status.Replicas != 2 {
		t.Errorf("scale = %+v", s)
	}
	s.Spec.Replicas = 5
	if _, err := deploys.UpdateScale(context.Background(), s, UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	req, body := rec.last(t)
	var sent autoscalingv1.Scale
	json.Unmarshal(body, &sent)
	if req.Method != "PUT" || req.URL.Path != "/apis/apps/v1/namespaces/fixtures/deployments/web/scale" || sent.Spec.Replicas != 5 {
		t.Errorf("update scale sent %s %s %s", req.Method, req.URL.Path, body)
	}
}
