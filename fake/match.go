package fake

import (
	"net/http"
	"slices"
	"strings"
)

// Match selects requests by what they are about, for Faults.Add and
// AdmissionHook. Every field that is set must match; the zero Match
// matches every request.
type Match struct {
	// Verbs are request verbs: get, list, watch, create, update, patch,
	// delete, deletecollection.
	Verbs []string
	// Resource is a resource's plural name ("pods", matching pods of any
	// group) or its name qualified by its group ("deployments.apps"),
	// as kubectl names them.
	Resource string
	// Subresource is "status", "scale", ...; "-" matches only requests
	// to the main resource.
	Subresource string
	// Namespace and Name of the object or collection. A create's path
	// names no object: faults match creates only without a Name, hooks
	// match them by the name in their body.
	Namespace, Name string
	// FieldManager is the manager of a write (?fieldManager=, else the
	// User-Agent's program name); reads never match one.
	FieldManager string
	// UserAgent matches the User-Agent header or its program name (the
	// part before the first "/").
	UserAgent string
}

// requestInfo is what a Match is matched against.
type requestInfo struct {
	verb, group, resource, subresource string
	namespace, name                    string
	fieldManager, userAgent            string
}

// info describes a routed request.
func (r *request) info(req *http.Request) requestInfo {
	ri := requestInfo{verb: r.verb, group: r.res.Kind.Group, resource: r.res.Kind.Resource, subresource: r.sub, namespace: r.ns, name: r.name, userAgent: req.UserAgent()}
	switch r.verb {
	case "create", "update", "patch":
		ri.fieldManager = writeManager(req)
	}
	return ri
}

func (m *Match) matches(ri requestInfo) bool {
	if len(m.Verbs) > 0 && !slices.Contains(m.Verbs, ri.verb) {
		return false
	}
	if m.Resource != "" {
		name, group, qualified := strings.Cut(m.Resource, ".")
		if name != ri.resource || qualified && group != ri.group {
			return false
		}
	}
	switch m.Subresource {
	case "":
	case "-":
		if ri.subresource != "" {
			return false
		}
	default:
		if m.Subresource != ri.subresource {
			return false
		}
	}
	if m.Namespace != "" && m.Namespace != ri.namespace || m.Name != "" && m.Name != ri.name {
		return false
	}
	if m.FieldManager != "" && m.FieldManager != ri.fieldManager {
		return false
	}
	if m.UserAgent != "" {
		program, _, _ := strings.Cut(ri.userAgent, "/")
		if m.UserAgent != ri.userAgent && m.UserAgent != program {
			return false
		}
	}
	return true
}
