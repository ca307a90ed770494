package fake

import "testing"

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
	c.mustDo(200, "PUT", leases+"l", `{"metadata":{"name":"l"},"spec":{"holderIdentity":"i"}}`)
	c.mustDo(201, "PUT", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r", `{"metadata":{"name":"r"}}`)
	c.mustDo(404, "PUT", "/api/v1/namespaces/default/configmaps/c", `{"metadata":{"name":"c"}}`)
	c.mustDo(404, "PUT", "/api/v1/namespaces/default/services/s/status", `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`)
	c.mustDo(201, "PUT", "/api/v1/namespaces/default/services/s", `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`)
}
