package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A server-side apply that creates keeps the deletion fields its
// configuration sets (a POST wipes them: TestCreateWipesSystemFields),
// as kube-apiserver v1.36.3 answers (e2e TestFuzzFidelity's reports).
func TestApplyCreateKeepsDeletionFields(t *testing.T) {
	_, c := newTestServer(t, Options{})
	got := string(c.mustPatch(http.StatusCreated, testCMs+"/d?fieldManager=m", "application/apply-patch+yaml",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d","deletionGracePeriodSeconds":0,"deletionTimestamp":"2026-01-02T03:04:05Z"}}`))
	for _, want := range []string{`"deletionTimestamp":"2026-01-02T03:04:05Z"`, `"deletionGracePeriodSeconds":0`} {
		if !strings.Contains(got, want) {
			t.Errorf("created object lacks %s: %s", want, got)
		}
	}
}

// An EndpointSlice's generation counts a change of its labels, as its
// registry strategy does; a ConfigMap's has none to count.
func TestEndpointSliceLabelsBumpGeneration(t *testing.T) {
	_, c := newTestServer(t, Options{})
	const slices = "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices"
	created := string(c.mustDo(http.StatusCreated, "POST", slices, `{"metadata":{"name":"e"},"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"]}],"ports":[]}`))
	if !strings.Contains(created, `"generation":1`) {
		t.Fatalf("created: %s", created)
	}
	patched := string(c.mustPatch(http.StatusOK, slices+"/e", "application/merge-patch+json", `{"metadata":{"labels":{"k":"v"}}}`))
	if !strings.Contains(patched, `"generation":2`) {
		t.Errorf("after a label change: %s", patched)
	}
	again := string(c.mustPatch(http.StatusOK, slices+"/e", "application/merge-patch+json", `{"metadata":{"annotations":{"k":"v"}}}`))
	if !strings.Contains(again, `"generation":2`) {
		t.Errorf("after an annotation change: %s", again)
	}
}
