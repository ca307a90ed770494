package conformance

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/google/go-cmp/cmp"
)

func fieldScenarios() []scenario {
	return []scenario{
		{"ManagedFieldsOnWrites", func(c *client) {
			name := c.name("mf")
			hdr := http.Header{"User-Agent": {"conformance-writer/1.0 (test)"}}
			obj := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "labels": map[string]any{"x": "y"}}, "data": map[string]any{"k": "v"}}
			created := c.expect(c.do(req{method: "POST", path: c.cmPath(""), body: obj, header: hdr}), http.StatusCreated).obj(c.t)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(name)}) })
			want := []string{`conformance-writer Update v1 {"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:x":{}}}}`}
			if diff := cmp.Diff(want, managers(created)); diff != "" {
				c.t.Errorf("managedFields after create (-want +got)\n%s", diff)
			}
			r := c.expect(c.do(req{method: "PATCH", path: c.cmPath(name) + "?fieldManager=editor", contentType: "application/merge-patch+json", body: `{"data":{"k":"w"}}`}), http.StatusOK).obj(c.t)
			want = []string{
				`conformance-writer Update v1 {"f:data":{},"f:metadata":{"f:labels":{".":{},"f:x":{}}}}`,
				`editor Update v1 {"f:data":{"f:k":{}}}`,
			}
			if diff := cmp.Diff(want, managers(r)); diff != "" {
				c.t.Errorf("managedFields after another manager's patch (-want +got)\n%s", diff)
			}
		}},
		{"ServerSideApply", func(c *client) {
			name := c.name("ssa")
			path := c.cmPath(name)
			apply := func(manager, data string, force bool) response {
				q := "?fieldManager=" + manager
				if force {
					q += "&force=true"
				}
				return c.do(req{method: "PATCH", path: path + q, contentType: "application/apply-patch+yaml",
					body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"},"data":{` + data + `}}`})
			}
			c.expect(apply("alice", `"a":"1","b":"2"`, false), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: path}) })
			st := c.statusOf(apply("bob", `"b":"3"`, false), http.StatusConflict, "Conflict")
			if got, want := field(st, "message"), `Apply failed with 1 conflict: conflict with "alice": .data.b`; got != want {
				c.t.Errorf("conflict message %q, want %q", got, want)
			}
			if got, want := field(st, "details", "causes"), `[{"field":".data.b","message":"conflict with \"alice\"","reason":"FieldManagerConflict"}]`; got != want {
				c.t.Errorf("conflict causes %s, want %s", got, want)
			}
			c.expect(apply("bob", `"b":"3"`, true), http.StatusOK)
			// alice stops applying a: nobody owns it any more, so it goes.
			r := c.expect(apply("alice", ``, false), http.StatusOK).obj(c.t)
			if got := field(r, "data"); got != `{"b":"3"}` {
				c.t.Errorf("data after alice stopped applying a: %s", got)
			}
			// alice still owns data itself: she applies an empty map.
			want := []string{`alice Apply v1 {"f:data":{}}`, `bob Apply v1 {"f:data":{"f:b":{}}}`}
			got := managers(r)
			slices.Sort(got) // entries are ordered by time, which may tie or not
			if diff := cmp.Diff(want, got); diff != "" {
				c.t.Errorf("managedFields (-want +got)\n%s", diff)
			}
		}},
		{"CustomResourceDefinitionLifecycle", func(c *client) {
			group := strings.TrimSuffix(c.prefix, "-") + ".conformance.example.com"
			crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.` + group + `"},
"spec":{"group":"` + group + `","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","properties":{"size":{"type":"integer","maximum":10,"default":3}}}}}}}]}}`
			crdPath := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things." + group
			c.expect(c.do(req{method: "POST", path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body: crd}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: crdPath}) })
			things := "/apis/" + group + "/v1/namespaces/" + c.ns() + "/things"
			c.eventuallyFor(30*time.Second, "the CRD to be served", func() bool { return c.do(req{method: "GET", path: things}).code == http.StatusOK })
			created := c.expect(c.do(req{method: "POST", path: things, body: `{"apiVersion":"` + group + `/v1","kind":"Thing","metadata":{"name":"t"},"spec":{"bogus":1}}`}), http.StatusCreated)
			if got := field(created.obj(c.t), "spec"); got != `{"size":3}` {
				c.t.Errorf("spec %s, want the default and no unknown field", got)
			}
			if got := created.header.Get("Warning"); got != `299 - "unknown field \"spec.bogus\""` {
				c.t.Errorf("Warning %q", got)
			}
			st := c.statusOf(c.do(req{method: "POST", path: things, body: `{"apiVersion":"` + group + `/v1","kind":"Thing","metadata":{"name":"big"},"spec":{"size":11}}`}), http.StatusUnprocessableEntity, "Invalid")
			if got, want := field(st, "message"), `Thing.`+group+` "big" is invalid: spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10`; got != want {
				c.t.Errorf("message %q, want %q", got, want)
			}
			c.statusOf(c.do(req{method: "POST", path: things, body: `{"apiVersion":"` + group + `/v1","metadata":{"name":"nokind"}}`}), http.StatusBadRequest, "BadRequest")
			c.expect(c.do(req{method: "DELETE", path: crdPath}), http.StatusOK)
			c.eventuallyFor(30*time.Second, "the CRD's resource to go", func() bool { return c.do(req{method: "GET", path: things}).code == http.StatusNotFound })
		}},
	}
}

// managers summarizes an object's managedFields: "manager operation
// apiVersion FIELDS", in order.
func managers(obj map[string]any) []string {
	meta, _ := obj["metadata"].(map[string]any)
	entries, _ := meta["managedFields"].([]any)
	var out []string
	for _, e := range entries {
		m, _ := e.(map[string]any)
		fields, _ := json.Marshal(m["fieldsV1"])
		out = append(out, field(m, "manager")+" "+field(m, "operation")+" "+field(m, "apiVersion")+" "+string(fields))
	}
	return out
}

// eventuallyFor polls cond for up to d.
func (c *client) eventuallyFor(d time.Duration, what string, cond func() bool) {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			c.t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
