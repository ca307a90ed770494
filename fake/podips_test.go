package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A Pod's status.podIPs follows status.podIP as kube-apiserver's
// conversion makes it.
func TestPodIPsFollowPodIP(t *testing.T) {
	_, c := newTestServer(t, Options{})
	pods := "/api/v1/namespaces/default/pods"
	c.mustDo(http.StatusCreated, "POST", pods, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	got := string(c.mustPatch(http.StatusOK, pods+"/p/status", "application/merge-patch+json", `{"status":{"podIP":"10.0.0.7"}}`))
	if !strings.Contains(got, `"podIP":"10.0.0.7","podIPs":[{"ip":"10.0.0.7"}]`) {
		t.Errorf("podIP alone: %s", got)
	}
	got = string(c.mustPatch(http.StatusOK, pods+"/p/status", "application/merge-patch+json", `{"status":{"podIP":null,"podIPs":[{"ip":"10.0.0.8"},{"ip":"fd00::8"}]}}`))
	if !strings.Contains(got, `"podIP":"10.0.0.8","podIPs":[{"ip":"10.0.0.8"},{"ip":"fd00::8"}]`) {
		t.Errorf("podIPs alone: %s", got)
	}
	got = string(c.mustPatch(http.StatusOK, pods+"/p/status", "application/merge-patch+json", `{"status":{"podIP":"10.0.0.9"}}`))
	if !strings.Contains(got, `"podIP":"10.0.0.9","podIPs":[{"ip":"10.0.0.9"}]`) {
		t.Errorf("podIP replacing podIPs: %s", got)
	}
}
