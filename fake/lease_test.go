package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// A Lease's strategy and preferredHolder are behind a feature gate
// kube-apiserver v1.36 leaves off: a create or update that sets them
// stores the Lease without them (not a 422 for preferredHolder without
// a strategy), and an invalid duration is still refused.
func TestLeaseGatedFields(t *testing.T) {
	_, c := newTestServer(t, Options{})
	const leases = "/apis/coordination.k8s.io/v1/namespaces/default/leases"
	// The spec is stored without them (managedFields still name them, as
	// kube-apiserver's field manager records the request before its
	// strategy drops them).
	spec := func(b []byte) string {
		var l struct{ Spec json.RawMessage }
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatal(err)
		}
		return string(l.Spec)
	}
	const want = `{"holderIdentity":"a","leaseDurationSeconds":15}`
	if got := spec(c.mustDo(http.StatusCreated, "POST", leases, `{"metadata":{"name":"l"},"spec":{"holderIdentity":"a","leaseDurationSeconds":15,"preferredHolder":"b","strategy":"Newest"}}`)); got != want {
		t.Errorf("created spec %s, want %s", got, want)
	}
	if got := spec(c.mustPatch(http.StatusOK, leases+"/l", "application/json-patch+json", `[{"op":"add","path":"/spec/preferredHolder","value":"Not_Valid!"}]`)); got != want {
		t.Errorf("patched spec %s, want %s", got, want)
	}
	got := string(c.mustPatch(http.StatusUnprocessableEntity, leases+"/l", "application/merge-patch+json", `{"spec":{"leaseDurationSeconds":0}}`))
	if !strings.Contains(got, `spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0`) {
		t.Errorf("zero duration: %s", got)
	}
}
