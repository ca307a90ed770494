package conformance

import (
	"net/http"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// validationScenarios check "Field validation" of the API concepts beyond
// FieldValidation: duplicate fields, the Ignore level, patches, and a
// wrongly typed field that fails whatever the level.
func validationScenarios() []scenario {
	return []scenario{
		{"DuplicateFields", func(c *client) {
			name := c.name("d")
			body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"},"data":{"k":"1"},"data":{"k":"2"}}`
			st := c.statusOf(c.do(req{method: "POST", path: c.cmPath("") + "?fieldValidation=Strict", contentType: "application/json", body: body}), http.StatusBadRequest, "BadRequest")
			if !strings.Contains(field(st, "message"), `duplicate field "data"`) {
				c.t.Errorf("Strict message %q", field(st, "message"))
			}
			r := c.expect(c.do(req{method: "POST", path: c.cmPath(""), contentType: "application/json", body: body}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(name)}) })
			if w := r.header.Values("Warning"); len(w) != 1 || !strings.Contains(w[0], `duplicate field \"data\"`) {
				c.t.Errorf("Warning headers %q", w)
			}
			if got := field(r.obj(c.t), "data", "k"); got != "2" {
				c.t.Errorf("data.k %q, want the last duplicate's 2", got)
			}
		}},
		{"YAMLDuplicateKeys", func(c *client) {
			// A YAML body's duplicate keys are reported as kube-apiserver's
			// YAML parser words them, with their line, before the other
			// problems.
			body := func(name string) string {
				return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\nbogus: 1\ndata:\n  a: \"1\"\n  a: \"2\"\n"
			}
			const dup = `line 8: key "a" already set in map`
			st := c.statusOf(c.do(req{method: "POST", path: c.cmPath("") + "?fieldValidation=Strict", contentType: "application/yaml", body: body(c.name("s"))}), http.StatusBadRequest, "BadRequest")
			if want := "strict decoding error: yaml: unmarshal errors:\n  " + dup + `, unknown field "bogus"`; !strings.HasSuffix(field(st, "message"), want) {
				c.t.Errorf("Strict message %q, want it to end with %q", field(st, "message"), want)
			}
			r := c.expect(c.do(req{method: "POST", path: c.cmPath(""), contentType: "application/yaml", body: body(c.name("w"))}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(c.name("w"))}) })
			want := []string{`299 - "line 8: key \"a\" already set in map"`, `299 - "unknown field \"bogus\""`}
			if diff := cmp.Diff(want, r.header.Values("Warning")); diff != "" {
				c.t.Errorf("Warning headers (-want +got):\n%s", diff)
			}
			if got := field(r.obj(c.t), "data", "a"); got != "2" {
				c.t.Errorf("data.a %q, want the last duplicate's 2", got)
			}
			r = c.expect(c.do(req{method: "POST", path: c.cmPath("") + "?fieldValidation=Ignore", contentType: "application/yaml", body: body(c.name("i"))}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(c.name("i"))}) })
			if w := r.header.Values("Warning"); len(w) != 0 {
				c.t.Errorf("Warning headers %q with fieldValidation=Ignore", w)
			}
			// An apply configuration: a 400 of its own wording under
			// Strict, a warning under Warn.
			name := c.name("a")
			apply := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  a: \"1\"\n  a: \"2\"\n"
			st = c.statusOf(c.do(req{method: "PATCH", path: c.cmPath(name) + "?fieldManager=m&fieldValidation=Strict", contentType: "application/apply-patch+yaml", body: apply}), http.StatusBadRequest, "BadRequest")
			if want := "error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key \"a\" already set in map"; field(st, "message") != want {
				c.t.Errorf("Strict apply message %q, want %q", field(st, "message"), want)
			}
			r = c.expect(c.do(req{method: "PATCH", path: c.cmPath(name) + "?fieldManager=m", contentType: "application/apply-patch+yaml", body: apply}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(name)}) })
			if diff := cmp.Diff([]string{`299 - "line 7: key \"a\" already set in map"`}, r.header.Values("Warning")); diff != "" {
				c.t.Errorf("apply Warning headers (-want +got):\n%s", diff)
			}
		}},
		{"FieldProblemsOrder", func(c *client) {
			// A built-in kind's strict decoder reports unknown and
			// duplicate fields in document order; a custom resource's
			// duplicates come before its unknown (pruned) fields.
			warnings := func(path, body string) []string {
				r := c.expect(c.do(req{method: "POST", path: path + "?dryRun=All", contentType: "application/json", body: body}), http.StatusCreated)
				return r.header.Values("Warning")
			}
			const dup, unknown = `299 - "duplicate field \"data.a\""`, `299 - "unknown field \"bogus\""`
			meta := `"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + c.name("o") + `"}`
			if diff := cmp.Diff([]string{dup, unknown}, warnings(c.cmPath(""), `{`+meta+`,"data":{"a":"1","a":"2"},"bogus":1}`)); diff != "" {
				c.t.Errorf("duplicate first (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{unknown, dup}, warnings(c.cmPath(""), `{`+meta+`,"bogus":1,"data":{"a":"1","a":"2"}}`)); diff != "" {
				c.t.Errorf("unknown first (-want +got):\n%s", diff)
			}
			if c.target.Widgets == "" {
				return
			}
			w := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"` + c.name("w") + `"},"top":1,"spec":{"a":1,"a":2}}`
			want := []string{`299 - "duplicate field \"spec.a\""`, `299 - "unknown field \"top\""`}
			if diff := cmp.Diff(want, warnings(c.target.Widgets, w)); diff != "" {
				c.t.Errorf("custom resource (-want +got):\n%s", diff)
			}
		}},
		{"FieldValidationIgnore", func(c *client) {
			name := c.name("i")
			body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"},"bogus":1,"data":{"k":"1"}}`
			r := c.expect(c.do(req{method: "POST", path: c.cmPath("") + "?fieldValidation=Ignore", contentType: "application/json", body: body}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(name)}) })
			if w := r.header.Values("Warning"); len(w) != 0 {
				c.t.Errorf("Warning headers %q with fieldValidation=Ignore", w)
			}
			if _, ok := r.obj(c.t)["bogus"]; ok {
				c.t.Errorf("unknown field kept: %s", r.body)
			}
		}},
		{"FieldValidationStrictListsEveryField", func(c *client) {
			body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + c.name("s") + `","bogus1":1},"bogus2":2}`
			st := c.statusOf(c.do(req{method: "POST", path: c.cmPath("") + "?fieldValidation=Strict", contentType: "application/json", body: body}), http.StatusBadRequest, "BadRequest")
			msg := field(st, "message")
			if !strings.Contains(msg, `unknown field "metadata.bogus1"`) || !strings.Contains(msg, `unknown field "bogus2"`) {
				c.t.Errorf("message %q does not name both fields", msg)
			}
		}},
		{"FieldValidationOnPatch", func(c *client) {
			name := c.name("p")
			c.createCM(name, nil, map[string]string{"k": "1"})
			// The spec says 400; kube-apiserver v1.36.3 refuses a patch
			// whose result has an unknown field with a 422 on "patch".
			st := c.statusOf(c.do(req{method: "PATCH", path: c.cmPath(name) + "?fieldValidation=Strict", contentType: "application/merge-patch+json", body: `{"bogus":1}`}), http.StatusUnprocessableEntity, "Invalid")
			if !strings.Contains(field(st, "message"), `strict decoding error: unknown field "bogus"`) || !strings.Contains(field(st, "details", "causes"), `"field":"patch"`) {
				c.t.Errorf("Strict patch message %q", field(st, "message"))
			}
			r := c.expect(c.do(req{method: "PATCH", path: c.cmPath(name), contentType: "application/merge-patch+json", body: `{"bogus":1,"data":{"k":"2"}}`}), http.StatusOK)
			if w := r.header.Get("Warning"); !strings.Contains(w, `unknown field \"bogus\"`) {
				c.t.Errorf("Warning header %q", w)
			}
		}},
		{"WrongTypeFailsAtEveryLevel", func(c *client) {
			body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + c.name("t") + `"},"bogus":1,"data":{"k":1}}`
			for _, level := range []string{"Ignore", "Warn", "Strict"} {
				r := c.do(req{method: "POST", path: c.cmPath("") + "?fieldValidation=" + level, contentType: "application/json", body: body})
				st := c.statusOf(r, http.StatusBadRequest, "BadRequest")
				if strings.Contains(field(st, "message"), "bogus") {
					c.t.Errorf("%s: message names the unknown field: %q", level, field(st, "message"))
				}
			}
		}},
	}
}
