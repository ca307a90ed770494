package fake

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestScaleCustomResourceValidation checks that a custom resource's
// scale write to negative replicas is refused with the custom resource's
// validation (its schema, then the scale path's rule), as kube-apiserver
// v1.36.3 answered to the same requests, not with Scale's.
func TestScaleCustomResourceValidation(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"metadata":{"name":"gizmos.gendiff.example.com"},"spec":{"group":"gendiff.example.com","names":{"plural":"gizmos","singular":"gizmo","kind":"Gizmo"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}},"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"replicas":{"type":"integer","minimum":0}}},"status":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"replicas":{"type":"integer"}}}}}}}]}}`)
	const path = "/apis/gendiff.example.com/v1/namespaces/default/gizmos"
	c.mustDo(http.StatusCreated, "POST", path, `{"apiVersion":"gendiff.example.com/v1","kind":"Gizmo","metadata":{"name":"g1"},"spec":{"replicas":1}}`)
	want := map[string]any{
		"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
		"message": `Gizmo.gendiff.example.com "g1" is invalid: [spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0, .spec.replicas: Invalid value: -1: should be a non-negative integer]`,
		"reason":  "Invalid",
		"details": map[string]any{"name": "g1", "group": "gendiff.example.com", "kind": "Gizmo", "causes": []any{
			map[string]any{"reason": "FieldValueInvalid", "message": "Invalid value: -1: spec.replicas in body should be greater than or equal to 0", "field": "spec.replicas"},
			map[string]any{"reason": "FieldValueInvalid", "message": "Invalid value: -1: should be a non-negative integer", "field": ".spec.replicas"},
		}},
		"code": float64(422),
	}
	for _, w := range []struct{ method, contentType, body string }{
		{"PUT", "application/json", `{"metadata":{"name":"g1"},"spec":{"replicas":-1}}`},
		{"PATCH", "application/merge-patch+json", `{"spec":{"replicas":-1}}`},
		{"PATCH", "application/json-patch+json", `[{"op":"replace","path":"/spec/replicas","value":-1}]`},
	} {
		req := c.request(w.method, path+"/g1/scale", "", w.body)
		req.Header.Set("Content-Type", w.contentType)
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s %s: (-want +got)\n%s", w.method, w.contentType, diff)
		}
	}
}
