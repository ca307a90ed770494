package conformance

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func writeScenarios() []scenario {
	return []scenario{
		{"Patches", func(c *client) {
			tests := []struct {
				name, contentType, body, want string
			}{
				{"merge", "application/merge-patch+json", `{"data":{"b":"2","a":null}}`, `{"b":"2"}`},
				{"json", "application/json-patch+json", `[{"op":"add","path":"/data/c","value":"3"},{"op":"remove","path":"/data/a"}]`, `{"c":"3"}`},
				{"strategic", "application/strategic-merge-patch+json", `{"data":{"d":"4"}}`, `{"a":"1","d":"4"}`},
			}
			for _, tt := range tests {
				c.t.Run(tt.name, func(t *testing.T) {
					sub := *c
					sub.t = t
					name := c.name(tt.name)
					sub.createCM(name, nil, map[string]string{"a": "1"})
					r := sub.expect(sub.do(req{method: "PATCH", path: c.cmPath(name), contentType: tt.contentType, body: tt.body}), http.StatusOK)
					if got := field(r.obj(t), "data"); got != tt.want {
						t.Errorf("data %s, want %s", got, tt.want)
					}
				})
			}
		}},
		{"StrategicMergeByKey", func(c *client) {
			name := c.name("d")
			deploy := map[string]any{
				"metadata": map[string]any{"name": name},
				"spec": map[string]any{
					"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
					"template": map[string]any{
						"metadata": map[string]any{"labels": map[string]any{"app": name}},
						"spec": map[string]any{"containers": []any{
							map[string]any{"name": "a", "image": "a:1"},
							map[string]any{"name": "b", "image": "b:1"},
						}},
					},
				},
			}
			path := "/apis/apps/v1/namespaces/" + c.ns() + "/deployments"
			c.expect(c.do(req{method: "POST", path: path, body: deploy}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: path + "/" + name}) })
			r := c.expect(c.do(req{method: "PATCH", path: path + "/" + name, contentType: "application/strategic-merge-patch+json",
				body: `{"spec":{"template":{"spec":{"containers":[{"name":"b","image":"b:2"}]}}}}`}), http.StatusOK).obj(c.t)
			got := field(r, "spec", "template", "spec", "containers")
			if !strings.Contains(got, `"image":"a:1"`) || !strings.Contains(got, `"image":"b:2"`) {
				c.t.Errorf("containers after patch: %s", got)
			}
			if field(r, "metadata", "generation") != "2" {
				c.t.Errorf("generation %s after a spec change, want 2", field(r, "metadata", "generation"))
			}
		}},
		{"ServerSideApply", func(c *client) {
			name := c.name("ssa")
			cfg := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  a: \"1\"\n"
			path := c.cmPath(name) + "?fieldManager=conformance"
			r := c.expect(c.do(req{method: "PATCH", path: path, contentType: "application/apply-patch+yaml", body: cfg}), http.StatusCreated).obj(c.t)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(name)}) })
			if mf := field(r, "metadata", "managedFields"); !strings.Contains(mf, `"manager":"conformance"`) || !strings.Contains(mf, `"operation":"Apply"`) {
				c.t.Errorf("managedFields %s", mf)
			}
			cfg = strings.Replace(cfg, `a: "1"`, `a: "2"`, 1)
			r = c.expect(c.do(req{method: "PATCH", path: path, contentType: "application/apply-patch+yaml", body: cfg}), http.StatusOK).obj(c.t)
			if field(r, "data", "a") != "2" {
				c.t.Errorf("data after re-apply: %s", field(r, "data"))
			}
			c.statusOf(c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/apply-patch+yaml", body: cfg}), http.StatusUnprocessableEntity, "Invalid")
		}},
		{"FinalizersHoldDeletion", func(c *client) {
			name := c.name("f")
			obj := map[string]any{"metadata": map[string]any{"name": name, "finalizers": []string{"example.com/hold"}}}
			c.expect(c.do(req{method: "POST", path: c.cmPath(""), body: obj}), http.StatusCreated)
			// A deferred deletion answers 200 with the object, even for a
			// resource that answers an immediate one with a Status.
			del := c.expect(c.do(req{method: "DELETE", path: c.cmPath(name)}), http.StatusOK).obj(c.t)
			if field(del, "kind") != "ConfigMap" || field(del, "metadata", "deletionTimestamp") == "" {
				c.t.Fatalf("delete answered %v, want the ConfigMap with a deletionTimestamp", del)
			}
			got := c.expect(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusOK).obj(c.t)
			if field(got, "metadata", "deletionTimestamp") == "" {
				c.t.Fatalf("no deletionTimestamp: %v", got["metadata"])
			}
			c.expect(c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/merge-patch+json", body: `{"metadata":{"finalizers":null}}`}), http.StatusOK)
			c.statusOf(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusNotFound, "NotFound")
		}},
		{"DryRunDoesNotPersist", func(c *client) {
			name := c.name("dry")
			r := c.expect(c.do(req{method: "POST", path: c.cmPath("") + "?dryRun=All", body: map[string]any{"metadata": map[string]any{"name": name}}}), http.StatusCreated)
			if field(r.obj(c.t), "metadata", "name") != name {
				c.t.Errorf("dry-run answer %s", r.body)
			}
			c.statusOf(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusNotFound, "NotFound")
		}},
		{"FieldValidation", func(c *client) {
			body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + c.name("v") + `"},"bogus":1}`
			st := c.statusOf(c.do(req{method: "POST", path: c.cmPath("") + "?fieldValidation=Strict", contentType: "application/json", body: body}), http.StatusBadRequest, "BadRequest")
			if !strings.Contains(field(st, "message"), `strict decoding error: unknown field "bogus"`) {
				c.t.Errorf("message %q", field(st, "message"))
			}
			r := c.expect(c.do(req{method: "POST", path: c.cmPath("") + "?fieldValidation=Warn", contentType: "application/json", body: body}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(c.name("v"))}) })
			if w := r.header.Get("Warning"); w != `299 - "unknown field \"bogus\""` {
				c.t.Errorf("Warning header %q", w)
			}
		}},
		{"StatusSubresource", func(c *client) {
			name := c.name("p")
			c.createPod(name, "node-1", "Running")
			pods := "/api/v1/namespaces/" + c.ns() + "/pods/" + name
			got := c.expect(c.do(req{method: "GET", path: pods}), http.StatusOK).obj(c.t)
			if field(got, "status", "phase") != "Running" {
				c.t.Errorf("phase %q after a status update", field(got, "status", "phase"))
			}
			got["status"] = map[string]any{"phase": "Failed"}
			got["metadata"].(map[string]any)["labels"] = map[string]any{"x": "y"}
			upd := c.expect(c.do(req{method: "PUT", path: pods, body: got}), http.StatusOK).obj(c.t)
			if field(upd, "status", "phase") != "Running" || field(upd, "metadata", "labels", "x") != "y" {
				c.t.Errorf("main-resource update changed status or lost labels: %v %v", upd["status"], upd["metadata"])
			}
		}},
		{"DeleteCollection", func(c *client) {
			names := c.seed(3)
			keep := c.name("keep")
			c.createCM(keep, nil, nil)
			c.expect(c.do(req{method: "DELETE", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}})}), http.StatusOK)
			for _, n := range names {
				c.statusOf(c.do(req{method: "GET", path: c.cmPath(n)}), http.StatusNotFound, "NotFound")
			}
			c.expect(c.do(req{method: "GET", path: c.cmPath(keep)}), http.StatusOK)
		}},
		{"NoOpUpdateKeepsResourceVersion", func(c *client) {
			obj := c.createCM(c.name("a"), nil, map[string]string{"k": "v"})
			again := c.expect(c.do(req{method: "PUT", path: c.cmPath(c.name("a")), body: obj}), http.StatusOK).obj(c.t)
			if diff := cmp.Diff(rvOf(obj), rvOf(again)); diff != "" {
				c.t.Errorf("resourceVersion changed by a no-op update (-before +after):\n%s", diff)
			}
		}},
	}
}
