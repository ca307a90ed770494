package fake

import (
	"net/http"
	"strings"
	"testing"
)

// Metadata is checked by each kind's rule, with kube-apiserver's
// messages.
func TestMetadataValidation(t *testing.T) {
	_, c := newTestServer(t, Options{})
	long := strings.Repeat("x", 64)
	tests := []struct {
		name, path, body, want string
	}{
		{"namespace with a dot", "/api/v1/namespaces", `{"metadata":{"name":"a.b"}}`, `metadata.name: Invalid value: \"a.b\": must not contain dots`},
		{"service not a DNS label", "/api/v1/namespaces/default/services", `{"metadata":{"name":"Svc_1"},"spec":{"ports":[{"port":80}]}}`, `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'`},
		{"configmap name too long", testCMs, `{"metadata":{"name":"` + strings.Repeat("a", 254) + `"}}`, `must be no more than 253 characters`},
		{"label value too long", testCMs, `{"metadata":{"name":"l","labels":{"a":"` + long + `"}}}`, `metadata.labels: Invalid value: \"` + long + `\": must be no more than 63 bytes`},
		{"label key", testCMs, `{"metadata":{"name":"l","labels":{"a b":"c"}}}`, `metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters`},
		{"annotation key", testCMs, `{"metadata":{"name":"l","annotations":{"-x-":"y"}}}`, `metadata.annotations: Invalid value: \"-x-\"`},
		{"finalizer", testCMs, `{"metadata":{"name":"l","finalizers":["bad"]}}`, `metadata.finalizers[0]: Invalid value: \"bad\": name is neither a standard finalizer name nor is it fully qualified`},
		{"generateName", testCMs, `{"metadata":{"generateName":"Bad-"}}`, `metadata.generateName: Invalid value: \"Bad-\"`},
		{"rbac name with a slash", "/apis/rbac.authorization.k8s.io/v1/clusterroles", `{"metadata":{"name":"a/b"}}`, `metadata.name: Invalid value: \"a/b\": may not contain '/'`},
		{"negative replicas", "/apis/apps/v1/namespaces/default/deployments", `{"metadata":{"name":"d"},"spec":{"replicas":-1,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`, `spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(c.mustDo(http.StatusUnprocessableEntity, "POST", tt.path, tt.body))
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %s\nwant it to contain %s", got, tt.want)
			}
		})
	}
	// Names an RBAC rule allows, a subdomain rule would not.
	c.mustDo(http.StatusCreated, "POST", "/apis/rbac.authorization.k8s.io/v1/clusterroles", `{"metadata":{"name":"system:Reader"}}`)
	// The uid a PUT names is a precondition of its write (409); a patch
	// may not change it (422); nor may an update add finalizers to an
	// object being deleted.
	c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"u","finalizers":["example.com/a"]}}`)
	got := string(c.mustDo(http.StatusConflict, "PUT", testCMs+"/u", `{"metadata":{"name":"u","uid":"00000000-0000-0000-0000-000000000000","finalizers":["example.com/a"]}}`))
	if !strings.Contains(got, `StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/u, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000000, UID in object meta: `) {
		t.Errorf("uid precondition: %s", got)
	}
	got = string(c.mustPatch(http.StatusUnprocessableEntity, testCMs+"/u", "application/merge-patch+json", `{"metadata":{"uid":"00000000-0000-0000-0000-000000000000"}}`))
	if !strings.Contains(got, `metadata.uid: Invalid value: \"00000000-0000-0000-0000-000000000000\": field is immutable`) {
		t.Errorf("uid change: %s", got)
	}
	c.mustDo(http.StatusOK, "DELETE", testCMs+"/u", "")
	got = string(c.mustDo(http.StatusUnprocessableEntity, "PUT", testCMs+"/u", `{"metadata":{"name":"u","finalizers":["example.com/a","example.com/b"]}}`))
	if !strings.Contains(got, `no new finalizers can be added if the object is being deleted, found new finalizers []string{\"example.com/b\"}`) {
		t.Errorf("new finalizer while deleting: %s", got)
	}
}
