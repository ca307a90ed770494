package request

import (
	"net/http"

	"github.com/kubewire/kubewire/fake/internal/object"
)

// ProxySubresource reports whether sub is the proxy subresource of r:
// pods/proxy, services/proxy and nodes/proxy, the ones kube-apiserver
// serves (and its discovery lists).
func ProxySubresource(r *object.Resource, sub string) bool {
	if sub != "proxy" || r.Custom || r.Kind.Group != "" {
		return false
	}
	switch r.Kind.Resource {
	case "pods", "services", "nodes":
		return true
	}
	return false
}

// proxyPath splits a path's parts after its namespace into the
// resource, name and "proxy" and the rest, the path a proxy request
// forwards (kube-apiserver's {name}/proxy/{path:*} route).
func proxyPath(parts []string) (head []string, rest string) {
	if len(parts) <= 3 || parts[2] != "proxy" {
		return parts, ""
	}
	rest = parts[3]
	for _, p := range parts[4:] {
		rest += "/" + p
	}
	return parts[:3], rest
}

// proxyVerb is the verb a proxy request is authorized as, by its
// method (kube-apiserver serves GET, HEAD, OPTIONS, POST, PUT, PATCH
// and DELETE on proxy paths).
func proxyVerb(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return "get"
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	case http.MethodPatch:
		return "patch"
	case http.MethodDelete:
		return "delete"
	}
	return ""
}
