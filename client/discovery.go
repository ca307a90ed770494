package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	apidiscoveryv2 "github.com/kubewire/kubewire/api/apidiscovery/v2"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
	"golang.org/x/sync/errgroup"
)

// acceptAggregated asks for aggregated discovery (apidiscovery.k8s.io/v2)
// and falls back to the legacy documents of servers without it.
const acceptAggregated = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList, application/json"

// APIResource is one resource the server serves, from discovery.
type APIResource struct {
	GroupVersionResource
	Kind       string
	Namespaced bool
	Verbs      []string
	ShortNames []string
	// Subresources are the subresources discovery lists for it
	// ("status", "scale"...), empty when it lists none.
	Subresources []string
}

// Mapping is where a kind is served: its resource and scope.
type Mapping struct {
	GroupVersionResource
	Kind       string
	Namespaced bool
}

// ErrNoMapping is matched when discovery does not know a kind, even after
// refreshing.
var ErrNoMapping = errors.New("no resource serves this kind")

// discoveryState is one discovery of the server: its resources with, for
// each group, the preferred version's first, and the group versions it
// could not read.
type discoveryState struct {
	resources []APIResource
	failures  []DiscoveryFailure
	fetched   time.Time // when the fetch began
}

// discoveryRetryInterval is how long a discovery that could not read
// some group versions is served from the cache before ServerResources
// fetches again: an aggregated API that was down (metrics-server
// restarting) is seen once it is back, and one that stays down costs a
// fetch per interval, not one per call.
const discoveryRetryInterval = 10 * time.Second

// fresh reports whether st may still be served from the cache.
func (st *discoveryState) fresh() bool {
	return len(st.failures) == 0 || time.Since(st.fetched) < discoveryRetryInterval
}

// err is the discovery's error for the group versions it could not read.
func (st *discoveryState) err() error {
	if len(st.failures) == 0 {
		return nil
	}
	return &GroupDiscoveryError{Failures: st.failures}
}

// ServerResources returns every resource the server serves (top-level
// resources, not subresources), from the cache or, on first use, from the
// server: aggregated discovery when it has it, else the legacy documents
// (/api, /apis and one per group version). Concurrent callers share one
// fetch. The slice is shared: do not modify it.
//
// When some group versions could not be read (an aggregated API whose
// server is down, or marked Stale), it returns the resources of the
// others with an error matching ErrGroupDiscoveryFailed that names
// them. That discovery is cached for 10 seconds (or until
// InvalidateDiscovery, or a Mapping miss, refreshes it); a call after
// that fetches again, so that a group back up is seen. If that fetch
// fails, the cached resources are returned, with an error matching both
// ErrGroupDiscoveryFailed and the fetch's error.
func (c *Client) ServerResources(ctx context.Context) ([]APIResource, error) {
	c.discoveryMu.Lock()
	st := c.discoveryCache
	c.discoveryMu.Unlock()
	if st != nil && st.fresh() {
		return st.resources, st.err()
	}
	got, err := c.refreshDiscovery(ctx)
	if err != nil {
		if st != nil && ctx.Err() == nil {
			// The partial discovery cached is still the best answer.
			return st.resources, errors.Join(st.err(), err)
		}
		return nil, err
	}
	return got.resources, got.err()
}

// InvalidateDiscovery drops the discovery cache; the next lookup fetches.
func (c *Client) InvalidateDiscovery() {
	c.discoveryMu.Lock()
	c.discoveryCache = nil
	c.discoveryMu.Unlock()
}

// discoveryFetch is one fetch of discovery shared by the callers waiting
// for it. It runs on its own context, cancelled when the last waiter
// leaves: one caller leaving does not fail the others, and a fetch nobody
// waits for any more stops instead of going on request after request.
type discoveryFetch struct {
	cancel  context.CancelFunc
	waiters int // guarded by Client.discoveryMu
	done    chan struct{}
	st      *discoveryState // set before done closes
	err     error
}

// refreshDiscovery fetches discovery, joining the fetch under way if any.
func (c *Client) refreshDiscovery(ctx context.Context) (*discoveryState, error) {
	c.discoveryMu.Lock()
	f := c.discoveryFetch
	if f == nil {
		fctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &discoveryFetch{cancel: cancel, done: make(chan struct{})}
		c.discoveryFetch = f
		go c.runDiscoveryFetch(fctx, f)
	}
	f.waiters++
	c.discoveryMu.Unlock()
	select {
	case <-f.done:
		return f.st, f.err
	case <-ctx.Done():
		c.discoveryMu.Lock()
		if f.waiters--; f.waiters == 0 && c.discoveryFetch == f {
			c.discoveryFetch = nil // the next caller starts afresh
			f.cancel()
		}
		c.discoveryMu.Unlock()
		return nil, ctx.Err()
	}
}

func (c *Client) runDiscoveryFetch(ctx context.Context, f *discoveryFetch) {
	st, err := c.fetchDiscovery(ctx)
	c.discoveryMu.Lock()
	if err == nil {
		c.discoveryCache = st
	}
	if c.discoveryFetch == f {
		c.discoveryFetch = nil
	}
	f.st, f.err = st, err
	c.discoveryMu.Unlock()
	f.cancel()
	close(f.done)
}

// Mapping finds the resource serving kind in group and version (an empty
// version picks the group's preferred one). On a miss it refreshes the
// cache once (the kind may be a custom resource defined since) before
// returning ErrNoMapping, or, when discovery could not read the group
// (an aggregated API that is down), an error matching
// ErrGroupDiscoveryFailed.
func (c *Client) Mapping(ctx context.Context, group, version, kind string) (Mapping, error) {
	r, err := c.discoveredKind(ctx, group, version, kind)
	if err != nil {
		return Mapping{}, err
	}
	return Mapping{GroupVersionResource: r.GroupVersionResource, Kind: r.Kind, Namespaced: r.Namespaced}, nil
}

// discoveredKind is the resource serving kind, as Mapping finds it.
func (c *Client) discoveredKind(ctx context.Context, group, version, kind string) (APIResource, error) {
	if _, err := c.ServerResources(ctx); err != nil && !errors.Is(err, ErrGroupDiscoveryFailed) {
		return APIResource{}, err
	}
	for attempt := 0; ; attempt++ {
		c.discoveryMu.Lock()
		st := c.discoveryCache
		c.discoveryMu.Unlock()
		if st != nil {
			for _, r := range st.resources {
				if r.Group == group && r.Kind == kind && (version == "" || r.Version == version) {
					return r, nil
				}
			}
		}
		if attempt == 1 {
			name := strings.TrimPrefix(group+"/"+version, "/")
			if st != nil {
				if err := failuresIn(st.failures, group, version); err != nil {
					return APIResource{}, fmt.Errorf("client: kind %q in %q: %w", kind, name, err)
				}
			}
			return APIResource{}, fmt.Errorf("client: kind %q in %q: %w", kind, name, ErrNoMapping)
		}
		if _, err := c.refreshDiscovery(ctx); err != nil {
			return APIResource{}, err
		}
	}
}

// DynamicFor returns the Dynamic Resource serving kind in group and
// version (empty: preferred), found through discovery, with its scope
// known (Get on a namespaced kind then needs a namespace) and its
// subresources: a status write to a kind that discovery lists without
// a status subresource is refused before any request, naming the kind.
func DynamicFor(ctx context.Context, c *Client, group, version, kind string) (*Resource[*unstructured.Unstructured], error) {
	m, err := c.discoveredKind(ctx, group, version, kind)
	if err != nil {
		return nil, err
	}
	r := Dynamic(c, m.GroupVersionResource)
	r.info.kind, r.info.namespaced, r.info.scopeKnown = m.Kind, m.Namespaced, true
	r.info.status = statusKnownOf(m.Subresources)
	return r, nil
}

func (c *Client) fetchDiscovery(ctx context.Context) (*discoveryState, error) {
	st := &discoveryState{fetched: time.Now()}
	for _, root := range []string{"/api", "/apis"} {
		resp, err := c.do(ctx, &request{method: "GET", path: root, accept: acceptAggregated})
		if errors.Is(err, ErrNotAcceptable) {
			// A server or proxy refusing the aggregated type instead of
			// answering the JSON the header also accepts.
			resp, err = c.do(ctx, &request{method: "GET", path: root, accept: codec.MediaTypeJSON})
		}
		if err != nil {
			return nil, fmt.Errorf("client: discovery %s: %w", root, err)
		}
		var probe struct {
			Kind string `json:"kind"`
		}
		if err := codec.Decode(resp.contentType, resp.body, &probe); err != nil {
			return nil, fmt.Errorf("client: discovery %s: %w", root, err)
		}
		switch probe.Kind {
		case "APIGroupDiscoveryList":
			var list apidiscoveryv2.APIGroupDiscoveryList
			if err := codec.Decode(resp.contentType, resp.body, &list); err != nil {
				return nil, fmt.Errorf("client: discovery %s: %w", root, err)
			}
			res, failed := fromAggregated(&list)
			st.resources = append(st.resources, res...)
			st.failures = append(st.failures, failed...)
		case "APIVersions", "APIGroupList":
			res, failed, err := c.legacyDiscovery(ctx, root, resp)
			if err != nil {
				return nil, err
			}
			st.resources = append(st.resources, res...)
			st.failures = append(st.failures, failed...)
		default:
			return nil, fmt.Errorf("client: discovery %s answered kind %q: %w", root, errtext.Cut(probe.Kind), codec.ErrMalformed)
		}
	}
	st.resources = firstListings(st.resources)
	return st, nil
}

// firstListings keeps the first listing of each resource: a server that
// lists a group, a version or a resource twice (an aggregated document
// merged wrongly, a proxy joining two answers) serves it once all the
// same, and the first listing keeps the preferred version first.
func firstListings(res []APIResource) []APIResource {
	seen := make(map[GroupVersionResource]bool, len(res))
	out := res[:0]
	for _, r := range res {
		if !seen[r.GroupVersionResource] {
			seen[r.GroupVersionResource] = true
			out = append(out, r)
		}
	}
	return out
}

// fromAggregated lists the resources of an aggregated discovery document,
// and as failures the versions it marks Stale: their server has not
// answered lately, and what is listed for them may be served no more
// (client-go leaves them out too). A freshness other than Stale, known
// or not, is served.
func fromAggregated(list *apidiscoveryv2.APIGroupDiscoveryList) ([]APIResource, []DiscoveryFailure) {
	var out []APIResource
	var failed []DiscoveryFailure
	for _, g := range list.Items {
		for _, v := range g.Versions { // the server lists the preferred version first
			if v.Freshness == apidiscoveryv2.DiscoveryFreshnessStale {
				failed = append(failed, DiscoveryFailure{Group: g.Name, Version: v.Version, Err: errStaleGroupVersion})
				continue
			}
			for _, r := range v.Resources {
				if r.ResponseKind == nil {
					continue
				}
				subs := make([]string, 0, len(r.Subresources))
				for _, sub := range r.Subresources {
					subs = append(subs, sub.Subresource)
				}
				out = append(out, APIResource{
					GroupVersionResource: GroupVersionResource{Group: g.Name, Version: v.Version, Resource: r.Resource},
					Kind:                 r.ResponseKind.Kind,
					Namespaced:           r.Scope == apidiscoveryv2.ScopeNamespace,
					Verbs:                r.Verbs,
					ShortNames:           r.ShortNames,
					Subresources:         subs,
				})
			}
		}
	}
	return out, failed
}

// Legacy discovery costs one request per group version. A real cluster
// serves tens to a few hundred (each CRD group adds its versions);
// thousands mean a hostile or broken /apis, and a discovery that would
// take as many requests is refused instead.
const maxLegacyGroupVersions = 5000

// legacyDiscoveryConcurrency bounds the group-version requests of one
// legacy discovery in flight at once: in parallel, so that one slow
// aggregated API does not delay the others, but not thousands of
// connections for a long /apis.
const legacyDiscoveryConcurrency = 8

// legacyDiscovery reads the per-group-version resource lists named by an
// APIVersions (/api) or APIGroupList (/apis) answer. A group version that
// fails (an aggregated API whose server is down answers 503) is listed as
// a failure and the others are read; only the context ending, the root
// document failing, or naming more than maxLegacyGroupVersions, fails
// the whole.
func (c *Client) legacyDiscovery(ctx context.Context, root string, resp *response) ([]APIResource, []DiscoveryFailure, error) {
	type gv struct{ group, version string }
	var gvs []gv
	if root == "/api" {
		var v metav1.APIVersions
		if err := codec.Decode(resp.contentType, resp.body, &v); err != nil {
			return nil, nil, fmt.Errorf("client: discovery %s: %w", root, err)
		}
		for _, ver := range v.Versions {
			gvs = append(gvs, gv{"", ver})
		}
	} else {
		var groups metav1.APIGroupList
		if err := codec.Decode(resp.contentType, resp.body, &groups); err != nil {
			return nil, nil, fmt.Errorf("client: discovery %s: %w", root, err)
		}
		for _, g := range groups.Groups {
			gvs = append(gvs, gv{g.Name, g.PreferredVersion.Version})
			for _, v := range g.Versions {
				if v.Version != g.PreferredVersion.Version {
					gvs = append(gvs, gv{g.Name, v.Version})
				}
			}
		}
	}
	seen := make(map[gv]bool, len(gvs))
	unique := gvs[:0]
	for _, x := range gvs {
		if x.version == "" || seen[x] {
			continue // a real server names each group version once
		}
		seen[x] = true
		unique = append(unique, x)
	}
	if len(unique) > maxLegacyGroupVersions {
		return nil, nil, fmt.Errorf("client: discovery %s names %d group versions, more than the %d this client fetches one by one: %w", root, len(unique), maxLegacyGroupVersions, codec.ErrTooLarge)
	}
	// Each group version's answer goes to its own slot, so the resources
	// keep the order of the root document (a group's preferred version
	// first) whatever order the fetches end in.
	lists := make([][]APIResource, len(unique))
	errs := make([]error, len(unique))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(legacyDiscoveryConcurrency)
	for i, x := range unique {
		if gctx.Err() != nil {
			break // the caller left: start no more
		}
		g.Go(func() error {
			p := joinPath("apis", x.group, x.version)
			if x.group == "" {
				p = joinPath("api", x.version)
			}
			lists[i], errs[i] = c.groupVersionResources(gctx, x.group, x.version, p)
			if errs[i] != nil && ctx.Err() != nil {
				return fmt.Errorf("client: discovery %s: %w", p, errs[i])
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	var out []APIResource
	var failed []DiscoveryFailure
	for i, x := range unique {
		if errs[i] != nil {
			failed = append(failed, DiscoveryFailure{Group: x.group, Version: x.version, Err: errs[i]})
			continue
		}
		out = append(out, lists[i]...)
	}
	return out, failed, nil
}

// groupVersionResources reads the top-level resources of one group
// version's APIResourceList at path p, each with its subresources.
func (c *Client) groupVersionResources(ctx context.Context, group, version, p string) ([]APIResource, error) {
	var list metav1.APIResourceList
	r, err := c.do(ctx, &request{method: "GET", path: p, accept: codec.MediaTypeJSON, no5xxRetry: true})
	if err == nil {
		err = codec.Decode(r.contentType, r.body, &list)
	}
	if err != nil {
		return nil, err
	}
	subs := map[string][]string{}
	for _, res := range list.APIResources {
		if parent, sub, ok := strings.Cut(res.Name, "/"); ok {
			subs[parent] = append(subs[parent], sub)
		}
	}
	var out []APIResource
	for _, res := range list.APIResources {
		if strings.Contains(res.Name, "/") {
			continue // a subresource
		}
		out = append(out, APIResource{
			GroupVersionResource: GroupVersionResource{Group: group, Version: version, Resource: res.Name},
			Kind:                 res.Kind,
			Namespaced:           res.Namespaced,
			Verbs:                res.Verbs,
			ShortNames:           res.ShortNames,
			Subresources:         append([]string{}, subs[res.Name]...),
		})
	}
	return out, nil
}
