package fake

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestProxy sends pods/proxy, services/proxy and nodes/proxy requests
// and checks each answer's code, reason and message against what
// kube-apiserver answers when no backend listens: the lookups' 404s and
// 400s stay distinct from the final 503.
func TestProxy(t *testing.T) {
	_, c := newTestServer(t, Options{})
	ns := "/api/v1/namespaces/default/"
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"noip"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"pods", `{"metadata":{"name":"web"},"spec":{"containers":[{"name":"c","image":"i","ports":[{"containerPort":8080}]}]}}`)
	c.mustPatch(http.StatusOK, ns+"pods/web/status", "application/merge-patch+json", `{"status":{"podIP":"10.1.2.3","podIPs":[{"ip":"10.1.2.3"}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"services", `{"metadata":{"name":"svc"},"spec":{"ports":[{"name":"http","port":80}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"services", `{"metadata":{"name":"empty"},"spec":{"ports":[{"port":80}]}}`)
	c.mustDo(http.StatusCreated, "POST", ns+"endpoints", `{"metadata":{"name":"svc"},"subsets":[{"addresses":[{"ip":"10.1.2.3","targetRef":{"kind":"Pod","name":"web","namespace":"default"}}],"ports":[{"name":"http","port":8080}]}]}`)
	c.mustDo(http.StatusCreated, "POST", ns+"endpoints", `{"metadata":{"name":"empty"}}`)
	c.mustDo(http.StatusCreated, "POST", "/api/v1/nodes", `{"metadata":{"name":"n1"}}`)
	c.mustPatch(http.StatusOK, "/api/v1/nodes/n1/status", "application/merge-patch+json", `{"status":{"addresses":[{"type":"InternalIP","address":"10.0.0.7"}]}}`)

	unreachable := func(host string) string {
		return "error trying to reach service: dial tcp " + host + ": kubewire-fake runs no containers"
	}
	steps := []struct {
		name, method, path string
		code               int
		reason, message    string
	}{
		{"missing pod", "GET", ns + "pods/missing/proxy/", 404, "NotFound", `pods "missing" not found`},
		{"pod without an IP", "GET", ns + "pods/noip/proxy/", 400, "BadRequest", "address not allowed"},
		{"pod's first port", "GET", ns + "pods/web/proxy/healthz", 503, "ServiceUnavailable", unreachable("10.1.2.3:8080")},
		{"pod's named port", "POST", ns + "pods/https:web:9000/proxy/a/b", 503, "ServiceUnavailable", unreachable("10.1.2.3:9000")},
		{"bad pod id", "GET", ns + "pods/ftp:web:1/proxy", 400, "BadRequest", `invalid pod request "ftp:web:1"`},
		{"service without endpoints object", "GET", ns + "services/missing/proxy/", 404, "NotFound", `endpoints "missing" not found`},
		{"missing service by port number", "GET", ns + "services/missing:80/proxy/", 404, "NotFound", `services "missing" not found`},
		{"service port not found", "GET", ns + "services/svc:81/proxy/", 503, "ServiceUnavailable", `no service port 81 found for service "svc"`},
		{"service without endpoints", "GET", ns + "services/empty/proxy/", 503, "ServiceUnavailable", `no endpoints available for service "empty"`},
		{"service by port name", "GET", ns + "services/svc:http/proxy/", 503, "ServiceUnavailable", unreachable("10.1.2.3:8080")},
		{"service by port number", "DELETE", ns + "services/svc:80/proxy/x", 503, "ServiceUnavailable", unreachable("10.1.2.3:8080")},
		{"service's unnamed port", "GET", ns + "services/svc/proxy/", 503, "ServiceUnavailable", `no endpoints available for service "svc"`},
		{"missing node", "GET", "/api/v1/nodes/gone/proxy/metrics", 404, "NotFound", `nodes "gone" not found`},
		{"node", "GET", "/api/v1/nodes/n1/proxy/metrics", 503, "ServiceUnavailable", unreachable("10.0.0.7:10250")},
		{"node on a port", "GET", "/api/v1/nodes/n1:9100/proxy/metrics", 503, "ServiceUnavailable", unreachable("10.0.0.7:9100")},
		{"watch a proxy", "GET", "/api/v1/watch/nodes/n1/proxy", 404, "NotFound", "the server could not find the requested resource"},
		{"proxy of a configmap", "GET", ns + "configmaps/x/proxy", 404, "NotFound", "the server could not find the requested resource"},
		{"pod proxy without namespace", "GET", "/api/v1/pods/web/proxy", 404, "NotFound", "the server could not find the requested resource"},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			c.t = t
			resp, b := c.do(st.method, st.path, "", "")
			if resp.StatusCode != st.code {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, st.code, b)
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
