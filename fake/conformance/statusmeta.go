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
		{"StatusWriteCreatesMissingService", func(c *client) {
			// A Service's status strategy inherits create on update, so a
			// status PUT of a missing Service creates it, through the
			// create strategy alone: its status starts empty, no cluster
			// IP is allocated (the Service REST's allocation is not on the
			// status path), and managedFields record the status write.
			// Other kinds answer 404 (seeds 73 and 114).
			services := "/api/v1/namespaces/" + c.ns() + "/services"
			name := c.name("ssc")
			svc := map[string]any{
				"metadata": map[string]any{"name": name},
				"spec":     map[string]any{"ports": []any{map[string]any{"port": 80}}, "selector": map[string]any{"app": name}},
				"status":   map[string]any{"loadBalancer": map[string]any{"ingress": []any{map[string]any{"ip": "192.0.2.1"}}}},
			}
			got := c.expect(c.do(req{method: "PUT", path: services + "/" + name + "/status?fieldManager=conformance", body: svc}), http.StatusCreated).obj(c.t)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: services + "/" + name}) })
			if ip, ips, fam := field(got, "spec", "clusterIP"), field(got, "spec", "clusterIPs"), field(got, "spec", "ipFamilies"); ip != "" || ips != "" || fam != "" {
				c.t.Errorf("created by a status write: clusterIP %q clusterIPs %q ipFamilies %q, want none", ip, ips, fam)
			}
			if st, port := field(got, "status"), field(got, "spec", "ports"); st != `{"loadBalancer":{}}` || port != `[{"port":80,"protocol":"TCP","targetPort":80}]` {
				c.t.Errorf("created by a status write: status %s ports %s, want an empty status and the defaulted ports", st, port)
			}
			entries, _ := got["metadata"].(map[string]any)["managedFields"].([]any)
			if len(entries) != 1 {
				c.t.Fatalf("managedFields %s, want one entry", field(got, "metadata", "managedFields"))
			}
			e := entries[0].(map[string]any)
			if m, op, sub, f := field(e, "manager"), field(e, "operation"), field(e, "subresource"), field(e, "fieldsV1"); m != "conformance" || op != "Update" || sub != "status" || f != `{"f:status":{"f:loadBalancer":{"f:ingress":{}}}}` {
				c.t.Errorf("managedFields entry %s %s %s %s, want conformance's status Update of the status alone", m, op, sub, f)
			}
			read := c.expect(c.do(req{method: "GET", path: services + "/" + name}), http.StatusOK).obj(c.t)
			if field(read, "spec", "clusterIP") != "" || rvOf(read) != rvOf(got) {
				c.t.Errorf("read back: clusterIP %q at %s, want none at %s", field(read, "spec", "clusterIP"), rvOf(read), rvOf(got))
			}
			// A status apply creates the same way (seed 114).
			applied := `{"apiVersion":"v1","kind":"Service","metadata":{"name":"` + name + `-a","labels":{"t":"x"}},"spec":{"ports":[{"port":81}]}}`
			got = c.expect(c.do(req{method: "PATCH", path: services + "/" + name + "-a/status?fieldManager=conformance", contentType: "application/apply-patch+yaml", body: applied}), http.StatusCreated).obj(c.t)
			c.t.Cleanup(func() { c.do(req{method: "DELETE", path: services + "/" + name + "-a"}) })
			entries, _ = got["metadata"].(map[string]any)["managedFields"].([]any)
			if len(entries) != 1 || field(got, "spec", "clusterIP") != "" {
				c.t.Fatalf("created by a status apply: managedFields %s clusterIP %q, want one entry and no cluster IP", field(got, "metadata", "managedFields"), field(got, "spec", "clusterIP"))
			}
			e = entries[0].(map[string]any)
			if op, sub, f := field(e, "operation"), field(e, "subresource"), field(e, "fieldsV1"); op != "Apply" || sub != "status" || f != `{"f:metadata":{"f:labels":{"f:t":{}}}}` {
				c.t.Errorf("status apply's managedFields entry %s %s %s, want the labels' status Apply", op, sub, f)
			}
			pods := "/api/v1/namespaces/" + c.ns() + "/pods/"
			c.statusOf(c.do(req{method: "PATCH", path: pods + c.name("ssc-pod") + "/status?fieldManager=conformance", contentType: "application/apply-patch+yaml", body: `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + c.name("ssc-pod") + `"}}`}), http.StatusNotFound, "NotFound")
			c.statusOf(c.do(req{method: "PUT", path: pods + c.name("ssc-pod") + "/status", body: map[string]any{"metadata": map[string]any{"name": c.name("ssc-pod")}}}), http.StatusNotFound, "NotFound")
		}},
	}
}
