package conformance

import (
	"net/http"
)

// updateScenarios check "Updates to existing resources" of the API
// concepts beyond Patches: a JSON patch's test operation, a patch made
// conditional on resourceVersion, strategic merge refused for custom
// resources, and patch types the server does not know.
func updateScenarios() []scenario {
	return []scenario{
		{"JSONPatchTestOperation", func(c *client) {
			name := c.name("t")
			c.createCM(name, nil, map[string]string{"n": "1"})
			ok := `[{"op":"test","path":"/data/n","value":"1"},{"op":"replace","path":"/data/n","value":"2"}]`
			r := c.expect(c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/json-patch+json", body: ok}), http.StatusOK).obj(c.t)
			if field(r, "data", "n") != "2" {
				c.t.Errorf("data after a passing test: %s", field(r, "data"))
			}
			// The same patch again: the test fails and nothing changes.
			// kube-apiserver v1.36.3 answers a bare 422 that names neither
			// the operation nor the path.
			st := c.statusOf(c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/json-patch+json", body: ok}), http.StatusUnprocessableEntity, "Invalid")
			if field(st, "message") != "the server rejected our request due to an error in our request" {
				c.t.Errorf("message %q", field(st, "message"))
			}
			got := c.expect(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusOK).obj(c.t)
			if field(got, "data", "n") != "2" || rvOf(got) != rvOf(r) {
				c.t.Errorf("failed test changed the object: %s at %s", field(got, "data"), rvOf(got))
			}
		}},
		{"PatchWithStaleResourceVersionConflicts", func(c *client) {
			name := c.name("c")
			obj := c.createCM(name, nil, map[string]string{"k": "1"})
			c.expect(c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/merge-patch+json", body: `{"data":{"k":"2"}}`}), http.StatusOK)
			stale := `{"metadata":{"resourceVersion":"` + rvOf(obj) + `"},"data":{"k":"3"}}`
			c.statusOf(c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/merge-patch+json", body: stale}), http.StatusConflict, "Conflict")
			got := c.expect(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusOK).obj(c.t)
			if field(got, "data", "k") != "2" {
				c.t.Errorf("data %s after a conflicting patch", field(got, "data"))
			}
		}},
		{"PatchMissingIsNotFound", func(c *client) {
			c.statusOf(c.do(req{method: "PATCH", path: c.cmPath(c.name("none")), contentType: "application/merge-patch+json", body: `{"data":{"k":"1"}}`}), http.StatusNotFound, "NotFound")
		}},
		{"UnsupportedPatchType", func(c *client) {
			name := c.name("u")
			c.createCM(name, nil, nil)
			st := c.statusOf(c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/xml", body: `<data/>`}), http.StatusUnsupportedMediaType, "UnsupportedMediaType")
			// kube-apiserver v1.36.3's message does not name the type.
			if field(st, "message") != "415: Unsupported Media Type" {
				c.t.Errorf("message %q", field(st, "message"))
			}
		}},
		{"StrategicMergeRefusedForCustomResources", func(c *client) {
			name := c.createWidget(map[string]any{"color": "blue"})
			c.statusOf(c.do(req{method: "PATCH", path: c.target.Widgets + "/" + name, contentType: "application/strategic-merge-patch+json", body: `{"spec":{"color":"red"}}`}), http.StatusUnsupportedMediaType, "UnsupportedMediaType")
			r := c.expect(c.do(req{method: "PATCH", path: c.target.Widgets + "/" + name, contentType: "application/merge-patch+json", body: `{"spec":{"color":"red"}}`}), http.StatusOK).obj(c.t)
			if field(r, "spec", "color") != "red" {
				c.t.Errorf("merge patch answered spec %s", field(r, "spec"))
			}
		}},
	}
}
