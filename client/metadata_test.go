package client

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/codec"
)

func TestMetadataList(t *testing.T) {
	tests := []struct {
		fixture  string
		gvr      GroupVersionResource
		protobuf bool
		accept   string
		want     []string
	}{
		{"meta/pods-partial.pb", GroupVersionResource{Version: "v1", Resource: "pods"}, true,
			"application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json",
			[]string{"web-1", "web-2", "web-3", "web-4", "web-5", "web-6", "web-7"}},
		{"meta/pods-partial.json", GroupVersionResource{Version: "v1", Resource: "pods"}, true, "",
			[]string{"web-1", "web-2", "web-3", "web-4", "web-5", "web-6", "web-7"}},
		{"meta/widgets-partial.json", GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}, false,
			"application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json",
			[]string{"w1", "w2", "w3"}},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			fx := load(t, tc.fixture)
			c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
			list, err := Metadata(c, tc.gvr, tc.protobuf).Namespace("fixtures").List(context.Background(), ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, it := range list.Items {
				names = append(names, it.Name)
				if it.Namespace != "fixtures" || it.ResourceVersion == "" {
					t.Errorf("item %s: namespace %q resourceVersion %q", it.Name, it.Namespace, it.ResourceVersion)
				}
				// The JSON items carry their kind, the protobuf ones do not:
				// both read as the JSON says.
				if it.Kind != "PartialObjectMetadata" || it.APIVersion != "meta.k8s.io/v1" {
					t.Errorf("item %s: kind %q apiVersion %q, want PartialObjectMetadata meta.k8s.io/v1", it.Name, it.Kind, it.APIVersion)
				}
			}
			if diff := cmp.Diff(tc.want, names); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			req, _ := rec.last(t)
			if tc.accept != "" {
				if diff := cmp.Diff(tc.accept, req.Header.Get("Accept")); diff != "" {
					t.Errorf("Accept (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestTables(t *testing.T) {
	for _, name := range []string{"tables/pods", "tables/pods-fallback", "tables/widgets"} {
		t.Run(name, func(t *testing.T) {
			fx := load(t, name)
			c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
			tbl, err := Dynamic(c, GroupVersionResource{Version: "v1", Resource: "pods"}).Namespace("fixtures").ListTable(context.Background(), ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(tbl.ColumnDefinitions) == 0 || len(tbl.Rows) == 0 || tbl.ColumnDefinitions[0].Name != "Name" {
				t.Errorf("table: %d columns, %d rows", len(tbl.ColumnDefinitions), len(tbl.Rows))
			}
			req, _ := rec.last(t)
			if diff := cmp.Diff(codec.AcceptTable, req.Header.Get("Accept")); diff != "" {
				t.Errorf("Accept (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("server without tables", func(t *testing.T) {
		fx := load(t, "lists/widgets.json")
		c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
		tbl, err := Dynamic(c, GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).ListTable(context.Background(), ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var names []any
		for _, r := range tbl.Rows {
			names = append(names, r.Cells[0])
		}
		if diff := cmp.Diff([]any{"w1", "w2", "w3"}, names); diff != "" {
			t.Errorf("fallback rows (-want +got):\n%s", diff)
		}
	})
}

// Dynamic reads of a custom resource offer CBOR first and read the JSON
// a server without CBOR answers.
func TestDynamicReadsCustomResourcesAsJSON(t *testing.T) {
	fx := load(t, "lists/widgets.json")
	c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
	list, err := Dynamic(c, GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Namespace("fixtures").List(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 3 || list.Items[0].GetName() != "w1" || list.Kind != "WidgetList" {
		t.Errorf("list: kind %q, %d items", list.Kind, len(list.Items))
	}
	req, _ := rec.last(t)
	if req.Header.Get("Accept") != "application/cbor, application/json" || req.URL.Path != "/apis/example.com/v1/namespaces/fixtures/widgets" {
		t.Errorf("request: Accept %q path %q", req.Header.Get("Accept"), req.URL.Path)
	}
}
