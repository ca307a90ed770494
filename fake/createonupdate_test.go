package fake

import (
	"strings"
	"testing"
)

// kube-apiserver creates an object an update names when its kind's
// strategy allows create on update (Leases, Services, Endpoints,
// Events, LimitRanges, RBAC roles and bindings, RuntimeClasses,
// LeaseCandidates), answering 201; a Service's status write creates it
// too (seeds 73 and 114), other subresources and kinds answer 404.
// Found by TestGeneratedSequences seed 1 (a Lease PUT).
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
	c.mustDo(404, "PUT", "/api/v1/namespaces/default/pods/p/status", `{"metadata":{"name":"p"}}`)
	c.mustDo(404, "PUT", "/apis/apps/v1/namespaces/default/deployments/d/scale", `{"metadata":{"name":"d"},"spec":{"replicas":1}}`)
	c.mustDo(201, "PUT", "/api/v1/namespaces/default/services/s", `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]}}`)
}

// A status write of a missing Service creates it as kube-apiserver's
// status storage does: the create strategy (an empty status) without
// the Service REST's address allocation (no cluster IP), managedFields
// recording the status write alone. Found by TestGeneratedSequences
// seeds 73 and 114 (kube-apiserver 201, fake 404).
func TestStatusUpdateCreatesService(t *testing.T) {
	_, c := newTestServer(t, Options{})
	services := "/api/v1/namespaces/default/services/"
	body := `{"metadata":{"name":"s"},"spec":{"ports":[{"port":80}]},"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.1"}]}}}`
	c.mustDo(201, "PUT", services+"dry/status?dryRun=All", strings.Replace(body, `"s"`, `"dry"`, 1))
	c.mustDo(404, "GET", services+"dry", "")
	got := string(c.mustDo(201, "PUT", services+"s/status?fieldManager=m", body))
	for _, absent := range []string{"clusterIP", "ipFamilies", "192.0.2.1", `"f:spec"`} {
		if strings.Contains(got, absent) {
			t.Errorf("created by a status write: %s has %s", got, absent)
		}
	}
	for _, want := range []string{`"status":{"loadBalancer":{}}`, `"manager":"m","operation":"Update"`, `"subresource":"status"`, `"fieldsV1":{"f:status":{"f:loadBalancer":{"f:ingress":{}}}}`} {
		if !strings.Contains(got, want) {
			t.Errorf("created by a status write: %s lacks %s", got, want)
		}
	}
	if read := string(c.mustDo(200, "GET", services+"s", "")); strings.Contains(read, "clusterIP") {
		t.Errorf("read back: %s has a cluster IP", read)
	}
	// An apply of the status creates the same way (seed 114); a Pod's
	// status does not.
	applied := `{"apiVersion":"v1","kind":"Service","metadata":{"name":"a","labels":{"t":"x"}},"spec":{"ports":[{"port":81}]}}`
	got = string(c.mustPatch(201, services+"a/status?fieldManager=bob", "application/apply-patch+yaml", applied))
	for _, want := range []string{`"manager":"bob","operation":"Apply"`, `"subresource":"status"`, `"fieldsV1":{"f:metadata":{"f:labels":{"f:t":{}}}}`} {
		if !strings.Contains(got, want) || strings.Contains(got, "clusterIP") {
			t.Errorf("created by a status apply: %s lacks %s or has a cluster IP", got, want)
		}
	}
	c.mustPatch(404, "/api/v1/namespaces/default/pods/p/status?fieldManager=bob", "application/apply-patch+yaml", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}`)
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

// managedFields sent as one empty entry strip them, on a patch as on an
// update, as kube-apiserver's field manager does before validation
// sees them. Found by hand (curl on kube-apiserver v1.36.3: a merge
// patch of {"metadata":{"managedFields":[{}]}} answered 200 without
// managedFields; the fake 422 "operation: Invalid value").
func TestEmptyManagedFieldsEntryStrips(t *testing.T) {
	_, c := newTestServer(t, Options{})
	cms := "/api/v1/namespaces/default/configmaps/"
	c.mustDo(201, "POST", "/api/v1/namespaces/default/configmaps?fieldManager=m", `{"metadata":{"name":"a"},"data":{"k":"v"}}`)
	if got := string(c.mustPatch(200, cms+"a", "application/merge-patch+json", `{"metadata":{"managedFields":[{}]}}`)); strings.Contains(got, "managedFields") {
		t.Errorf("patch with [{}]: %s", got)
	}
	c.mustDo(201, "POST", "/api/v1/namespaces/default/configmaps?fieldManager=m", `{"metadata":{"name":"b"},"data":{"k":"v"}}`)
	if got := string(c.mustDo(200, "PUT", cms+"b", `{"metadata":{"name":"b","managedFields":[{}]},"data":{"k":"v"}}`)); strings.Contains(got, "managedFields") {
		t.Errorf("update with [{}]: %s", got)
	}
}
