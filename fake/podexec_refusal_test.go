package fake

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
)

// With an emulated kubelet, what the kubelet refuses before any
// upgrade: no stream asked for, no command, a SPDY (not WebSocket)
// request, a container reported stopped. Exec is never called.
func TestExecKubeletRefusals(t *testing.T) {
	_, c := newTestServer(t, Options{Exec: func(context.Context, *ExecRequest) error {
		t.Error("Exec called")
		return nil
	}})
	ns := "/api/v1/namespaces/default/"
	c.mustDo(http.StatusCreated, "POST", "/api/v1/nodes", `{"metadata":{"name":"n1"}}`)
	c.mustPatch(http.StatusOK, "/api/v1/nodes/n1/status", "application/merge-patch+json", `{"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.7"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"run"},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"i"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"done"},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"i"}]}}`)
	c.mustPatch(http.StatusOK, ns+"pods/done/status", "application/merge-patch+json", `{"status":{"phase":"Succeeded"}}`)
	for _, st := range []struct {
		name, path string
		code       int
		message    string
	}{
		{"no stream", ns + "pods/run/exec?command=ls", 400, "you must specify at least 1 of stdin, stdout, stderr"},
		{"no command", ns + "pods/run/exec?stdout=true", 400, "you must specify at least one command for the container"},
		{"spdy", ns + "pods/run/exec?command=ls&stdout=true", 400, "kubewire-fake's kubelet speaks only WebSocket (v5.channel.k8s.io, v4.channel.k8s.io), not SPDY"},
		{"completed pod", ns + "pods/done/exec?command=ls&stdout=true", 500, `pod "done" is Succeeded: its containers are not running`},
	} {
		t.Run(st.name, func(t *testing.T) {
			c.t = t
			resp, b := c.do("POST", st.path, "", "")
			var status struct {
				Message string
				Code    int
			}
			if err := json.Unmarshal(b, &status); err != nil || resp.StatusCode != st.code || status.Message != st.message {
				t.Errorf("got %d %s\nwant %d %q", resp.StatusCode, b, st.code, st.message)
			}
		})
	}
}
