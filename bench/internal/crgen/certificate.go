package crgen

import (
	"fmt"
	"strconv"
	"time"
)

// base is the time the held-out objects' times count from.
var base = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// stamp is base plus minutes, as kube-apiserver writes times.
func stamp(minutes int) string {
	return base.Add(time.Duration(minutes) * time.Minute).Format(time.RFC3339)
}

// uid is a uid unique to (kind, i).
func uid(kind, i int) string { return fmt.Sprintf("%08x-7c1d-4e2a-9b3f-%012x", kind, 0x5eed0000+i) }

// certificate is a Certificate as cert-manager's ingress-shim makes it
// for an Ingress, issued: it is owned by the Ingress (whose uid is in
// the spec manager's managedFields entry, so that entry is unique), the
// two status managers' entries repeat, and its names, times and DNS
// names are its own.
func certificate(i int) map[string]any {
	app := fmt.Sprintf("shop-%d", i%50)
	name := fmt.Sprintf("%s-%05d-tls", app, i)
	host := fmt.Sprintf("%s-%05d.shop.example.com", app, i)
	owner := uid(1, i)
	issued := i % 10000
	labels := map[string]any{
		"app.kubernetes.io/name": app, "app.kubernetes.io/instance": app + "-prod",
		"app.kubernetes.io/managed-by": "Helm", "helm.sh/chart": "shop-1.12." + strconv.Itoa(i%4),
	}
	meta := map[string]any{
		"name": name, "namespace": Namespaces()[i%20], "labels": labels,
		"ownerReferences": []any{map[string]any{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "name": app + "-" + strconv.Itoa(i),
			"uid": owner, "controller": true, "blockOwnerDeletion": true}},
		"managedFields": []any{
			managedEntry("cert-manager-ingress-shim", "Update", "cert-manager.io/v1", stamp(issued), "", map[string]any{
				"f:metadata": map[string]any{
					"f:labels":          fieldSet(".", "f:app.kubernetes.io/instance", "f:app.kubernetes.io/managed-by", "f:app.kubernetes.io/name", "f:helm.sh/chart"),
					"f:ownerReferences": fieldSet(".", `k:{"uid":"`+owner+`"}`),
				},
				"f:spec": map[string]any{
					".": map[string]any{}, "f:dnsNames": map[string]any{}, "f:secretName": map[string]any{}, "f:usages": map[string]any{},
					"f:issuerRef":  fieldSet(".", "f:group", "f:kind", "f:name"),
					"f:privateKey": fieldSet(".", "f:algorithm", "f:rotationPolicy", "f:size"),
				},
			}),
			managedEntry("cert-manager-certificates-readiness", "Update", "cert-manager.io/v1", stamp(issued+1), "status", map[string]any{
				"f:status": map[string]any{
					".":            map[string]any{},
					"f:conditions": map[string]any{".": map[string]any{}, `k:{"type":"Ready"}`: fieldSet(".", "f:lastTransitionTime", "f:message", "f:observedGeneration", "f:reason", "f:status", "f:type")},
					"f:notAfter":   map[string]any{}, "f:notBefore": map[string]any{}, "f:renewalTime": map[string]any{},
				},
			}),
			managedEntry("cert-manager-certificates-issuing", "Update", "cert-manager.io/v1", stamp(issued+1), "status", map[string]any{
				"f:status": map[string]any{"f:revision": map[string]any{}},
			}),
		},
	}
	spec := map[string]any{
		"dnsNames":   []any{host},
		"secretName": name,
		"issuerRef":  map[string]any{"group": "cert-manager.io", "kind": "ClusterIssuer", "name": "letsencrypt-prod"},
		"privateKey": map[string]any{"algorithm": "ECDSA", "rotationPolicy": "Always", "size": int64(256)},
		"usages":     []any{"digital signature", "key encipherment"},
	}
	if i%5 == 0 { // some are written by hand, with more
		spec["duration"], spec["renewBefore"] = "2160h0m0s", "360h0m0s"
		spec["secretTemplate"] = map[string]any{"labels": map[string]any{"app.kubernetes.io/name": app}}
		spec["dnsNames"] = []any{host, "www." + host}
	}
	status := map[string]any{
		"conditions": []any{map[string]any{"type": "Ready", "status": "True", "lastTransitionTime": stamp(issued + 1),
			"reason": "Ready", "message": "Certificate is up to date and has not expired", "observedGeneration": int64(1)}},
		"notBefore":   stamp(issued),
		"notAfter":    stamp(issued + 90*24*60),
		"renewalTime": stamp(issued + 60*24*60),
		"revision":    int64(1),
	}
	return map[string]any{"apiVersion": "cert-manager.io/v1", "kind": "Certificate", "metadata": meta, "spec": spec, "status": status}
}

// managedEntry is one managedFields entry.
func managedEntry(manager, op, apiVersion, time, subresource string, fields map[string]any) map[string]any {
	e := map[string]any{"manager": manager, "operation": op, "apiVersion": apiVersion, "time": time, "fieldsType": "FieldsV1", "fieldsV1": fields}
	if subresource != "" {
		e["subresource"] = subresource
	}
	return e
}

// fieldSet is a FieldsV1 set of leaves.
func fieldSet(keys ...string) map[string]any {
	m := make(map[string]any, len(keys))
	for _, k := range keys {
		m[k] = map[string]any{}
	}
	return m
}
