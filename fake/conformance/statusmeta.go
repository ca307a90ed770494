package conformance

import (
	"net/http"
)

// statusMetadataScenarios: a write to the status subresource of most
// built-in kinds takes the object's labels, annotations, finalizers and
// owner references from the request, as kube-apiserver's status
// strategies reset only the spec; a Pod's keep their owner references
// and a Deployment's their labels.
func statusMetadataScenarios() []scenario {
	return []scenario{
		{"StatusWriteTakesMetadata", func(c *client) {
			pods := "/api/v1/namespaces/" + c.ns() + "/pods"
			name := c.name("sm")
			// An owner that exists, so that no garbage collector takes the Pod.
			cm := c.createCM(c.name("sm-owner"), nil, nil)
			owner := []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": c.name("sm-owner"), "uid": field(cm, "metadata", "uid")}}
			pod := map[string]any{
				"metadata": map[string]any{"name": name, "labels": map[string]any{"a": "1"}, "annotations": map[string]any{"x": "1"}, "ownerReferences": owner},
				"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "registry.k8s.io/pause:3.10"}}},
			}
			obj := c.expect(c.do(req{method: "POST", path: pods, body: pod}), http.StatusCreated).obj(c.t)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: pods + "/" + name + "?gracePeriodSeconds=0"}) })
			meta := obj["metadata"].(map[string]any)
			meta["labels"] = map[string]any{"b": "2"}
			delete(meta, "annotations")
			delete(meta, "ownerReferences")
			obj["status"] = map[string]any{"phase": "Running"}
			got := c.expect(c.do(req{method: "PUT", path: pods + "/" + name + "/status", body: obj}), http.StatusOK).obj(c.t)
			if l, a, o := field(got, "metadata", "labels"), field(got, "metadata", "annotations"), field(got, "metadata", "ownerReferences"); l != `{"b":"2"}` || a != "" || o == "" {
				c.t.Errorf("pod status write: labels %s annotations %q ownerReferences %q; want the request's labels and annotations, the stored owner references", l, a, o)
			}
			got = c.expect(c.do(req{method: "PATCH", path: pods + "/" + name + "/status", contentType: "application/merge-patch+json", body: `{"metadata":{"annotations":{"y":"2"}}}`}), http.StatusOK).obj(c.t)
			if a := field(got, "metadata", "annotations"); a != `{"y":"2"}` {
				c.t.Errorf("pod status patch: annotations %s, want the patch's", a)
			}

			deployments := "/apis/apps/v1/namespaces/" + c.ns() + "/deployments"
			dep := map[string]any{
				"metadata": map[string]any{"name": name, "labels": map[string]any{"a": "1"}},
				"spec": map[string]any{"replicas": 0, "selector": map[string]any{"matchLabels": map[string]any{"app": name}},
					"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": name}},
						"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "registry.k8s.io/pause:3.10"}}}}},
			}
			obj = c.expect(c.do(req{method: "POST", path: deployments, body: dep}), http.StatusCreated).obj(c.t)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: deployments + "/" + name}) })
			meta = obj["metadata"].(map[string]any)
			meta["labels"] = map[string]any{"b": "2"}
			meta["annotations"] = map[string]any{"y": "1"}
			got = c.expect(c.do(req{method: "PUT", path: deployments + "/" + name + "/status", body: obj}), http.StatusOK).obj(c.t)
			if l, a := field(got, "metadata", "labels"), field(got, "metadata", "annotations"); l != `{"a":"1"}` || a != `{"y":"1"}` {
				c.t.Errorf("deployment status write: labels %s annotations %s; want the stored labels, the request's annotations", l, a)
			}
		}},
	}
}
