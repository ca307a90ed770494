package crgen

import (
	"fmt"
	"strconv"
)

// virtualService is an Istio VirtualService of a service behind the
// public gateway and in the mesh: 3-8 HTTP routes (a canary split by a
// header, prefix routes with weighted subsets, retries and timeouts, a
// fault on some, CORS on the public API), many small structs of ports,
// weights, attempts and percentages; istiod's Reconciled condition.
func virtualService(i int) map[string]any {
	svc := fmt.Sprintf("shop-%d", i%50)
	ns := Namespaces()[i%20]
	name := fmt.Sprintf("%s-%05d", svc, i)
	host := name + "." + ns + ".svc.cluster.local"
	dest := func(subset string, port int64) map[string]any {
		return map[string]any{"host": host, "subset": subset, "port": map[string]any{"number": port}}
	}
	retries := map[string]any{"attempts": int64(3), "perTryTimeout": "2s", "retryOn": "5xx,reset,connect-failure,refused-stream"}
	canary := int64(5 + i%4*5)
	http := []any{
		map[string]any{
			"name":    "canary-header",
			"match":   []any{map[string]any{"headers": map[string]any{"x-canary": map[string]any{"exact": "true"}}, "uri": map[string]any{"prefix": "/"}}},
			"route":   []any{map[string]any{"destination": dest("v2", 8080)}},
			"retries": retries, "timeout": "10s",
		},
	}
	routesN := 2 + i%6
	for r := 0; r < routesN; r++ {
		route := routes[(r+i)%len(routes)]
		h := map[string]any{
			"name":  "api-" + route,
			"match": []any{map[string]any{"uri": map[string]any{"prefix": "/api/v1/" + route}, "ignoreUriCase": true}, map[string]any{"uri": map[string]any{"regex": "^/api/v[0-9]+/" + route + "(/.*)?$"}, "method": map[string]any{"exact": "GET"}}},
			"route": []any{
				map[string]any{"destination": dest("v1", 8080), "weight": 100 - canary},
				map[string]any{"destination": dest("v2", 8080), "weight": canary, "headers": map[string]any{"response": map[string]any{"set": map[string]any{"x-served-by": "v2"}}}},
			},
			"timeout": strconv.Itoa(5+r%3*5) + "s", "retries": retries,
			"headers": map[string]any{"request": map[string]any{"set": map[string]any{"x-shop-route": route, "x-shop-team": fmt.Sprintf("team-%d", i%20)}, "remove": []any{"x-debug"}}},
		}
		if r == 0 {
			h["corsPolicy"] = map[string]any{
				"allowOrigins":     []any{map[string]any{"exact": "https://" + name + ".shop.example.com"}, map[string]any{"regex": "https://.*\\.shop\\.example\\.com"}},
				"allowMethods":     []any{"GET", "POST", "PUT", "DELETE", "OPTIONS"},
				"allowHeaders":     []any{"authorization", "content-type", "x-request-id"},
				"maxAge":           "24h",
				"allowCredentials": true,
			}
		}
		if (i+r)%7 == 0 {
			h["fault"] = map[string]any{
				"delay": map[string]any{"fixedDelay": "500ms", "percentage": map[string]any{"value": 0.5}},
				"abort": map[string]any{"httpStatus": int64(503), "percentage": map[string]any{"value": 0.1}},
			}
		}
		if r == 1 && i%3 == 0 {
			h["mirror"] = map[string]any{"host": svc + "-shadow." + ns + ".svc.cluster.local", "port": map[string]any{"number": int64(8080)}}
			h["mirrorPercentage"] = map[string]any{"value": 12.5}
		}
		http = append(http, h)
	}
	http = append(http, map[string]any{"name": "default", "route": []any{map[string]any{"destination": dest("v1", 8080)}}, "timeout": "15s", "retries": retries})
	created := i % 10000
	meta := map[string]any{
		"name": name, "namespace": ns,
		"labels":      map[string]any{"app.kubernetes.io/name": svc, "app.kubernetes.io/managed-by": "Helm", "helm.sh/chart": "shop-1.12." + strconv.Itoa(i%4)},
		"annotations": map[string]any{"meta.helm.sh/release-name": svc + "-prod", "meta.helm.sh/release-namespace": ns},
		"managedFields": []any{
			managedEntry("helm", "Update", "networking.istio.io/v1", stamp(created), "", map[string]any{
				"f:metadata": map[string]any{"f:annotations": fieldSet(".", "f:meta.helm.sh/release-name", "f:meta.helm.sh/release-namespace"),
					"f:labels": fieldSet(".", "f:app.kubernetes.io/managed-by", "f:app.kubernetes.io/name", "f:helm.sh/chart")},
				"f:spec": fieldSet(".", "f:gateways", "f:hosts", "f:http"),
			}),
			managedEntry("pilot-discovery", "Update", "networking.istio.io/v1", stamp(created+1), "status", map[string]any{
				"f:status": fieldSet(".", "f:conditions"),
			}),
		},
	}
	spec := map[string]any{
		"hosts":    []any{host, name + ".shop.example.com"},
		"gateways": []any{"istio-ingress/public-gateway", "mesh"},
		"http":     http,
	}
	if i%10 == 0 {
		spec["tcp"] = []any{map[string]any{"match": []any{map[string]any{"port": int64(5432)}}, "route": []any{map[string]any{"destination": map[string]any{"host": svc + "-db." + ns + ".svc.cluster.local", "port": map[string]any{"number": int64(5432)}}, "weight": int64(100)}}}}
	}
	status := map[string]any{"conditions": []any{map[string]any{"type": "Reconciled", "status": "True", "lastProbeTime": stamp(created + 1), "lastTransitionTime": stamp(created + 1),
		"message": "Configuration has been reconciled by istiod"}}}
	return map[string]any{"apiVersion": "networking.istio.io/v1", "kind": "VirtualService", "metadata": meta, "spec": spec, "status": status}
}
