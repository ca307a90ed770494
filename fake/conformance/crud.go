package conformance

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

var uidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func crudScenarios() []scenario {
	return []scenario{
		{"CreateSetsSystemFields", func(c *client) {
			before := time.Now().Add(-2 * time.Second)
			obj := c.createCM(c.name("a"), nil, map[string]string{"k": "v"})
			if uid := field(obj, "metadata", "uid"); !uidPattern.MatchString(uid) {
				c.t.Errorf("uid %q is not a UUID", uid)
			}
			if _, err := strconv.ParseUint(rvOf(obj), 10, 64); err != nil {
				c.t.Errorf("resourceVersion %q is not decimal", rvOf(obj))
			}
			ts, err := time.Parse(time.RFC3339, field(obj, "metadata", "creationTimestamp"))
			if err != nil || ts.Before(before.Truncate(time.Second)) {
				c.t.Errorf("creationTimestamp %q: %v", field(obj, "metadata", "creationTimestamp"), err)
			}
			if field(obj, "kind") != "ConfigMap" || field(obj, "apiVersion") != "v1" {
				c.t.Errorf("kind/apiVersion = %s/%s", field(obj, "kind"), field(obj, "apiVersion"))
			}
		}},
		{"GenerateName", func(c *client) {
			body := map[string]any{"metadata": map[string]any{"generateName": c.name("g-")}}
			r := c.expect(c.do(req{method: "POST", path: c.cmPath(""), body: body}), http.StatusCreated)
			name := field(r.obj(c.t), "metadata", "name")
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.cmPath(name)}) })
			if !strings.HasPrefix(name, c.name("g-")) || len(name) != len(c.name("g-"))+5 {
				c.t.Errorf("generated name %q", name)
			}
		}},
		{"ResourceVersionGrowsWithEveryWrite", func(c *client) {
			a := c.createCM(c.name("a"), nil, nil)
			b := c.createCM(c.name("b"), nil, nil)
			ra, _ := strconv.ParseUint(rvOf(a), 10, 64)
			rb, _ := strconv.ParseUint(rvOf(b), 10, 64)
			if rb <= ra {
				c.t.Errorf("resourceVersion %d after %d", rb, ra)
			}
		}},
		{"GetJSONAndProtobufAgree", func(c *client) {
			name := c.name("a")
			created := c.createCM(name, map[string]string{"app": "x"}, map[string]string{"k": "v"})
			j := c.expect(c.do(req{method: "GET", path: c.cmPath(name), accept: "application/json"}), http.StatusOK)
			if !strings.HasPrefix(j.contentType(), "application/json") {
				c.t.Errorf("Content-Type %q", j.contentType())
			}
			if rvOf(j.obj(c.t)) != rvOf(created) {
				c.t.Errorf("get resourceVersion %s, created %s", rvOf(j.obj(c.t)), rvOf(created))
			}
			p := c.expect(c.do(req{method: "GET", path: c.cmPath(name), accept: codec.AcceptProtobufOrJSON}), http.StatusOK)
			if p.contentType() != codec.MediaTypeProtobuf {
				c.t.Fatalf("Content-Type %q, want protobuf", p.contentType())
			}
			env, err := codec.DecodeEnvelope(p.body)
			if err != nil {
				c.t.Fatal(err)
			}
			if env.TypeMeta.Kind != "ConfigMap" || env.TypeMeta.APIVersion != "v1" {
				c.t.Errorf("envelope type %+v", env.TypeMeta)
			}
			var cm corev1.ConfigMap
			if err := codec.DecodeProtobuf(p.body, &cm); err != nil {
				c.t.Fatal(err)
			}
			if cm.ResourceVersion != rvOf(created) || cm.Data["k"] != "v" || cm.Labels["app"] != "x" || string(cm.UID) != field(created, "metadata", "uid") {
				c.t.Errorf("protobuf object %+v disagrees with %v", cm.ObjectMeta, created)
			}
		}},
		{"NotFound", func(c *client) {
			name := c.name("missing")
			st := c.statusOf(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusNotFound, "NotFound")
			if want := `configmaps "` + name + `" not found`; field(st, "message") != want {
				c.t.Errorf("message %q, want %q", field(st, "message"), want)
			}
			if field(st, "details", "name") != name || field(st, "details", "kind") != "configmaps" {
				c.t.Errorf("details %s", field(st, "details"))
			}
			p := c.expect(c.do(req{method: "GET", path: c.cmPath(name), accept: codec.MediaTypeProtobuf}), http.StatusNotFound)
			var s metav1.Status
			if err := codec.DecodeProtobuf(p.body, &s); err != nil || s.Reason != "NotFound" || s.Code != 404 {
				c.t.Errorf("protobuf Status %+v, %v", s, err)
			}
		}},
		{"AlreadyExists", func(c *client) {
			name := c.name("a")
			c.createCM(name, nil, nil)
			st := c.statusOf(c.do(req{method: "POST", path: c.cmPath(""), body: map[string]any{"metadata": map[string]any{"name": name}}}), http.StatusConflict, "AlreadyExists")
			if want := `configmaps "` + name + `" already exists`; field(st, "message") != want {
				c.t.Errorf("message %q, want %q", field(st, "message"), want)
			}
		}},
		{"InvalidName", func(c *client) {
			st := c.statusOf(c.do(req{method: "POST", path: c.cmPath(""), body: map[string]any{"metadata": map[string]any{"name": "Bad_Name"}}}), http.StatusUnprocessableEntity, "Invalid")
			if field(st, "details", "kind") != "ConfigMap" || !strings.Contains(field(st, "details", "causes"), `"field":"metadata.name"`) {
				c.t.Errorf("details %s", field(st, "details"))
			}
		}},
		{"UpdateConflictOnStaleResourceVersion", func(c *client) {
			name := c.name("a")
			obj := c.createCM(name, nil, map[string]string{"k": "1"})
			obj["data"] = map[string]any{"k": "2"}
			upd := c.expect(c.do(req{method: "PUT", path: c.cmPath(name), body: obj}), http.StatusOK).obj(c.t)
			if rvOf(upd) == rvOf(obj) {
				c.t.Errorf("update kept resourceVersion %s", rvOf(upd))
			}
			obj["data"] = map[string]any{"k": "3"} // still carries the old resourceVersion
			st := c.statusOf(c.do(req{method: "PUT", path: c.cmPath(name), body: obj}), http.StatusConflict, "Conflict")
			if !strings.Contains(field(st, "message"), "the object has been modified") {
				c.t.Errorf("message %q", field(st, "message"))
			}
		}},
		{"UpdateMissingIsNotFound", func(c *client) {
			name := c.name("missing")
			c.statusOf(c.do(req{method: "PUT", path: c.cmPath(name), body: map[string]any{"metadata": map[string]any{"name": name}}}), http.StatusNotFound, "NotFound")
		}},
		{"DeleteAnswersStatusOrObjectThenNotFound", func(c *client) {
			// Most resources answer an immediate deletion with a Success
			// Status whose details name the object (details.kind is the
			// resource, not the kind); those whose registry sets
			// ReturnDeletedObject (Pod, Service, ServiceAccount, ...)
			// answer with the deleted object.
			name := c.name("a")
			uid := field(c.createCM(name, nil, nil), "metadata", "uid")
			r := c.expect(c.do(req{method: "DELETE", path: c.cmPath(name)}), http.StatusOK)
			c.successStatus(r, name, "", "configmaps", uid)
			c.statusOf(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusNotFound, "NotFound")
			c.statusOf(c.do(req{method: "DELETE", path: c.cmPath(name)}), http.StatusNotFound, "NotFound")

			name = c.name("p")
			uid = field(c.createCM(name, nil, nil), "metadata", "uid")
			p := c.expect(c.do(req{method: "DELETE", path: c.cmPath(name), accept: codec.MediaTypeProtobuf}), http.StatusOK)
			var st metav1.Status
			if err := codec.DecodeProtobuf(p.body, &st); err != nil || p.contentType() != codec.MediaTypeProtobuf {
				c.t.Errorf("protobuf delete answer (%s): %v", p.contentType(), err)
			} else if st.Status != "Success" || st.Details == nil || st.Details.Name != name || st.Details.Kind != "configmaps" || string(st.Details.UID) != uid {
				c.t.Errorf("protobuf delete answer %+v, details %+v", st, st.Details)
			}

			sas := "/api/v1/namespaces/" + c.ns() + "/serviceaccounts"
			name = c.name("sa")
			c.expect(c.do(req{method: "POST", path: sas, body: map[string]any{"metadata": map[string]any{"name": name}}}), http.StatusCreated)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: sas + "/" + name}) })
			got := c.expect(c.do(req{method: "DELETE", path: sas + "/" + name}), http.StatusOK).obj(c.t)
			if field(got, "kind") != "ServiceAccount" || field(got, "metadata", "name") != name || field(got, "metadata", "deletionTimestamp") != "" {
				c.t.Errorf("serviceaccount delete answered %v", got)
			}
			c.statusOf(c.do(req{method: "GET", path: sas + "/" + name}), http.StatusNotFound, "NotFound")

			if c.target.Widgets != "" {
				name = c.name("w")
				w := map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": name}}
				uid = field(c.expect(c.do(req{method: "POST", path: c.target.Widgets, body: w}), http.StatusCreated).obj(c.t), "metadata", "uid")
				c.t.Cleanup(func() { c.do(req{method: "DELETE", path: c.target.Widgets + "/" + name}) })
				r = c.expect(c.do(req{method: "DELETE", path: c.target.Widgets + "/" + name}), http.StatusOK)
				c.successStatus(r, name, "example.com", "widgets", uid)
			}
		}},
		{"Unauthorized", func(c *client) {
			hr := c.newRequest(req{method: "GET", path: c.cmPath("")})
			hr.Header.Set("Authorization", "Bearer wrong")
			resp, err := c.target.Client.Do(hr)
			if err != nil {
				c.t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				c.t.Errorf("status %d, want 401", resp.StatusCode)
			}
		}},
	}
}

// successStatus checks the JSON Success Status of an immediate deletion.
func (c *client) successStatus(r response, name, group, resource, uid string) {
	c.t.Helper()
	st := r.obj(c.t)
	if field(st, "kind") != "Status" || field(st, "apiVersion") != "v1" || field(st, "status") != "Success" || field(st, "code") != "" {
		c.t.Errorf("delete answered %s, want a Success Status", r.body)
	}
	if field(st, "details", "name") != name || field(st, "details", "group") != group || field(st, "details", "kind") != resource || field(st, "details", "uid") != uid {
		c.t.Errorf("details %s, want name %s group %q kind %s uid %s", field(st, "details"), name, group, resource, uid)
	}
}
