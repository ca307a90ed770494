package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// repeatGroups is kube-apiserver's aggregated /apis document with the
// groups named listed a second time at its end, as a server merging
// aggregated APIServices wrongly (or a proxy joining two answers) sends.
func repeatGroups(t *testing.T, names ...string) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(load(t, "discovery/aggregated-apis").Body, &doc); err != nil {
		t.Fatal(err)
	}
	items := doc["items"].([]any)
	for _, it := range items {
		name := it.(map[string]any)["metadata"].(map[string]any)["name"]
		for _, n := range names {
			if name == n {
				items = append(items, it)
			}
		}
	}
	doc["items"] = items
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A group listed twice by aggregated discovery gives each of its
// resources once: ServerResources is a set of resources, and callers
// that iterate it (a RESTMapper, a garbage collector's list of
// watchable resources) would otherwise do everything twice. Before,
// each resource of apps came twice.
func TestAggregatedDiscoveryGroupListedTwice(t *testing.T) {
	agg := load(t, "discovery/aggregated-apis")
	body := repeatGroups(t, "apps", "example.com")
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.Trim(r.URL.Path, "/") == "apis" {
			w.Header().Set("Content-Type", agg.ContentType())
			w.Write(body)
			return
		}
		discoveryHandler(t, true)(w, r)
	})
	res, err := c.ServerResources(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[GroupVersionResource]int{}
	for _, r := range res {
		seen[r.GroupVersionResource]++
	}
	for gvr, n := range seen {
		if n > 1 {
			t.Errorf("%v listed %d times", gvr, n)
		}
	}
	if seen[GroupVersionResource{"apps", "v1", "deployments"}] != 1 {
		t.Errorf("apps/v1 deployments missing")
	}
}

// A legacy group-version document listing a resource twice gives it
// once too.
func TestLegacyDiscoveryResourceListedTwice(t *testing.T) {
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.Trim(r.URL.Path, "/") == "apis/apps/v1" {
			var doc map[string]any
			if err := json.Unmarshal(load(t, "discovery/apis-apps_v1").Body, &doc); err != nil {
				t.Error(err)
				return
			}
			doc["resources"] = append(doc["resources"].([]any), doc["resources"].([]any)...)
			b, _ := json.Marshal(doc)
			w.Header().Set("Content-Type", "application/json")
			w.Write(b)
			return
		}
		discoveryHandler(t, false)(w, r)
	})
	res, err := c.ServerResources(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[GroupVersionResource]int{}
	for _, r := range res {
		seen[r.GroupVersionResource]++
	}
	for gvr, n := range seen {
		if n > 1 {
			t.Errorf("%v listed %d times", gvr, n)
		}
	}
}
