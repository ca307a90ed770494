package fake

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestPodConnect sends pods/log, exec, attach and portforward requests
// and checks each answer's code, reason and message against what
// kube-apiserver answers without a reachable kubelet.
func TestPodConnect(t *testing.T) {
	_, c := newTestServer(t, Options{})
	ns := "/api/v1/namespaces/default/"
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"one"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"two"},"spec":{"initContainers":[{"name":"init","image":"i"}],"containers":[{"name":"a","image":"i"},{"name":"b","image":"i"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"lost"},"spec":{"nodeName":"gone","containers":[{"name":"c","image":"i"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"bare"},"spec":{"nodeName":"bare","containers":[{"name":"c","image":"i"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"run"},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"i"}]}}`)
	c.mustDo(http.StatusCreated, "POST", "/api/v1/nodes", `{"metadata":{"name":"bare"}}`)
	c.mustDo(http.StatusCreated, "POST", "/api/v1/nodes", `{"metadata":{"name":"n1"}}`)
	c.mustPatch(http.StatusOK, "/api/v1/nodes/n1/status", "application/merge-patch+json", `{"status":{"addresses":[{"type":"ExternalIP","address":"192.0.2.9"},{"type":"InternalIP","address":"10.0.0.7"}]}}`)

	noKubelet := `kubewire-fake runs no containers: no kubelet serves node "n1"`
	steps := []struct {
		name, method, path string
		code               int
		reason, message    string
	}{
		{"log of a missing pod", "GET", ns + "pods/missing/log", 404, "NotFound", `pods "missing" not found`},
		{"exec in a missing pod", "POST", ns + "pods/missing/exec?command=ls", 404, "NotFound", `pods "missing" not found`},
		{"log of an unscheduled pod", "GET", ns + "pods/one/log", 200, "", ""},
		{"exec in an unscheduled pod", "POST", ns + "pods/one/exec?command=ls&stdout=true", 400, "BadRequest", "pod one does not have a host assigned"},
		{"attach over websocket", "GET", ns + "pods/one/attach?stdout=true", 400, "BadRequest", "pod one does not have a host assigned"},
		{"portforward", "POST", ns + "pods/one/portforward?ports=80", 400, "BadRequest", "pod one does not have a host assigned"},
		{"log of an unknown container", "GET", ns + "pods/one/log?container=x", 400, "BadRequest", "container x is not valid for pod one"},
		{"log of an init container", "GET", ns + "pods/two/log?container=init", 200, "", ""},
		{"exec without a container", "POST", ns + "pods/two/exec?command=ls", 400, "BadRequest", "a container name must be specified for pod two, choose one of: [init a b]"},
		{"log on a missing node", "GET", ns + "pods/lost/log", 404, "NotFound", `pods "gone" not found`},
		{"exec on a node without addresses", "POST", ns + "pods/bare/exec?command=ls", 500, "", "no preferred addresses found; known addresses: []"},
		{"log on a node", "GET", ns + "pods/run/log?follow=true", 500, "", `Get "https://10.0.0.7:10250/containerLogs/default/run/c": ` + noKubelet},
		{"exec on a node", "POST", ns + "pods/run/exec?command=ls", 500, "", "error dialing backend: " + noKubelet},
		{"portforward on a node", "GET", ns + "pods/run/portforward?ports=80", 500, "", "error dialing backend: " + noKubelet},
		{"post a log", "POST", ns + "pods/one/log", 405, "MethodNotAllowed", "the server does not allow this method on the requested resource"},
		{"negative tail", "GET", ns + "pods/missing/log?tailLines=-2", 422, "Invalid", `PodLogOptions "missing" is invalid: tailLines: Invalid value: -2: must be greater than or equal to 0`},
		{"bad limits", "GET", ns + "pods/one/log?limitBytes=0&sinceSeconds=0&stream=All", 422, "Invalid",
			`PodLogOptions "one" is invalid: [limitBytes: Invalid value: 0: must be greater than 0, sinceSeconds: Invalid value: 0: must be greater than 0, stream: Forbidden: may not be specified]`},
		{"a tail that is no number", "GET", ns + "pods/one/log?tailLines=abc", 400, "BadRequest", `strconv.ParseInt: parsing "abc": invalid syntax`},
		{"watch a log", "GET", "/api/v1/watch/namespaces/default/pods/one/log", 404, "NotFound", "the server could not find the requested resource"},
		{"log of a configmap", "GET", ns + "configmaps/one/log", 404, "NotFound", "the server could not find the requested resource"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			c.t = t
			resp, b := c.do(st.method, st.path, "", "")
			if resp.StatusCode != st.code {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, st.code, b)
			}
			if st.code == http.StatusOK {
				if len(b) != 0 || resp.Header.Get("Content-Type") != "text/plain" {
					t.Errorf("log: %q (%s), want an empty text/plain body", b, resp.Header.Get("Content-Type"))
				}
				return
			}
			var status struct {
				Kind, Status, Reason, Message string
				Code                          int
			}
			if err := json.Unmarshal(b, &status); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			if status.Kind != "Status" || status.Status != "Failure" || status.Code != st.code || status.Reason != st.reason || status.Message != st.message {
				t.Errorf("got %s\nwant reason %q message %q", b, st.reason, st.message)
			}
		})
	}
}
