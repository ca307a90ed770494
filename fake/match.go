package fake

import (
	"slices"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/request"
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

func (m *Match) matches(ri request.Info) bool {
	if len(m.Verbs) > 0 && !slices.Contains(m.Verbs, ri.Verb) {
		return false
	}
	if m.Resource != "" {
		name, group, qualified := strings.Cut(m.Resource, ".")
		if name != ri.Resource || qualified && group != ri.Group {
			return false
		}
	}
	switch m.Subresource {
	case "":
	case "-":
		if ri.Subresource != "" {
			return false
		}
	default:
		if m.Subresource != ri.Subresource {
			return false
		}
	}
	if m.Namespace != "" && m.Namespace != ri.Namespace || m.Name != "" && m.Name != ri.Name {
		return false
	}
	if m.FieldManager != "" && m.FieldManager != ri.FieldManager {
		return false
	}
	if m.UserAgent != "" {
		program, _, _ := strings.Cut(ri.UserAgent, "/")
		if m.UserAgent != ri.UserAgent && m.UserAgent != program {
			return false
		}
	}
	return true
}
