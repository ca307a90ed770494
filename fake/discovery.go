package fake

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// serveDiscovery answers /version, /api, /apis and the group-version
// resource lists from the served resources. It reports whether the path
// was a discovery path.
func (s *Server) serveDiscovery(w http.ResponseWriter, req *http.Request) bool {
	if req.Method != http.MethodGet {
		return false
	}
	path := strings.TrimSuffix(req.URL.Path, "/")
	var body any
	switch {
	case path == "/version":
		body = map[string]string{"major": "1", "minor": "36", "gitVersion": "v1.36.3-kubewire-fake", "platform": "linux/amd64"}
	case path == "/api":
		if s.serveAggregated(w, req, true) {
			return true
		}
		body = map[string]any{"kind": "APIVersions", "versions": []string{"v1"}, "serverAddressByClientCIDRs": []any{}}
	case path == "/apis":
		if s.serveAggregated(w, req, false) {
			return true
		}
		body = s.groupList()
	default:
		parts := strings.Split(strings.Trim(path, "/"), "/")
		switch {
		case len(parts) == 2 && parts[0] == "api":
			body = s.resourceList("", parts[1])
		case len(parts) == 2 && parts[0] == "apis":
			body = s.apiGroup(parts[1])
		case len(parts) == 3 && parts[0] == "apis":
			body = s.resourceList(parts[1], parts[2])
		}
		if body == nil {
			return false
		}
	}
	b, _ := json.Marshal(body)
	s.writeBody(w, req, http.StatusOK, "application/json", b)
	return true
}

// groupVersions returns the served versions of every group (but the
// core one), most preferred first.
func (s *Server) groupVersions() map[string][]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	versions := map[string][]string{}
	for _, r := range s.resources {
		if g := r.kind.Group; g != "" && !slices.Contains(versions[g], r.kind.Version) {
			versions[g] = append(versions[g], r.kind.Version)
		}
	}
	for _, vs := range versions {
		slices.SortFunc(vs, compareVersionPriority)
	}
	return versions
}

// apiGroup is the APIGroup document of a group, or nil.
func (s *Server) apiGroup(group string) any {
	vs := s.groupVersions()[group]
	if len(vs) == 0 {
		return nil
	}
	var list []any
	for _, v := range vs {
		list = append(list, map[string]string{"groupVersion": group + "/" + v, "version": v})
	}
	return map[string]any{"kind": "APIGroup", "apiVersion": "v1", "name": group, "versions": list, "preferredVersion": list[0]}
}

func (s *Server) groupList() any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	versions := map[string][]string{}
	for _, r := range s.resources {
		if g := r.kind.Group; g != "" && !slices.Contains(versions[g], r.kind.Version) {
			versions[g] = append(versions[g], r.kind.Version)
		}
	}
	var groups []any
	names := make([]string, 0, len(versions))
	for g := range versions {
		names = append(names, g)
	}
	slices.Sort(names)
	for _, g := range names {
		vs := versions[g]
		slices.SortFunc(vs, compareVersionPriority)
		var list []any
		for _, v := range vs {
			list = append(list, map[string]string{"groupVersion": g + "/" + v, "version": v})
		}
		groups = append(groups, map[string]any{"name": g, "versions": list, "preferredVersion": list[0]})
	}
	return map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}
}

// storageVersionHash is kube-apiserver's hash of the group, version and
// kind a resource is stored as.
func storageVersionHash(group, version, kind string) string {
	sum := sha256.Sum256([]byte(group + "/" + version + "/" + kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}

// resourceList is the APIResourceList of a group version, or nil.
func (s *Server) resourceList(group, version string) any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var rs []any
	for _, r := range s.resources {
		k := r.kind
		if k.Group != group || k.Version != version {
			continue
		}
		entry := map[string]any{"name": k.Resource, "singularName": k.SingularResource, "namespaced": k.Namespaced, "kind": k.Kind, "verbs": k.Verbs,
			"storageVersionHash": storageVersionHash(k.Group, r.storageVersion(), k.Kind)}
		if len(k.ShortNames) > 0 {
			entry["shortNames"] = k.ShortNames
		}
		if len(k.Categories) > 0 {
			entry["categories"] = k.Categories
		}
		rs = append(rs, entry)
		for _, sub := range r.subresources() {
			entry := map[string]any{"name": k.Resource + "/" + sub.name, "singularName": "", "namespaced": k.Namespaced, "kind": k.Kind, "verbs": []string{"get", "patch", "update"}}
			if sub.kind.Kind != "" {
				entry["group"], entry["version"], entry["kind"] = sub.kind.Group, sub.kind.Version, sub.kind.Kind
			}
			rs = append(rs, entry)
		}
	}
	if rs == nil {
		return nil
	}
	// Resources by name, each followed by its subresources in their
	// own order.
	slices.SortStableFunc(rs, func(a, b any) int {
		na, _, _ := strings.Cut(a.(map[string]any)["name"].(string), "/")
		nb, _, _ := strings.Cut(b.(map[string]any)["name"].(string), "/")
		return strings.Compare(na, nb)
	})
	gv := version
	if group != "" {
		gv = group + "/" + version
	}
	return map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": gv, "resources": rs}
}
