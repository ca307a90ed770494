package discovery

import (
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	apidiscoveryv2 "github.com/kubewire/kubewire/api/apidiscovery/v2"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// Aggregated discovery (apidiscovery.k8s.io/v2) is what /api and /apis
// answer, unless Options.LegacyDiscoveryOnly is set, when the Accept
// header asks for it with
// `as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2`: every group,
// version and resource in one document, with an ETag. Any other Accept
// gets the legacy APIVersions or APIGroupList.

const asGroupDiscoveryList = "APIGroupDiscoveryList"

// aggregatedOffers are the representations of /api and /apis, in the
// order kube-apiserver prefers them.
func aggregatedOffers() []codec.MediaType {
	jsonT, pbT := request.MediaType("application", "json"), request.MediaType("application", "vnd.kubernetes.protobuf")
	agg := func(m codec.MediaType) codec.MediaType {
		return m.With(codec.ParamGroup, apidiscoveryv2.GroupName).With(codec.ParamVersion, "v2").With(codec.ParamAs, asGroupDiscoveryList)
	}
	return []codec.MediaType{jsonT, agg(jsonT), agg(pbT)}
}

// serveAggregated answers /api or /apis with aggregated discovery when the
// Accept header asks for it. It reports whether it answered.
func (s *Server) serveAggregated(w http.ResponseWriter, req *http.Request, legacy bool) bool {
	if s.LegacyOnly {
		return false
	}
	accept, err := codec.ParseAccept(req.Header.Get("Accept"))
	if err != nil {
		return false
	}
	mt, ok := codec.Negotiate(accept, aggregatedOffers())
	if !ok || mt.Param(codec.ParamAs) != asGroupDiscoveryList {
		return false
	}
	list, err := s.groupDiscovery(legacy)
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
		return true
	}
	var body []byte
	if mt.IsProtobuf() {
		body, err = codec.EncodeProtobuf(apidiscoveryv2.GroupName+"/v2", asGroupDiscoveryList, list)
	} else {
		body, err = json.Marshal(list)
	}
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
		return true
	}
	sum := sha512.Sum512(body)
	etag := strconv.Quote(strings.ToUpper(hex.EncodeToString(sum[:])))
	h := w.Header()
	h.Set("Vary", "Accept")
	h.Set("Etag", etag)
	if match := req.Header.Get("If-None-Match"); match != "" && match == etag {
		h.Set("Cache-Control", "public")
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	h.Set("Cache-Control", "public")
	bw := request.StartBody(w, req, http.StatusOK, mt.String(), len(body), s.GzipThreshold)
	_, _ = bw.Write(body)
	_ = bw.Close()
	return true
}

// groupDiscovery builds the APIGroupDiscoveryList of the core group
// (legacy, /api) or of every other group (/apis): kube-apiserver's
// recorded document, then custom resource groups by name, as
// kube-apiserver lists CRDs after its own groups; versions by
// preference, newest first.
func (s *Server) groupDiscovery(legacy bool) (*apidiscoveryv2.APIGroupDiscoveryList, error) {
	list, err := s.Docs.aggregated(legacy)
	if err != nil || legacy {
		return list, err
	}
	type groupVersion struct{ group, version string }
	byGV := map[groupVersion][]*object.Resource{}
	for _, r := range s.Resources() {
		if !r.Custom || s.BuiltinGroup(r.Kind.Group) {
			continue
		}
		gv := groupVersion{r.Kind.Group, r.Kind.Version}
		byGV[gv] = append(byGV[gv], r)
	}
	versions := map[string][]string{}
	for gv := range byGV {
		versions[gv.group] = append(versions[gv.group], gv.version)
	}
	groups := make([]string, 0, len(versions))
	for g := range versions {
		groups = append(groups, g)
	}
	slices.Sort(groups)
	for _, g := range groups {
		vs := versions[g]
		slices.SortFunc(vs, CompareVersionPriority)
		item := apidiscoveryv2.APIGroupDiscovery{ObjectMeta: metav1.ObjectMeta{Name: g}}
		for _, v := range vs {
			rs := byGV[groupVersion{g, v}]
			slices.SortFunc(rs, func(a, b *object.Resource) int { return strings.Compare(a.Kind.Resource, b.Kind.Resource) })
			vd := apidiscoveryv2.APIVersionDiscovery{Version: v, Freshness: apidiscoveryv2.DiscoveryFreshnessCurrent}
			for _, r := range rs {
				vd.Resources = append(vd.Resources, resourceDiscovery(r))
			}
			item.Versions = append(item.Versions, vd)
		}
		list.Items = append(list.Items, item)
	}
	return list, nil
}

// discovery is the resource's aggregated discovery entry. Built-in kinds
// name their response kind without group and version (the group
// version's own), custom resources name it in full, as kube-apiserver
// does.
func resourceDiscovery(r *object.Resource) apidiscoveryv2.APIResourceDiscovery {
	k := r.Kind
	self := &metav1.GroupVersionKind{Kind: k.Kind}
	if r.Custom {
		self.Group, self.Version = k.Group, k.Version
	}
	scope := apidiscoveryv2.ScopeCluster
	if k.Namespaced {
		scope = apidiscoveryv2.ScopeNamespace
	}
	d := apidiscoveryv2.APIResourceDiscovery{
		Resource:         k.Resource,
		ResponseKind:     self,
		Scope:            scope,
		SingularResource: k.SingularResource,
		Verbs:            slices.Clone(k.Verbs),
		ShortNames:       slices.Clone(k.ShortNames),
		Categories:       slices.Clone(k.Categories),
	}
	for _, sub := range servedSubresources(r) {
		sd := apidiscoveryv2.APISubresourceDiscovery{Subresource: sub.name, Verbs: []string{"get", "patch", "update"}}
		if sub.kind.Kind == "" {
			kind := *self
			sd.ResponseKind = &kind
		} else {
			kind := sub.kind
			sd.ResponseKind = &kind
		}
		d.Subresources = append(d.Subresources, sd)
	}
	return d
}

// servedSubresource is a subresource the fake serves; kind is empty when
// it answers with the resource's own kind.
type servedSubresource struct {
	name string
	kind metav1.GroupVersionKind
}

// subresources lists the subresources the fake serves for r, in the
// order kube-apiserver lists them: by name for built-in kinds, status
// before scale for custom resources.
func servedSubresources(r *object.Resource) []servedSubresource {
	var out []servedSubresource
	if r.Scale {
		out = append(out, servedSubresource{name: "scale", kind: metav1.GroupVersionKind{Group: "autoscaling", Version: "v1", Kind: "Scale"}})
	}
	if r.Status {
		out = append(out, servedSubresource{name: "status"})
	}
	if r.Custom {
		slices.Reverse(out)
	}
	return out
}

// CompareVersionPriority orders API versions as kube-apiserver prefers
// them: GA before beta before alpha, then higher numbers first; versions
// that do not look like Kubernetes versions come last, by name.
func CompareVersionPriority(a, b string) int {
	ka, kb := versionKey(a), versionKey(b)
	for i := range ka {
		if ka[i] != kb[i] {
			return kb[i] - ka[i]
		}
	}
	return strings.Compare(a, b)
}

// versionKey is {level, major, minor}: level 3 for GA, 2 beta, 1 alpha,
// 0 for anything else.
func versionKey(v string) [3]int {
	rest, ok := strings.CutPrefix(v, "v")
	if !ok {
		return [3]int{}
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	major, err := strconv.Atoi(rest[:i])
	if err != nil || major == 0 {
		return [3]int{}
	}
	rest = rest[i:]
	if rest == "" {
		return [3]int{3, major, 0}
	}
	level := 0
	switch {
	case strings.HasPrefix(rest, "beta"):
		level, rest = 2, rest[len("beta"):]
	case strings.HasPrefix(rest, "alpha"):
		level, rest = 1, rest[len("alpha"):]
	default:
		return [3]int{}
	}
	minor, err := strconv.Atoi(rest)
	if err != nil || minor == 0 {
		return [3]int{}
	}
	return [3]int{level, major, minor}
}
