package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/fake"
)

// discoveryHandler serves the discovery fixtures: aggregated for /api and
// /apis when aggregated is true (a server of v1.30+), else the legacy
// documents only, ignoring the as= of the Accept header as old servers do.
func discoveryHandler(t *testing.T, aggregated bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := ""
		switch p := strings.Trim(r.URL.Path, "/"); {
		case (p == "api" || p == "apis") && aggregated:
			name = "discovery/aggregated-" + p
		case p == "api" || p == "apis" || p == "api/v1":
			name = "discovery/" + strings.ReplaceAll(p, "/", "-")
		case strings.HasPrefix(p, "apis/"):
			parts := strings.Split(p, "/")
			name = "discovery/apis-" + parts[1] + "_" + parts[2]
		default:
			http.NotFound(w, r)
			return
		}
		serve(w, load(t, name))
	}
}

func TestMapping(t *testing.T) {
	tests := []struct {
		group, version, kind string
		want                 Mapping
	}{
		{"", "v1", "Pod", Mapping{GroupVersionResource{"", "v1", "pods"}, "Pod", true}},
		{"", "", "Namespace", Mapping{GroupVersionResource{"", "v1", "namespaces"}, "Namespace", false}},
		{"apps", "", "Deployment", Mapping{GroupVersionResource{"apps", "v1", "deployments"}, "Deployment", true}},
		{"autoscaling", "", "HorizontalPodAutoscaler", Mapping{GroupVersionResource{"autoscaling", "v2", "horizontalpodautoscalers"}, "HorizontalPodAutoscaler", true}},
		{"example.com", "v1", "Widget", Mapping{GroupVersionResource{"example.com", "v1", "widgets"}, "Widget", true}},
	}
	for _, aggregated := range []bool{true, false} {
		name := "legacy"
		if aggregated {
			name = "aggregated"
		}
		t.Run(name, func(t *testing.T) {
			c, rec := newServer(t, discoveryHandler(t, aggregated))
			for _, tc := range tests {
				got, err := c.Mapping(context.Background(), tc.group, tc.version, tc.kind)
				if err != nil {
					t.Fatalf("%s %s: %v", tc.group, tc.kind, err)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", tc.kind, diff)
				}
			}
			fetches := rec.count()
			if aggregated && fetches != 2 {
				t.Errorf("aggregated discovery took %d requests, want 2", fetches)
			}
			// A miss refreshes once, then fails.
			_, err := c.Mapping(context.Background(), "example.com", "v1", "Gadget")
			if !errors.Is(err, ErrNoMapping) {
				t.Errorf("unknown kind: %v", err)
			}
			if rec.count() != 2*fetches {
				t.Errorf("a miss made %d requests, want one refresh (%d)", rec.count()-fetches, fetches)
			}
		})
	}
}

func TestConcurrentDiscoveryMissesShareOneFetch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		h := discoveryHandler(t, true)
		c, rec, stop := newPipeServer(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
			<-release
			h(w, r)
		})
		defer stop()
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				if _, err := c.Mapping(context.Background(), "apps", "v1", "Deployment"); err != nil {
					t.Error(err)
				}
			})
		}
		synctest.Wait() // every caller is waiting on the one fetch
		close(release)
		wg.Wait()
		if rec.count() != 2 {
			t.Errorf("10 concurrent callers made %d requests, want 2 (/api and /apis once)", rec.count())
		}
	})
}

func TestDynamicForUsesDiscoveredScope(t *testing.T) {
	h := discoveryHandler(t, true)
	widget := load(t, "objects/widget-w1.json")
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/widgets/") {
			serve(w, widget)
			return
		}
		h(w, r)
	})
	widgets, err := DynamicFor(context.Background(), c, "example.com", "", "Widget")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := widgets.Get(context.Background(), "w1", GetOptions{}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("Get of a namespaced kind without a namespace: %v", err)
	}
	w, err := widgets.Namespace("fixtures").Get(context.Background(), "w1", GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if w.GetName() != "w1" {
		t.Errorf("name = %q", w.GetName())
	}
	req, _ := rec.last(t)
	if req.URL.Path != "/apis/example.com/v1/namespaces/fixtures/widgets/w1" {
		t.Errorf("path = %s", req.URL.Path)
	}
}

const withStatusCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"doodads.status.example.com"},
"spec":{"group":"status.example.com","scope":"Namespaced","names":{"plural":"doodads","kind":"Doodad"},
"versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},
"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`

// A DynamicFor resource knows from discovery (aggregated or legacy)
// whether its kind serves /status: a status write to a kind without one
// is refused before any request, naming the kind, instead of the
// server's 404 for an object that exists; a kind with one is written.
func TestDynamicForStatusFromDiscovery(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		t.Run(map[bool]string{false: "aggregated", true: "legacy"}[legacy], func(t *testing.T) {
			_, c := startFake(t, fake.Options{LegacyDiscoveryOnly: legacy}, Config{})
			ctx := context.Background()
			crds := Dynamic(c, GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
			for _, doc := range []string{noStatusCRD, withStatusCRD} {
				var crd unstructured.Unstructured
				if err := crd.UnmarshalJSON([]byte(doc)); err != nil {
					t.Fatal(err)
				}
				if _, err := crds.Create(ctx, &crd, CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			for _, tc := range []struct {
				kind, resource string
				status         bool
			}{{"Gizmo", "gizmos", false}, {"Doodad", "doodads", true}} {
				res, err := DynamicFor(ctx, c, "status.example.com", "v1", tc.kind)
				if err != nil {
					t.Fatal(err)
				}
				objs := res.Namespace("default")
				created, err := objs.Create(ctx, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "status.example.com/v1", "kind": tc.kind,
					"metadata": map[string]any{"name": "o1"}, "status": map[string]any{"phase": "new"}}}, CreateOptions{})
				if err != nil {
					t.Fatal(err)
				}
				created.Object["status"] = map[string]any{"phase": "ready"}
				_, errUpdate := objs.UpdateStatus(ctx, created, UpdateOptions{})
				_, errPatch := objs.Status().Patch(ctx, "o1", MergePatch, []byte(`{"status":{"phase":"ready"}}`), PatchOptions{})
				for name, err := range map[string]error{"UpdateStatus": errUpdate, "Status().Patch": errPatch} {
					if !tc.status {
						if !errors.Is(err, ErrInvalidOptions) || errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "kind "+tc.kind) || !strings.Contains(err.Error(), "no status subresource") {
							t.Errorf("%s of a %s, which discovery lists without status: %v; want ErrInvalidOptions naming the kind, no request", name, tc.kind, err)
						}
						continue
					}
					if err != nil {
						t.Errorf("%s of a %s, which has a status subresource: %v", name, tc.kind, err)
					}
				}
			}
		})
	}
}

// A Dynamic resource made without discovery does not know: its status
// write is sent and the server's 404 explained (TestDynamicStatusWrite-
// WithoutStatusSubresource), as for a KindInfo without Subresources.
func TestDynamicWithoutDiscoveryStatusUnknown(t *testing.T) {
	r := Dynamic(nil, GroupVersionResource{Group: "status.example.com", Version: "v1", Resource: "gizmos"}).Status()
	if err := r.checkStatusWrite("update", "o1"); err != nil {
		t.Errorf("a Dynamic resource refused a status write it cannot judge: %v", err)
	}
}
