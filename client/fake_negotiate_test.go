package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "github.com/kubewire/kubewire/api/apps/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake"
)

var widgetsGVR = GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

// addWidgets registers the custom resource widgets.example.com/v1 on srv
// and creates widgets w1 and w2 in namespace default through c.
func addWidgets(t *testing.T, srv *fake.Server, c *Client) {
	t.Helper()
	if err := srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"w1", "w2"} {
		w := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": name},
			"spec":     map[string]any{"color": "blue"},
		}}
		if _, err := Dynamic(c, widgetsGVR).Namespace("default").Create(context.Background(), w, CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// protobufOnlyProxy stands for a proxy or aggregated server in front of
// the fake that keeps only the first range of an Accept header listing
// protobuf first: the fake then answers 406 where it cannot serve
// protobuf, which is what the client's fallback is for.
func protobufOnlyProxy(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := r.Header.Get("Accept"); strings.HasPrefix(a, codec.MediaTypeProtobuf) {
			first, _, _ := strings.Cut(a, ",")
			r.Header.Set("Accept", first)
		}
		next.ServeHTTP(w, r)
	})
}

// TestFakeNotAcceptableFallback checks the 406 fallback against the
// fake's own 406 answers: for a custom resource read through Metadata
// with protobuf, and for built-in pods when the fake refuses protobuf.
// The first request gets 406, the second asks for JSON only, and later
// requests for that resource go straight to JSON. Dynamic never asks for
// protobuf at all.
func TestFakeNotAcceptableFallback(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(*fake.Server)
		read    func(*Client) ([]string, error)
		path    string
		accepts []string // Accept of each request, as the client sent it
	}{
		{
			name: "custom resource through Metadata",
			read: func(c *Client) ([]string, error) {
				l, err := Metadata(c, widgetsGVR, true).Namespace("default").List(context.Background(), ListOptions{})
				if err != nil {
					return nil, err
				}
				return names(l.Items), nil
			},
			path: "/apis/example.com/v1/namespaces/default/widgets",
			accepts: []string{
				"application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json",
				"application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json",
				"application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json",
			},
		},
		{
			name: "custom resource through Dynamic",
			read: func(c *Client) ([]string, error) {
				l, err := Dynamic(c, widgetsGVR).Namespace("default").List(context.Background(), ListOptions{})
				if err != nil {
					return nil, err
				}
				return names(l.Items), nil
			},
			path: "/apis/example.com/v1/namespaces/default/widgets",
			// CBOR first (the fake serves JSON, as a kube-apiserver
			// without CBORServingAndStorage does).
			accepts: []string{"application/cbor, application/json", "application/cbor, application/json"},
		},
		{
			name:  "pods with protobuf refused",
			setup: func(s *fake.Server) { s.Faults().RefuseProtobuf(true) },
			read: func(c *Client) ([]string, error) {
				l, err := For[*corev1.ConfigMap](c).Namespace("default").List(context.Background(), ListOptions{})
				if err != nil {
					return nil, err
				}
				return names(l.Items)[:1], nil
			},
			path:    "/api/v1/namespaces/default/configmaps",
			accepts: []string{codec.MediaTypeProtobuf + ", application/json", "application/json", "application/json"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, c, rec := startFakeWire(t, wireOptions{proxy: protobufOnlyProxy})
			addWidgets(t, srv, c)
			addCM(srv, "w1")
			if tc.setup != nil {
				tc.setup(srv)
			}
			rec.reset()
			for range 2 {
				got, err := tc.read(c)
				if err != nil {
					t.Fatal(err)
				}
				if got[0] != "w1" {
					t.Errorf("read %v, want w1 first", got)
				}
			}
			var accepts []string
			for _, r := range rec.reqs {
				if r.URL.Path != tc.path {
					t.Errorf("request to %s, want %s", r.URL.Path, tc.path)
				}
				accepts = append(accepts, r.Header.Get("Accept"))
			}
			if diff := cmp.Diff(tc.accepts, accepts); diff != "" {
				t.Errorf("Accept of each request (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFakeWatchNotAcceptableFallback checks the 406 fallback of Watch.
func TestFakeWatchNotAcceptableFallback(t *testing.T) {
	srv, c, rec := startFakeWire(t, wireOptions{proxy: protobufOnlyProxy})
	srv.Faults().RefuseProtobuf(true)
	addCM(srv, "a")
	w, err := For[*corev1.ConfigMap](c).Namespace("default").Watch(watchCtx(t), WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if diff := cmp.Diff([]string{"ADDED a"}, nextEvents(t, w, 1)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if n := rec.count(); n != 2 {
		t.Errorf("%d requests, want 2 (406, then JSON)", n)
	}
}

// TestFakeMetadata reads PartialObjectMetadata and its list from the
// fake, in protobuf and JSON for built-ins and JSON for a custom
// resource, and watches metadata.
func TestFakeMetadata(t *testing.T) {
	tests := []struct {
		name     string
		gvr      GroupVersionResource
		protobuf bool
		noProto  bool
		respType string
	}{
		{"configmaps protobuf", GroupVersionResource{Version: "v1", Resource: "configmaps"}, true, false, codec.MediaTypeProtobuf},
		{"configmaps json", GroupVersionResource{Version: "v1", Resource: "configmaps"}, true, true, "application/json"},
		{"widgets", widgetsGVR, false, false, "application/json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, c, rec := startFakeWire(t, wireOptions{})
			addWidgets(t, srv, c)
			addCM(srv, "w1")
			addCM(srv, "w2")
			srv.Faults().RefuseProtobuf(tc.noProto)
			ctx := context.Background()
			r := Metadata(c, tc.gvr, tc.protobuf).Namespace("default")
			l, err := r.List(ctx, ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(rec.lastResponseType(), tc.respType) {
				t.Errorf("answer Content-Type %q, want %s", rec.lastResponseType(), tc.respType)
			}
			if diff := cmp.Diff([]string{"w1", "w2"}, names(l.Items)); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			if l.Kind != "PartialObjectMetadataList" {
				t.Errorf("list kind %q", l.Kind)
			}
			one, err := r.Get(ctx, "w2", GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if one.Kind != "PartialObjectMetadata" || one.Name != "w2" || one.UID == "" {
				t.Errorf("Get = kind %q name %q uid %q", one.Kind, one.Name, one.UID)
			}
			w, err := r.Watch(watchCtx(t), WatchOptions{ResourceVersion: l.ResourceVersion})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if err := r.Delete(ctx, "w1", DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"DELETED w1"}, nextEvents(t, w, 1)); diff != "" {
				t.Errorf("metadata watch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFakeTables reads Tables from the fake for a built-in kind, a custom
// resource and one object.
func TestFakeTables(t *testing.T) {
	srv, c := startFake(t, fake.Options{}, Config{})
	addWidgets(t, srv, c)
	addCM(srv, "w1")
	ctx := context.Background()
	cells := func(tb *metav1.Table) []string {
		var out []string
		for _, r := range tb.Rows {
			out = append(out, r.Cells[0].(string))
		}
		return out
	}
	cols := func(tb *metav1.Table) []string {
		var out []string
		for _, c := range tb.ColumnDefinitions {
			out = append(out, c.Name)
		}
		return out
	}
	tests := []struct {
		name string
		read func() (*metav1.Table, error)
		cols []string
		rows []string
	}{
		// kube-apiserver's printer columns for ConfigMaps.
		{"configmaps", func() (*metav1.Table, error) {
			return For[*corev1.ConfigMap](c).Namespace("default").ListTable(ctx, ListOptions{})
		}, []string{"Name", "Data", "Age"}, []string{"w1"}},
		{"widgets", func() (*metav1.Table, error) {
			return Dynamic(c, widgetsGVR).Namespace("default").ListTable(ctx, ListOptions{})
		}, []string{"Name", "Age"}, []string{"w1", "w2"}},
		{"one widget", func() (*metav1.Table, error) {
			return Dynamic(c, widgetsGVR).Namespace("default").GetTable(ctx, "w2", GetOptions{})
		}, []string{"Name", "Age"}, []string{"w2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tb, err := tc.read()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.cols, cols(tb)); diff != "" {
				t.Errorf("columns (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.rows, cells(tb)); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFakeDiscovery discovers the fake's resources. The fake serves only
// the legacy documents (it answers the aggregated Accept with
// APIVersions and APIGroupList), so this tests the legacy fallback; the
// aggregated path is tested against fixtures (TestMapping). A custom
// resource registered after the first discovery is found by refreshing
// on the miss.
// Discovery against the fake, which serves aggregated discovery like
// kube-apiserver v1.36 and, as an older server would, only the legacy
// documents: the mappings are the same either way.
func TestFakeDiscovery(t *testing.T) {
	for _, legacyOnly := range []bool{false, true} {
		name := "aggregated"
		if legacyOnly {
			name = "legacy"
		}
		t.Run(name, func(t *testing.T) { testFakeDiscovery(t, legacyOnly) })
	}
}

func testFakeDiscovery(t *testing.T, legacyOnly bool) {
	srv, c, rec := startFakeWire(t, wireOptions{fake: fake.Options{LegacyDiscoveryOnly: legacyOnly}})
	ctx := context.Background()
	tests := []struct {
		group, version, kind string
		want                 Mapping
	}{
		{"", "v1", "Pod", Mapping{GroupVersionResource{Version: "v1", Resource: "pods"}, "Pod", true}},
		{"", "", "Namespace", Mapping{GroupVersionResource{Version: "v1", Resource: "namespaces"}, "Namespace", false}},
		{"apps", "v1", "Deployment", Mapping{GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "Deployment", true}},
		{"rbac.authorization.k8s.io", "", "ClusterRole", Mapping{GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}, "ClusterRole", false}},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			got, err := c.Mapping(ctx, tc.group, tc.version, tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("mapping (-want +got):\n%s", diff)
			}
		})
	}
	first := rec.requests()
	if len(first) < 2 || !strings.HasPrefix(first[0], "GET /api ") || rec.reqs[0].Header.Get("Accept") != acceptAggregated {
		t.Errorf("discovery began with %v, want GET /api asking for aggregated discovery", first[:min(len(first), 1)])
	}
	readGroupVersion := strings.Contains(strings.Join(first, "\n"), "GET /apis/apps/v1 ")
	if legacyOnly && !readGroupVersion {
		t.Errorf("legacy fallback did not read /apis/apps/v1: %v", first)
	}
	if !legacyOnly && readGroupVersion {
		t.Errorf("aggregated discovery still read the group version documents: %v", first)
	}

	// A miss refreshes once; a kind that stays unknown is ErrNoMapping.
	if _, err := c.Mapping(ctx, "example.com", "v1", "Widget"); !errors.Is(err, ErrNoMapping) {
		t.Fatalf("unknown kind: %v, want ErrNoMapping", err)
	}
	addWidgets(t, srv, c)
	widgets, err := DynamicFor(ctx, c, "example.com", "", "Widget")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := widgets.Get(ctx, "w1", GetOptions{}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("namespaced Get without a namespace = %v, want ErrInvalidOptions", err)
	}
	got, err := widgets.Namespace("default").Get(ctx, "w1", GetOptions{})
	if err != nil || got.GetName() != "w1" {
		t.Fatalf("Get through DynamicFor = %v, %v", got, err)
	}

	// The typed client and discovery agree on a grouped kind.
	if _, err := For[*appsv1.Deployment](c).Namespace("default").List(ctx, ListOptions{}); err != nil {
		t.Errorf("typed list of the discovered resource: %v", err)
	}
}
