package fake

import (
	"slices"
	"testing"
)

// Every request to a deprecated version of a custom resource is
// answered with its deprecation warning, a refusal as well as a write,
// as kube-apiserver v1.36.3's CRD handler adds it before it serves the
// request: the CRD's deprecationWarning, or "GROUP/VERSION KIND is
// deprecated; use GROUP/V KIND" naming the served, not deprecated
// version of highest priority above it. Found by TestGeneratedSequences
// seeds 6000 on: the fake sent no warning.
func TestDeprecatedCustomResourceVersionWarns(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"shapes.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"shapes","kind":"Shape"},"versions":[
{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
{"name":"v2alpha1","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
{"name":"v1beta2","served":true,"storage":false,"deprecated":true,"subresources":{"status":{}},"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
{"name":"v1beta1","served":true,"storage":false,"deprecated":true,"deprecationWarning":"v1beta1 goes away","schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}},
{"name":"v1alpha1","served":true,"storage":false,"deprecated":true,"deprecationWarning":"","schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`)
	for _, tc := range []struct {
		method, path, body string
		code               int
		warnings           []string
	}{
		{"GET", "/apis/example.com/v1beta2/namespaces/default/shapes/missing", "", 404, []string{`299 - "example.com/v1beta2 Shape is deprecated; use example.com/v1 Shape"`}},
		{"POST", "/apis/example.com/v1beta2/namespaces/default/shapes", `{"apiVersion":"example.com/v1beta2","kind":"Shape","metadata":{"name":"s"}}`, 201, []string{`299 - "example.com/v1beta2 Shape is deprecated; use example.com/v1 Shape"`}},
		{"GET", "/apis/example.com/v1beta2/namespaces/default/shapes/s/status", "", 200, []string{`299 - "example.com/v1beta2 Shape is deprecated; use example.com/v1 Shape"`}},
		{"GET", "/apis/example.com/v1beta2/shapes", "", 200, []string{`299 - "example.com/v1beta2 Shape is deprecated; use example.com/v1 Shape"`}},
		{"GET", "/apis/example.com/v1beta1/namespaces/default/shapes/s", "", 200, []string{`299 - "v1beta1 goes away"`}},
		{"GET", "/apis/example.com/v1alpha1/namespaces/default/shapes/s", "", 200, nil},
		{"GET", "/apis/example.com/v1/namespaces/default/shapes/s", "", 200, nil},
		{"GET", "/apis/example.com/v2alpha1/namespaces/default/shapes/s", "", 200, nil},
	} {
		resp, body := c.do(tc.method, tc.path, "application/json", tc.body)
		if resp.StatusCode != tc.code {
			t.Errorf("%s %s: %d %s, want %d", tc.method, tc.path, resp.StatusCode, body, tc.code)
		}
		if got := resp.Header.Values("Warning"); !slices.Equal(got, tc.warnings) {
			t.Errorf("%s %s: warnings %q, want %q", tc.method, tc.path, got, tc.warnings)
		}
	}
}
