package main

import (
	"net/http"
	"strconv"
	"strings"
)

// requestInfo is what a request does to which resource, as
// kube-apiserver's authorization sees it.
type requestInfo struct {
	resource    bool   // a resource request (not discovery, /version, /openapi...)
	verb        string // get, list, watch, create, update, patch, delete, deletecollection
	group       string
	resourceKey string // "pods" or "deployments.apps"
	subresource string
}

// parseRequest reads a request's verb and resource from its method and
// path (/api/v1/namespaces/NS/RESOURCE/NAME/SUB or
// /apis/GROUP/VERSION/...).
func parseRequest(req *http.Request) requestInfo {
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	var group string
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		parts = parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		group = parts[1]
		parts = parts[3:]
	default:
		return requestInfo{}
	}
	// namespaces/NS/RESOURCE... but not the namespaces resource itself
	// (namespaces/NAME and namespaces/NAME/status or finalize).
	if len(parts) >= 3 && parts[0] == "namespaces" && parts[2] != "status" && parts[2] != "finalize" {
		parts = parts[2:]
	}
	info := requestInfo{resource: true, group: group, resourceKey: parts[0]}
	if group != "" {
		info.resourceKey += "." + group
	}
	named := len(parts) >= 2
	if len(parts) >= 3 {
		info.subresource = parts[2]
	}
	watch, _ := strconv.ParseBool(req.URL.Query().Get("watch"))
	switch req.Method {
	case http.MethodGet, http.MethodHead:
		switch {
		case watch:
			info.verb = "watch"
		case named:
			info.verb = "get"
		default:
			info.verb = "list"
		}
	case http.MethodPost:
		info.verb = "create"
	case http.MethodPut:
		info.verb = "update"
	case http.MethodPatch:
		info.verb = "patch"
	case http.MethodDelete:
		if named {
			info.verb = "delete"
		} else {
			info.verb = "deletecollection"
		}
	}
	return info
}
