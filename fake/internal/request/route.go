package request

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
)

// Info is what a Match is matched against.
type Info struct {
	Verb, Group, Resource, Subresource string
	Namespace, Name                    string
	FieldManager, UserAgent            string
}

// Info describes a routed request.
func (r *Request) Info(req *http.Request) Info {
	ri := Info{Verb: r.Verb, Group: r.Res.Kind.Group, Resource: r.Res.Kind.Resource, Subresource: r.Subresource, Namespace: r.Namespace, Name: r.Name, UserAgent: req.UserAgent()}
	switch r.Verb {
	case "create", "update", "patch":
		ri.FieldManager = WriteManager(req)
	}
	return ri
}

// postSubresource reports whether a POST to a subresource is served.
func postSubresource(r *object.Resource, sub string) bool {
	if r.Custom || r.Kind.Group != "" {
		return false
	}
	switch r.Kind.Resource {
	case "pods":
		return sub == "binding" || sub == "eviction"
	case "serviceaccounts":
		return sub == "token"
	}
	return false
}

// connectSubresource reports whether sub is one of a Pod's streaming
// subresources (pods/log and the ones kube-apiserver proxies to a
// kubelet).
func connectSubresource(r *object.Resource, sub string) bool {
	if r.Custom || r.Kind.Group != "" || r.Kind.Resource != "pods" {
		return false
	}
	switch sub {
	case "log", "exec", "attach", "portforward":
		return true
	}
	return false
}

// PodSpecSubresource reports whether sub is one of the Pod
// subresources read with GET and written with PUT or PATCH that change
// one part of the spec: ephemeralcontainers and resize.
func PodSpecSubresource(r *object.Resource, sub string) bool {
	if r.Custom || r.Kind.Group != "" || r.Kind.Resource != "pods" {
		return false
	}
	return sub == "ephemeralcontainers" || sub == "resize"
}

// Request is a routed API request.
type Request struct {
	Res         *object.Resource
	Namespace   string // namespace from the path ("" for cluster-scoped or all namespaces)
	Name        string
	Subresource string // subresource: "status", "scale", or ""
	ProxyPath   string // a proxy request's path after .../proxy/
	Verb        string // get, list, watch, create, update, patch, delete, deletecollection
	// Warn, when set, adds a Warning header to the response.
	Warn func(msg string)
}

// Route parses /api/v1/... and /apis/GROUP/VERSION/... paths: lookup
// finds a served resource, builtinGroup reports whether a group has
// built-in kinds (paths under other groups get a plain-text 404, as
// kube-apiserver answers them).
func Route(req *http.Request, lookup func(group, version, resource string) *object.Resource, builtinGroup func(string) bool) (*Request, *apierr.Error) {
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	var group, version string
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		version, parts = parts[1], parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		group, version, parts = parts[1], parts[2], parts[3:]
	case len(parts) >= 2 && parts[0] == "apis" && !builtinGroup(parts[1]):
		return nil, apierr.GroupNotFound()
	default:
		return nil, apierr.PathNotFound()
	}
	notFound := apierr.PathNotFound
	if group != "" && !builtinGroup(group) {
		notFound = apierr.GroupNotFound
	}
	watchPath := false
	if parts[0] == "watch" && len(parts) > 1 {
		watchPath, parts = true, parts[1:]
	}
	r := &Request{}
	if len(parts) >= 3 && parts[0] == "namespaces" && parts[2] != "status" && parts[2] != "finalize" {
		r.Namespace, parts = parts[1], parts[2:]
	}
	parts, r.ProxyPath = proxyPath(parts)
	if len(parts) > 3 || parts[0] == "" {
		return nil, notFound()
	}
	r.Res = lookup(group, version, parts[0])
	if r.Res == nil {
		return nil, notFound()
	}
	if len(parts) > 1 {
		r.Name = parts[1]
	}
	if len(parts) > 2 {
		r.Subresource = parts[2]
		if !(r.Subresource == "status" && r.Res.Status) && !(r.Subresource == "scale" && r.Res.Scale) && !(r.Subresource == "finalize" && r.Res.Kind.Group == "" && r.Res.Kind.Resource == "namespaces") && !postSubresource(r.Res, r.Subresource) && !connectSubresource(r.Res, r.Subresource) && !PodSpecSubresource(r.Res, r.Subresource) && !ProxySubresource(r.Res, r.Subresource) {
			return nil, notFound()
		}
	}
	if r.Namespace != "" && !r.Res.Kind.Namespaced {
		return nil, notFound()
	}
	collection := r.Name == ""
	if ProxySubresource(r.Res, r.Subresource) {
		if watchPath || r.Res.Kind.Namespaced && r.Namespace == "" {
			return nil, notFound()
		}
		if r.Verb = proxyVerb(req.Method); r.Verb == "" {
			return nil, apierr.MethodNotAllowed()
		}
		return r, nil
	}
	if connectSubresource(r.Res, r.Subresource) {
		// pods/log is read with GET; exec, attach and portforward are
		// reached with GET (WebSocket) or POST (SPDY), as a create.
		switch {
		case watchPath:
			return nil, notFound()
		case req.Method == http.MethodGet:
			r.Verb = "get"
		case req.Method == http.MethodPost && r.Subresource != "log":
			r.Verb = "create"
		default:
			return nil, apierr.MethodNotAllowed()
		}
		if r.Namespace == "" || r.Name == "" {
			return nil, notFound()
		}
		return r, nil
	}
	switch req.Method {
	case http.MethodGet:
		switch {
		case !collection && !watchPath:
			r.Verb = "get"
		case watchPath || isTrue(req.URL.Query().Get("watch")):
			r.Verb = "watch"
		default:
			r.Verb = "list"
		}
	case http.MethodPost:
		if collection || postSubresource(r.Res, r.Subresource) {
			r.Verb = "create"
		}
	case http.MethodPut:
		if !collection {
			r.Verb = "update"
		}
	case http.MethodPatch:
		if !collection {
			r.Verb = "patch"
		}
	case http.MethodDelete:
		if collection {
			r.Verb = "deletecollection"
		} else {
			r.Verb = "delete"
		}
	}
	if r.Verb == "" || (watchPath && r.Verb != "watch") || r.Subresource == "finalize" && r.Verb != "update" || postSubresource(r.Res, r.Subresource) && r.Verb != "create" || PodSpecSubresource(r.Res, r.Subresource) && r.Verb != "get" && r.Verb != "update" && r.Verb != "patch" {
		return nil, apierr.MethodNotAllowed()
	}
	if r.Res.Kind.Namespaced && r.Namespace == "" && !collection {
		return nil, notFound()
	}
	if (r.Verb == "create" || r.Verb == "deletecollection") && r.Res.Kind.Namespaced && r.Namespace == "" {
		return nil, notFound()
	}
	return r, nil
}

// isTrue reads a boolean query parameter as kube-apiserver's parameter
// codec does (strconv.ParseBool: the Python client sends watch=True).
func isTrue(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && b
}
