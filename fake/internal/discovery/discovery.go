package discovery

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// Serve answers /version, /api, /apis, /apis/GROUP and the group
// version resource lists: built-in groups with kube-apiserver's recorded
// documents (package upstream), custom resource groups from the served
// resources. It reports whether the path was a discovery path.
func (s *Server) Serve(w http.ResponseWriter, req *http.Request) bool {
	if req.Method != http.MethodGet {
		return false
	}
	path := strings.TrimSuffix(req.URL.Path, "/")
	if s.serveInfo(w, req, path) {
		return true
	}
	docs, err := s.Docs.discovery()
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
		return true
	}
	var body []byte
	switch {
	case path == "/version":
		// kube-apiserver indents /version whatever the request says.
		request.WriteRawBody(w, req, http.StatusOK, "application/json", request.Indent(docs.Version), s.GzipThreshold)
		return true
	case path == "/api":
		if s.serveAggregated(w, req, true) {
			return true
		}
		body = s.apiVersions(req)
	case path == "/apis":
		if s.serveAggregated(w, req, false) {
			return true
		}
		body = s.groupList()
	default:
		if b, ok := docs.Paths[path]; ok {
			body = b
			break
		}
		parts := strings.Split(strings.Trim(path, "/"), "/")
		var v any
		switch {
		case len(parts) == 2 && parts[0] == "apis" && !s.BuiltinGroup(parts[1]):
			v = s.apiGroup(parts[1])
		case len(parts) == 3 && parts[0] == "apis" && !s.BuiltinGroup(parts[1]):
			v = s.resourceList(parts[1], parts[2])
		}
		if v == nil {
			return false
		}
		body, _ = json.Marshal(v)
	}
	request.WriteBody(w, req, http.StatusOK, "application/json", body, s.GzipThreshold)
	return true
}

// apiVersions is /api's APIVersions, naming the address the server
// listens on as its address for every client.
func (s *Server) apiVersions(req *http.Request) []byte {
	addr := req.Host
	if a, ok := s.Addr().(*net.TCPAddr); ok {
		addr = a.String()
	}
	b, _ := json.Marshal(map[string]any{
		"kind": "APIVersions", "versions": []string{"v1"},
		"serverAddressByClientCIDRs": []any{map[string]string{"clientCIDR": "0.0.0.0/0", "serverAddress": addr}},
	})
	return b
}

// customGroupVersions returns the served versions of every custom
// resource group, most preferred first.
func (s *Server) customGroupVersions() map[string][]string {
	versions := map[string][]string{}
	for _, r := range s.Resources() {
		if g := r.Kind.Group; r.Custom && !s.BuiltinGroup(g) && !slices.Contains(versions[g], r.Kind.Version) {
			versions[g] = append(versions[g], r.Kind.Version)
		}
	}
	for _, vs := range versions {
		slices.SortFunc(vs, CompareVersionPriority)
	}
	return versions
}

// apiGroup is the APIGroup document of a custom resource group, or nil.
func (s *Server) apiGroup(group string) any {
	vs := s.customGroupVersions()[group]
	if len(vs) == 0 {
		return nil
	}
	g := groupEntry(group, vs)
	g["kind"], g["apiVersion"] = "APIGroup", "v1"
	return g
}

func groupEntry(group string, versions []string) map[string]any {
	var list []any
	for _, v := range versions {
		list = append(list, map[string]string{"groupVersion": group + "/" + v, "version": v})
	}
	return map[string]any{"name": group, "versions": list, "preferredVersion": list[0]}
}

// groupList is /apis's APIGroupList: kube-apiserver's groups in its
// order, then custom resource groups by name (their APIServices have a
// lower priority than every built-in group's).
func (s *Server) groupList() []byte {
	docs, _ := s.Docs.discovery()
	var list struct {
		Kind       string            `json:"kind"`
		APIVersion string            `json:"apiVersion"`
		Groups     []json.RawMessage `json:"groups"`
	}
	_ = json.Unmarshal(docs.Paths["/apis"], &list)
	custom := s.customGroupVersions()
	names := make([]string, 0, len(custom))
	for g := range custom {
		names = append(names, g)
	}
	slices.Sort(names)
	for _, g := range names {
		b, _ := json.Marshal(groupEntry(g, custom[g]))
		list.Groups = append(list.Groups, b)
	}
	b, _ := json.Marshal(list)
	return b
}

// storageVersionHash is kube-apiserver's hash of the group, version and
// kind a resource is stored as.
func storageVersionHash(group, version, kind string) string {
	sum := sha256.Sum256([]byte(group + "/" + version + "/" + kind))
	return base64.StdEncoding.EncodeToString(sum[:8])
}

// resourceList is the APIResourceList of a custom resource group
// version, or nil.
func (s *Server) resourceList(group, version string) any {
	var rs []any
	for _, r := range s.Resources() {
		k := r.Kind
		if k.Group != group || k.Version != version || !r.Custom {
			continue
		}
		entry := map[string]any{"name": k.Resource, "singularName": k.SingularResource, "namespaced": k.Namespaced, "kind": k.Kind, "verbs": k.Verbs,
			"storageVersionHash": storageVersionHash(k.Group, r.StorageVersion(), k.Kind)}
		if len(k.ShortNames) > 0 {
			entry["shortNames"] = k.ShortNames
		}
		if len(k.Categories) > 0 {
			entry["categories"] = k.Categories
		}
		rs = append(rs, entry)
		for _, sub := range servedSubresources(r) {
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
	return map[string]any{"kind": "APIResourceList", "apiVersion": "v1", "groupVersion": group + "/" + version, "resources": rs}
}
