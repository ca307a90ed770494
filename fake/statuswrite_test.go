package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A Deployment's status write is checked as ValidateDeploymentStatusUpdate
// checks it: counts above status.replicas are refused. Found by
// TestGeneratedSequences seeds 30, 125 and 192.
func TestDeploymentStatusValidation(t *testing.T) {
	_, c := newTestServer(t, Options{})
	deploys := "/apis/apps/v1/namespaces/default/deployments"
	c.mustDo(http.StatusCreated, "POST", deploys, `{"metadata":{"name":"d"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`)
	got := string(c.mustPatch(http.StatusUnprocessableEntity, deploys+"/d/status", "application/merge-patch+json", `{"status":{"replicas":0,"readyReplicas":1,"availableReplicas":1}}`))
	for _, want := range []string{
		`Deployment.apps \"d\" is invalid: [status.readyReplicas: Invalid value: 1: cannot be greater than status.replicas, status.availableReplicas: Invalid value: 1: cannot be greater than status.replicas]`,
		`"field":"status.readyReplicas"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("answer %s, want %s in it", got, want)
		}
	}
	c.mustPatch(http.StatusUnprocessableEntity, deploys+"/d/status", "application/merge-patch+json", `{"status":{"observedGeneration":-1}}`)
	c.mustPatch(http.StatusOK, deploys+"/d/status", "application/merge-patch+json", `{"status":{"replicas":2,"readyReplicas":1,"availableReplicas":1}}`)
	// The same counts in the main resource are not checked: its
	// strategy keeps the stored status.
	c.mustPatch(http.StatusOK, deploys+"/d", "application/merge-patch+json", `{"status":{"replicas":0,"readyReplicas":5}}`)
}

// A namespace's status write is checked as ValidateNamespaceStatusUpdate
// checks it: the phase is Active until the namespace has a deletion
// timestamp, Terminating after. Found by TestGeneratedSequences seeds 90
// and 186.
func TestNamespaceStatusPhaseValidation(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces", `{"metadata":{"name":"p","finalizers":["example.com/hold"]}}`)
	c.mustPatch(http.StatusOK, "/api/v1/namespaces/p/status", "application/merge-patch+json", `{"status":{"phase":"Active"}}`)
	got := string(c.mustPatch(http.StatusUnprocessableEntity, "/api/v1/namespaces/p/status", "application/merge-patch+json", `{"status":{"phase":"Terminating"}}`))
	if want := "status.Phase: Invalid value: \\\"Terminating\\\": may only be 'Active' if `deletionTimestamp` is empty"; !strings.Contains(got, want) {
		t.Errorf("answer %s, want %s in it", got, want)
	}
	c.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/p", "")
	got = string(c.mustPatch(http.StatusUnprocessableEntity, "/api/v1/namespaces/p/status", "application/merge-patch+json", `{"status":{"phase":"Active"}}`))
	if want := "status.Phase: Invalid value: \\\"Active\\\": may only be 'Terminating' if `deletionTimestamp` is not empty"; !strings.Contains(got, want) {
		t.Errorf("answer %s, want %s in it", got, want)
	}
}

// A status write takes metadata.generateName from the request, as an
// update does: no status strategy resets it. Found by
// TestGeneratedSequences seed 45 (a JSON patch of a Deployment's status
// copying its name to generateName).
func TestStatusWriteKeepsGenerateName(t *testing.T) {
	_, c := newTestServer(t, Options{})
	deploys := "/apis/apps/v1/namespaces/default/deployments"
	c.mustDo(http.StatusCreated, "POST", deploys, `{"metadata":{"name":"g"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"g"}},"template":{"metadata":{"labels":{"app":"g"}},"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`)
	got := string(c.mustPatch(http.StatusOK, deploys+"/g/status", "application/json-patch+json", `[{"op":"copy","from":"/metadata/name","path":"/metadata/generateName"}]`))
	if !strings.Contains(got, `"generateName":"g"`) {
		t.Errorf("status patch answered %s, want generateName g", got)
	}
}
