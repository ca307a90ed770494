package fake

import (
	"strings"
	"testing"
)

// A Pod's status write that leaves out status.qosClass keeps the stored
// one, as kube-apiserver's Pod status strategy does. Found by
// TestGeneratedSequences seed 20: the fake dropped it.
func TestPodStatusWriteKeepsQOSClass(t *testing.T) {
	_, c := newTestServer(t, Options{})
	pods := "/api/v1/namespaces/default/pods/"
	c.mustDo(201, "POST", pods, `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	body := string(c.mustDo(200, "PUT", pods+"p/status", `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]},"status":{"phase":"Running"}}`))
	if !strings.Contains(body, `"qosClass":"BestEffort"`) {
		t.Errorf("status write: %s, want qosClass BestEffort kept", body)
	}
}
