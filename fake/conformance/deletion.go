package conformance

import (
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// createHeld creates a configmap holding a finalizer, so that a deletion
// stays visible, and removes the finalizers when the scenario ends.
func (c *client) createHeld(name string) map[string]any {
	c.t.Helper()
	obj := map[string]any{"metadata": map[string]any{"name": name, "finalizers": []string{"example.com/hold"}}}
	created := c.expect(c.do(req{method: "POST", path: c.cmPath(""), body: obj}), http.StatusCreated).obj(c.t)
	c.t.Cleanup(func() {
		c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/merge-patch+json", body: `{"metadata":{"finalizers":null}}`})
		c.do(req{method: "DELETE", path: c.cmPath(name)})
	})
	return created
}

func finalizers(obj map[string]any) []string {
	meta, _ := obj["metadata"].(map[string]any)
	list, _ := meta["finalizers"].([]any)
	out := make([]string, 0, len(list))
	for _, f := range list {
		s, _ := f.(string)
		out = append(out, s)
	}
	return out
}

// deletionScenarios check "Resource deletion" of the API concepts and the
// delete options a client sends: preconditions, propagationPolicy, and
// the answer of a delete collection.
func deletionScenarios() []scenario {
	return []scenario{
		{"DeletePreconditions", func(c *client) {
			name := c.name("a")
			obj := c.createCM(name, nil, nil)
			for _, pre := range []map[string]any{
				{"uid": "00000000-0000-0000-0000-000000000000"},
				{"resourceVersion": "1"},
			} {
				body := map[string]any{"apiVersion": "v1", "kind": "DeleteOptions", "preconditions": pre}
				st := c.statusOf(c.do(req{method: "DELETE", path: c.cmPath(name), body: body}), http.StatusConflict, "Conflict")
				if msg := field(st, "message"); !strings.Contains(msg, "in the precondition") || !strings.Contains(msg, "does not match") {
					c.t.Errorf("precondition %v: message %q", pre, field(st, "message"))
				}
			}
			c.expect(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusOK)
			body := map[string]any{"apiVersion": "v1", "kind": "DeleteOptions", "preconditions": map[string]any{"uid": field(obj, "metadata", "uid"), "resourceVersion": rvOf(obj)}}
			c.expect(c.do(req{method: "DELETE", path: c.cmPath(name), body: body}), http.StatusOK)
			c.statusOf(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusNotFound, "NotFound")
		}},
		{"DeletePropagationPolicyFinalizers", func(c *client) {
			// Orphan and Foreground deletions are carried out by the
			// garbage collector through a finalizer the server adds;
			// Background adds none.
			for _, tt := range []struct{ policy, added string }{
				{"Orphan", "orphan"},
				{"Foreground", "foregroundDeletion"},
				{"Background", ""},
			} {
				name := c.name(strings.ToLower(tt.policy))
				c.createHeld(name)
				del := c.expect(c.do(req{method: "DELETE", path: c.cmPath(name) + "?propagationPolicy=" + tt.policy}), http.StatusOK).obj(c.t)
				want := []string{"example.com/hold"}
				if tt.added != "" {
					want = append(want, tt.added)
				}
				got := finalizers(del)
				slices.Sort(got)
				slices.Sort(want)
				if diff := cmp.Diff(want, got); diff != "" {
					c.t.Errorf("%s: finalizers (-want +got):\n%s", tt.policy, diff)
				}
				if field(del, "metadata", "deletionTimestamp") == "" {
					c.t.Errorf("%s: no deletionTimestamp", tt.policy)
				}
			}
			st := c.statusOf(c.do(req{method: "DELETE", path: c.cmPath(c.name("x")) + "?propagationPolicy=Sideways"}), http.StatusUnprocessableEntity, "Invalid")
			if got := field(st, "details", "causes"); !strings.Contains(got, `"field":"propagationPolicy"`) || !strings.Contains(got, "FieldValueNotSupported") {
				c.t.Errorf("causes %s", got)
			}
		}},
		{"DeleteCollectionAnswersTheDeletedList", func(c *client) {
			names := c.seed(2)
			r := c.expect(c.do(req{method: "DELETE", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}})}), http.StatusOK).obj(c.t)
			if field(r, "kind") != "ConfigMapList" || field(r, "apiVersion") != "v1" {
				c.t.Errorf("answer %s/%s, want v1/ConfigMapList", field(r, "apiVersion"), field(r, "kind"))
			}
			got := itemNames(r)
			slices.Sort(got)
			if diff := cmp.Diff(names, got); diff != "" {
				c.t.Errorf("deleted items (-want +got):\n%s", diff)
			}
		}},
	}
}
