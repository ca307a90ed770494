package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
)

// staleMetrics adds a metrics.k8s.io group marked Stale to the fake's
// aggregated discovery, as kube-apiserver lists metrics-server while it
// is down.
type staleMetrics struct{ next http.RoundTripper }

func (t staleMetrics) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || req.URL.Path != "/apis" || !strings.Contains(resp.Header.Get("Content-Type"), "apidiscovery.k8s.io") {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	var list map[string]any
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, err
	}
	items, _ := list["items"].([]any)
	list["items"] = append(items, map[string]any{
		"metadata": map[string]any{"name": "metrics.k8s.io"},
		"versions": []any{map[string]any{
			"version":   "v1beta1",
			"freshness": "Stale",
			"resources": []any{map[string]any{
				"resource":     "pods",
				"responseKind": map[string]any{"group": "metrics.k8s.io", "version": "v1beta1", "kind": "PodMetrics"},
				"scope":        "Namespaced",
				"verbs":        []any{"get", "list"},
			}},
		}},
	})
	body, err = json.Marshal(list)
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return resp, nil
}

// With metrics-server down, the other resources still resolve, and a
// name nothing discovered serves says discovery was partial.
func TestGetWithAnAggregatedAPIDown(t *testing.T) {
	srv, _ := fakeclient.Start(fake.Options{})
	defer srv.Close()
	cfg := fakeclient.InMemory(srv)
	cfg.Transport = staleMetrics{next: cfg.Transport}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	k := &cli{c: c, out: &out}
	if err := get(t.Context(), k, []string{"namespaces"}); err != nil {
		t.Fatalf("get namespaces with metrics.k8s.io down: %v", err)
	}
	if !strings.Contains(out.String(), "default") {
		t.Errorf("get namespaces printed %q, want the default namespace", out.String())
	}
	err = get(t.Context(), k, []string{"podmetrics"})
	if !errors.Is(err, client.ErrGroupDiscoveryFailed) {
		t.Errorf("get podmetrics: %v, want an error matching ErrGroupDiscoveryFailed", err)
	}
}
