package fake

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	apidiscoveryv2 "github.com/kubewire/kubewire/api/apidiscovery/v2"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/discovery"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

const (
	acceptAggregatedJSON     = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
	acceptAggregatedProtobuf = "application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"
)

// widgetServer is a server with the example.com Widget custom resource the
// fixtures were recorded with.
func widgetServer(t *testing.T, opts Options) (*Server, *tclient) {
	t.Helper()
	s, c := newTestServer(t, opts)
	if err := s.AddCustomResource(CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true, Status: true}); err != nil {
		t.Fatal(err)
	}
	return s, c
}

func TestAggregatedDiscoveryNegotiation(t *testing.T) {
	_, c := widgetServer(t, Options{})
	tests := []struct {
		path, accept string
		wantType     string // Content-Type
		wantKind     string
	}{
		{"/api", acceptAggregatedJSON + ",application/json", acceptAggregatedJSON, "APIGroupDiscoveryList"},
		{"/apis", acceptAggregatedJSON + ",application/json", acceptAggregatedJSON, "APIGroupDiscoveryList"},
		{"/apis", acceptAggregatedProtobuf + ",application/json", acceptAggregatedProtobuf, "APIGroupDiscoveryList"},
		{"/apis", "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json", "application/json", "APIGroupList"},
		{"/apis", "application/json", "application/json", "APIGroupList"},
		{"/apis", "", "application/json", "APIGroupList"},
		{"/api", "*/*", "application/json", "APIVersions"},
	}
	for _, tt := range tests {
		t.Run(tt.path+" "+tt.accept, func(t *testing.T) {
			resp, body := c.do("GET", tt.path, tt.accept, "")
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if got := resp.Header.Get("Content-Type"); got != tt.wantType {
				t.Errorf("Content-Type %q, want %q", got, tt.wantType)
			}
			var kind string
			if tt.accept == acceptAggregatedProtobuf+",application/json" {
				u, err := codec.DecodeEnvelope(body)
				if err != nil {
					t.Fatal(err)
				}
				kind = u.TypeMeta.Kind
			} else {
				var probe struct{ Kind string }
				if err := json.Unmarshal(body, &probe); err != nil {
					t.Fatal(err)
				}
				kind = probe.Kind
			}
			if kind != tt.wantKind {
				t.Errorf("kind %q, want %q", kind, tt.wantKind)
			}
		})
	}
}

// aggregated fetches and decodes an aggregated discovery document.
func aggregated(t *testing.T, c *tclient, path, accept string) (*http.Response, apidiscoveryv2.APIGroupDiscoveryList) {
	t.Helper()
	resp, body := c.do("GET", path, accept, "")
	var list apidiscoveryv2.APIGroupDiscoveryList
	if err := codec.Decode(resp.Header.Get("Content-Type"), body, &list); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return resp, list
}

// keepServed drops from a recorded document the groups, versions,
// resources and subresources the fake does not serve.
func keepServed(want, got apidiscoveryv2.APIGroupDiscoveryList) apidiscoveryv2.APIGroupDiscoveryList {
	type key struct{ group, version, resource string }
	served := map[key][]string{}
	for _, g := range got.Items {
		for _, v := range g.Versions {
			for _, r := range v.Resources {
				var subs []string
				for _, sub := range r.Subresources {
					subs = append(subs, sub.Subresource)
				}
				served[key{g.Name, v.Version, r.Resource}] = subs
			}
		}
	}
	var out apidiscoveryv2.APIGroupDiscoveryList
	out.TypeMeta = want.TypeMeta
	for _, g := range want.Items {
		var versions []apidiscoveryv2.APIVersionDiscovery
		for _, v := range g.Versions {
			var rs []apidiscoveryv2.APIResourceDiscovery
			for _, r := range v.Resources {
				subs, ok := served[key{g.Name, v.Version, r.Resource}]
				if !ok {
					continue
				}
				r.Subresources = slices.DeleteFunc(slices.Clone(r.Subresources), func(s apidiscoveryv2.APISubresourceDiscovery) bool {
					return !slices.Contains(subs, s.Subresource)
				})
				if len(r.Subresources) == 0 {
					r.Subresources = nil
				}
				rs = append(rs, r)
			}
			if rs != nil {
				v.Resources = rs
				versions = append(versions, v)
			}
		}
		if versions != nil {
			g.Versions = versions
			out.Items = append(out.Items, g)
		}
	}
	return out
}

func TestAggregatedDiscoveryMatchesFixtures(t *testing.T) {
	_, c := widgetServer(t, Options{})
	tests := []struct {
		fixture, path, accept string
	}{
		{"discovery/aggregated-api", "/api", acceptAggregatedJSON},
		{"discovery/aggregated-apis", "/apis", acceptAggregatedJSON},
		{"discovery/aggregated-apis", "/apis", acceptAggregatedProtobuf},
	}
	for _, tt := range tests {
		t.Run(tt.fixture+" "+tt.accept, func(t *testing.T) {
			fx, err := fixture.Load(tt.fixture)
			if err != nil {
				t.Fatal(err)
			}
			var want apidiscoveryv2.APIGroupDiscoveryList
			if err := json.Unmarshal(fx.Body, &want); err != nil {
				t.Fatal(err)
			}
			resp, got := aggregated(t, c, tt.path, tt.accept)
			if tt.accept == acceptAggregatedJSON {
				for _, h := range []string{"Content-Type", "Cache-Control", "Vary"} {
					if resp.Header.Get(h) != fx.Header.Get(h) {
						t.Errorf("%s %q, want %q", h, resp.Header.Get(h), fx.Header.Get(h))
					}
				}
			}
			// The real server orders groups by its own priorities; the
			// fake by name. Compare the groups as sets.
			byName := cmpopts.SortSlices(func(a, b apidiscoveryv2.APIGroupDiscovery) bool { return a.Name < b.Name })
			if diff := cmp.Diff(keepServed(want, got), got, byName, cmpopts.IgnoreFields(apidiscoveryv2.APIGroupDiscoveryList{}, "UnknownFields")); diff != "" {
				t.Errorf("aggregated discovery mismatch (-kube-apiserver +fake):\n%s", diff)
			}
			if tt.path == "/apis" {
				names := make([]string, len(got.Items))
				for i, g := range got.Items {
					names[i] = g.Name
				}
				if names[len(names)-1] != "example.com" {
					t.Errorf("custom resource group not last: %v", names)
				}
			}
		})
	}
}

func TestAggregatedDiscoveryOff(t *testing.T) {
	_, c := widgetServer(t, Options{LegacyDiscoveryOnly: true})
	for _, path := range []string{"/api", "/apis"} {
		resp, _ := c.do("GET", path, acceptAggregatedJSON+",application/json", "")
		if got := resp.Header.Get("Content-Type"); got != "application/json" {
			t.Errorf("%s: Content-Type %q, want the legacy application/json", path, got)
		}
	}
}

func TestAggregatedDiscoveryETag(t *testing.T) {
	s, c := widgetServer(t, Options{})
	resp, body := c.do("GET", "/apis", acceptAggregatedJSON, "")
	etag := resp.Header.Get("Etag")
	if etag == "" {
		t.Fatalf("no ETag: %v", resp.Header)
	}
	req := c.request("GET", "/apis", acceptAggregatedJSON, "")
	req.Header.Set("If-None-Match", etag)
	resp2, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: status %d, want 304", resp2.StatusCode)
	}
	// A new resource changes the document and its ETag.
	if err := s.AddCustomResource(CustomResource{Group: "example.com", Version: "v1", Kind: "Gadget", Resource: "gadgets"}); err != nil {
		t.Fatal(err)
	}
	resp3, body3 := c.do("GET", "/apis", acceptAggregatedJSON, "")
	if resp3.Header.Get("Etag") == etag || string(body3) == string(body) {
		t.Error("document and ETag unchanged after AddCustomResource")
	}
}

func TestCompareVersionPriority(t *testing.T) {
	in := []string{"v1alpha1", "v1", "foo", "v2beta1", "v1beta2", "v2", "v1beta1", "v10", "bar", "v2alpha1"}
	want := []string{"v10", "v2", "v1", "v2beta1", "v1beta2", "v1beta1", "v2alpha1", "v1alpha1", "bar", "foo"}
	got := slices.Clone(in)
	slices.SortFunc(got, discovery.CompareVersionPriority)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order mismatch (-want +got):\n%s", diff)
	}
}

// The legacy resource list of a custom resource matches kube-apiserver's,
// storageVersionHash included.
func TestLegacyCustomResourceListMatchesFixture(t *testing.T) {
	_, c := widgetServer(t, Options{})
	fx, err := fixture.Load("discovery/apis-example.com_v1")
	if err != nil {
		t.Fatal(err)
	}
	var want, got map[string]any
	if err := json.Unmarshal(fx.Body, &want); err != nil {
		t.Fatal(err)
	}
	body := c.mustDo(http.StatusOK, "GET", "/apis/example.com/v1", "")
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resource list mismatch (-kube-apiserver +fake):\n%s", diff)
	}
}
