package fake

import (
	"encoding/json"
	"testing"
)

// An update naming a uid makes the uid a precondition of the storage;
// for a kind that allows create on update it is checked before the
// object is found missing: kube-apiserver answers a 409 whose message
// names an empty stored uid, not a 404 (other kinds: 404). Found by
// TestGeneratedSequences seed 4 (a Service), checked on v1.36.3 with a
// Lease, a Service, a ConfigMap and a Deployment.
func TestUpdateOfMissingObjectWithUID(t *testing.T) {
	_, c := newTestServer(t, Options{})
	var st struct {
		Reason, Message string
		Code            int
	}
	c.mustDo(404, "PUT", "/api/v1/namespaces/default/configmaps/missing", `{"metadata":{"name":"missing","uid":"00000000-0000-0000-0000-000000000001"}}`)
	body := c.mustDo(409, "PUT", "/apis/coordination.k8s.io/v1/namespaces/default/leases/missing", `{"metadata":{"name":"missing","uid":"00000000-0000-0000-0000-000000000001"}}`)
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatal(err)
	}
	want := `Operation cannot be fulfilled on leases.coordination.k8s.io "missing": StorageError: invalid object, Code: 4, Key: /registry/leases/default/missing, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000001, UID in object meta: `
	if st.Reason != "Conflict" || st.Message != want {
		t.Errorf("reason %s message %q, want Conflict %q", st.Reason, st.Message, want)
	}
}
