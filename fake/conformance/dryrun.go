package conformance

import (
	"net/http"
	"strings"
)

// dryRunScenarios check "Dry-run" of the API concepts: every verb that
// writes answers as it would without dryRun=All and persists nothing, and
// an unknown dryRun value is refused (422, the options' validation).
func dryRunScenarios() []scenario {
	return []scenario{
		{"DryRunEveryVerb", func(c *client) {
			name := c.name("a")
			obj := c.createCM(name, nil, map[string]string{"k": "1"})
			rv := rvOf(obj)

			obj["data"] = map[string]any{"k": "put"}
			put := c.expect(c.do(req{method: "PUT", path: c.cmPath(name) + "?dryRun=All", body: obj}), http.StatusOK).obj(c.t)
			if field(put, "data", "k") != "put" {
				c.t.Errorf("dry-run update answered data %s", field(put, "data"))
			}
			patch := c.expect(c.do(req{method: "PATCH", path: c.cmPath(name) + "?dryRun=All", contentType: "application/merge-patch+json", body: `{"data":{"k":"patch"}}`}), http.StatusOK).obj(c.t)
			if field(patch, "data", "k") != "patch" {
				c.t.Errorf("dry-run patch answered data %s", field(patch, "data"))
			}
			apply := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"},"data":{"k":"apply"}}`
			applied := c.expect(c.do(req{method: "PATCH", path: c.cmPath(name) + "?dryRun=All&fieldManager=dry&force=true", contentType: "application/apply-patch+yaml", body: apply}), http.StatusOK).obj(c.t)
			if field(applied, "data", "k") != "apply" {
				c.t.Errorf("dry-run apply answered data %s", field(applied, "data"))
			}
			del := c.expect(c.do(req{method: "DELETE", path: c.cmPath(name) + "?dryRun=All"}), http.StatusOK).obj(c.t)
			if field(del, "kind") != "Status" && field(del, "metadata", "name") != name {
				c.t.Errorf("dry-run delete answered %v", del)
			}

			got := c.expect(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusOK).obj(c.t)
			if rvOf(got) != rv || field(got, "data", "k") != "1" {
				c.t.Errorf("after dry runs: version %s data %s, want %s and k=1", rvOf(got), field(got, "data"), rv)
			}
		}},
		{"DryRunCreateGeneratesValues", func(c *client) {
			// A dry-run create answers generated values (name, uid,
			// creationTimestamp) as a real create would.
			body := map[string]any{"metadata": map[string]any{"generateName": c.name("g-")}}
			r := c.expect(c.do(req{method: "POST", path: c.cmPath("") + "?dryRun=All", body: body}), http.StatusCreated).obj(c.t)
			name := field(r, "metadata", "name")
			if !strings.HasPrefix(name, c.name("g-")) || len(name) != len(c.name("g-"))+5 {
				c.t.Errorf("generated name %q", name)
			}
			if field(r, "metadata", "uid") == "" || field(r, "metadata", "creationTimestamp") == "" {
				c.t.Errorf("no uid or creationTimestamp: %v", r["metadata"])
			}
			c.statusOf(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusNotFound, "NotFound")
		}},
		{"DeleteWithABodyIgnoresTheDryRunQuery", func(c *client) {
			// kube-apiserver reads a DELETE's options from its body when
			// it has one, and then not from the query: dryRun=All in the
			// URL does not stop the deletion.
			name := c.name("a")
			created := c.createCM(name, nil, nil)
			body := map[string]any{"apiVersion": "v1", "kind": "DeleteOptions", "preconditions": map[string]any{"uid": field(created, "metadata", "uid")}}
			c.expect(c.do(req{method: "DELETE", path: c.cmPath(name) + "?dryRun=All", body: body}), http.StatusOK)
			c.statusOf(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusNotFound, "NotFound")
		}},
		{"DryRunUnknownValue", func(c *client) {
			st := c.statusOf(c.do(req{method: "POST", path: c.cmPath("") + "?dryRun=Some", body: map[string]any{"metadata": map[string]any{"name": c.name("a")}}}), http.StatusUnprocessableEntity, "Invalid")
			if got := field(st, "details", "causes"); !strings.Contains(got, `"field":"dryRun"`) || field(st, "details", "kind") != "CreateOptions" {
				c.t.Errorf("details %s", field(st, "details"))
			}
			c.statusOf(c.do(req{method: "GET", path: c.cmPath(c.name("a"))}), http.StatusNotFound, "NotFound")
		}},
	}
}
