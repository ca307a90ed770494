package conformance

import (
	"net/http"
	"net/url"
)

// partialMismatchScenarios: kube-apiserver negotiates PartialObjectMetadata
// and PartialObjectMetadataList for objects and lists alike and finds
// the mismatch only when it converts the answer, after the read or the
// write: a missing object is a 404, and a create asking for a list of
// metadata creates the object and then answers 406.
func partialMismatchScenarios() []scenario {
	const (
		partialList = "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io"
		partial     = "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io"
	)
	return []scenario{
		{"PartialMetadataMismatch", func(c *client) {
			missing := c.do(req{method: "GET", path: c.cmPath(c.name("missing")), accept: partialList})
			c.statusOf(missing, http.StatusNotFound, "NotFound")

			name := c.name("pm")
			created := c.do(req{method: "POST", path: c.cmPath(""), accept: partialList, body: `{"metadata":{"name":"` + name + `"}}`})
			st := c.statusOf(created, http.StatusNotAcceptable, "NotAcceptable")
			if want := "you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)"; field(st, "message") != want {
				c.t.Errorf("create: message %q, want %q", field(st, "message"), want)
			}
			c.expect(c.do(req{method: "GET", path: c.cmPath(name)}), http.StatusOK)

			// An Accept listing JSON after the mismatched type gets the
			// mismatch all the same: the negotiation picked the first.
			both := c.do(req{method: "GET", path: c.cmPath(name), accept: partialList + ", application/json"})
			c.statusOf(both, http.StatusNotAcceptable, "NotAcceptable")

			list := c.do(req{method: "GET", path: c.listPath(url.Values{"labelSelector": {c.setSelector()}}), accept: partial})
			st = c.statusOf(list, http.StatusNotAcceptable, "NotAcceptable")
			if want := "you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)"; field(st, "message") != want {
				c.t.Errorf("list: message %q, want %q", field(st, "message"), want)
			}
			// A delete answering a Status is not converted.
			c.expect(c.do(req{method: "DELETE", path: c.cmPath(name), accept: partialList}), http.StatusOK)
		}},
		{"PartialMetadataMismatchCustom", func(c *client) {
			name := c.createWidget(nil)
			one := c.do(req{method: "GET", path: c.target.Widgets + "/" + name, accept: partialList})
			c.expect(one, http.StatusInternalServerError)
			if msg := field(one.obj(c.t), "message"); msg != "content is not a list" {
				c.t.Errorf("get: message %q", msg)
			}
			list := c.do(req{method: "GET", path: c.target.Widgets, accept: partial})
			st := c.statusOf(list, http.StatusNotAcceptable, "NotAcceptable")
			if want := "you requested PartialObjectMetadata, but the requested object is a list (*unstructured.UnstructuredList)"; field(st, "message") != want {
				c.t.Errorf("list: message %q, want %q", field(st, "message"), want)
			}
		}},
	}
}
