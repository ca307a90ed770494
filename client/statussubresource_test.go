package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/fake"
)

// A status write to a kind whose KindInfo lists no status subresource
// is refused before any request, with an error that names the kind and
// says to use Update, rather than sent for kube-apiserver's misleading
// 404 ('"name" not found' for an object that exists).
func TestStatusWriteWithoutStatusSubresourceRefused(t *testing.T) {
	var requests atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		http.Error(w, "no request expected", http.StatusTeapot)
	}))
	defer ts.Close()
	c, err := New(Config{Host: ts.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: "shop"}}
	cms := For[*corev1.ConfigMap](c)
	_, errUpdate := cms.UpdateStatus(ctx, cm, UpdateOptions{})
	_, errStatusUpdate := cms.Status().Update(ctx, cm, UpdateOptions{})
	_, errPatch := cms.Namespace("shop").Status().Patch(ctx, "settings", MergePatch, []byte(`{"status":{}}`), PatchOptions{})
	for name, err := range map[string]error{"UpdateStatus": errUpdate, "Status().Update": errStatusUpdate, "Status().Patch": errPatch} {
		if !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("%s: %v, want ErrInvalidOptions", name, err)
			continue
		}
		for _, want := range []string{"ConfigMap", "no status subresource", "Update"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not say %q", name, err, want)
			}
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	// A kind with a status subresource is sent: the server answers.
	if _, err := For[*corev1.Pod](c).UpdateStatus(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "shop"}}, UpdateOptions{}); errors.Is(err, ErrInvalidOptions) || requests.Load() == 0 {
		t.Errorf("Pod UpdateStatus: %v after %d requests, want it sent", err, requests.Load())
	}
}

// A hand-written KindInfo that leaves Subresources out says nothing of
// the status: the write is sent (the server may well serve it), and a
// 404 from the status is explained as for a dynamic resource.
func TestStatusWriteOfAKindWithUnknownSubresourcesIsSent(t *testing.T) {
	var requests atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"widgets.example.com \"w\" not found","reason":"NotFound","code":404}`))
	}))
	defer ts.Close()
	c, err := New(Config{Host: ts.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = For[*richWidget](c).UpdateStatus(context.Background(), &richWidget{ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "shop"}}, UpdateOptions{})
	if requests.Load() != 1 || !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "may have no status subresource") {
		t.Errorf("UpdateStatus: %v after %d requests; want one request and a NotFound saying the resource may have no status subresource", err, requests.Load())
	}
}

const noStatusCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"gizmos.status.example.com"},
"spec":{"group":"status.example.com","scope":"Namespaced","names":{"plural":"gizmos","kind":"Gizmo"},
"versions":[{"name":"v1","served":true,"storage":true,
"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`

// A dynamic resource's kind is not known: a status write is sent, and
// the 404 of a resource without a status subresource (the fake answers
// it as kube-apiserver does, for an object that exists) says that the
// resource may have none, while still matching ErrNotFound. A 404 from
// a resource with one is an object that is gone, as sent.
func TestDynamicStatusWriteWithoutStatusSubresource(t *testing.T) {
	_, c := startFake(t, fake.Options{}, Config{})
	ctx := context.Background()
	crds := Dynamic(c, GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	var crd unstructured.Unstructured
	if err := crd.UnmarshalJSON([]byte(noStatusCRD)); err != nil {
		t.Fatal(err)
	}
	if _, err := crds.Create(ctx, &crd, CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	gizmos := Dynamic(c, GroupVersionResource{Group: "status.example.com", Version: "v1", Resource: "gizmos"}).Namespace("default")
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "status.example.com/v1", "kind": "Gizmo",
		"metadata": map[string]any{"name": "g1", "namespace": "default"}, "status": map[string]any{"phase": "new"}}}
	created, err := gizmos.Create(ctx, obj, CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Object["status"] = map[string]any{"phase": "ready"}
	_, errUpdate := gizmos.UpdateStatus(ctx, created, UpdateOptions{})
	_, errPatch := gizmos.Status().Patch(ctx, "g1", MergePatch, []byte(`{"status":{"phase":"ready"}}`), PatchOptions{})
	for name, err := range map[string]error{"UpdateStatus": errUpdate, "Status().Patch": errPatch} {
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "may have no status subresource") {
			t.Errorf("%s of an existing gizmo without a status subresource: %v, want ErrNotFound saying it may have no status subresource", name, err)
		}
		if se, ok := StatusOf(err); !ok || se.Status.Code != http.StatusNotFound {
			t.Errorf("%s: the server's Status is not in the chain: %v", name, err)
		}
	}
	// The object's own Update writes its status.
	updated, err := gizmos.Update(ctx, created, UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := updated.Object["status"].(map[string]any); st["phase"] != "ready" {
		t.Errorf("status after Update: %v", updated.Object["status"])
	}

	// A dynamic resource cannot tell a gone object from a missing
	// subresource: a gone pod's 404 still matches ErrNotFound.
	pods := Dynamic(c, GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("default")
	_, err = pods.Status().Patch(ctx, "gone", MergePatch, []byte(`{"status":{}}`), PatchOptions{})
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("status patch of a gone pod: %v", err)
	}
}
