package fake

import (
	"strings"
	"testing"
)

// kube-apiserver creates an object an update names when its kind's
// strategy allows create on update (Leases, Services, Endpoints,
// Events, LimitRanges, RBAC roles and bindings, RuntimeClasses,
// LeaseCandidates), answering 201; other kinds, and subresources,
// answer 404. Found by TestGeneratedSequences seed 1 (a Lease PUT).
func TestCreateOnUpdate(t *testing.T) {
	_, c := newTestServer(t, Options{})
	leases := "/apis/coordination.k8s.io/v1/namespaces/default/leases/"
	c.mustDo(201, "PUT", leases+"dry?dryRun=All", `{"metadata":{"name":"dry"}}`)
	c.mustDo(404, "GET", leases+"dry", "")
	c.mustDo(201, "PUT", leases+"l", `{"metadata":{"name":"l"},"spec":{"holderIdentity":"h"}}`)
	c.mustDo(200, "GET", leases+"l", "")
	c.mustDo(201, "PUT", leases+"with-version", `{"metadata":{"name":"with-version","resourceVersion":"5"}}`)
	c.mustDo(500, "PUT", leases+"bad-version", `{"metadata":{"name":"bad-version","resourceVersion":"abc"}}`)
	c.mustDo(201, "PUT", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r", `{"metadata":{"name":"r"}}`)
	c.mustDo(404, "PUT", "/api/v1/namespaces/default/configmaps/c", `{"metadata":{"name":"c"}}`)
	c.mustDo(404, "PUT", "/api/v1/namespaces/default/services/s/status", `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`)
	c.mustDo(201, "PUT", "/api/v1/namespaces/default/services/s", `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`)
}

// An update of a Lease must name the resourceVersion it replaces, as
// kube-apiserver's lease strategy allows no unconditional update (nor
// do a few other kinds'); a ConfigMap's may leave it out. Found by
// TestGeneratedSequences seeds 11, 16, 23 (kube-apiserver 422, fake 200).
func TestUnconditionalUpdateRefused(t *testing.T) {
	_, c := newTestServer(t, Options{})
	leases := "/apis/coordination.k8s.io/v1/namespaces/default/leases/"
	c.mustDo(201, "POST", leases, `{"metadata":{"name":"l"}}`)
	body := string(c.mustDo(422, "PUT", leases+"l", `{"metadata":{"name":"l"},"spec":{"holderIdentity":"h"}}`))
	if want := `leases.coordination.k8s.io \"l\" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`; !strings.Contains(body, want) {
		t.Errorf("unconditional Lease update: %s, want %s", body, want)
	}
	c.mustDo(201, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"c"}}`)
	c.mustDo(200, "PUT", "/api/v1/namespaces/default/configmaps/c", `{"metadata":{"name":"c"},"data":{"a":"b"}}`)
}
