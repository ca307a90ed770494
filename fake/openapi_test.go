package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The OpenAPI documents are kube-apiserver's; custom resources get a
// v3 document of their group version with their schemas.
func TestOpenAPI(t *testing.T) {
	s, c := newTestServer(t, Options{})
	var v2 struct {
		Swagger     string
		Definitions map[string]json.RawMessage
	}
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", "/openapi/v2", ""), &v2); err != nil || v2.Swagger != "2.0" || v2.Definitions["io.k8s.api.apps.v1.Deployment"] == nil {
		t.Fatalf("v2: swagger %q, %d definitions, %v", v2.Swagger, len(v2.Definitions), err)
	}
	if resp, _ := c.do("GET", "/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf", ""); resp.StatusCode != http.StatusNotAcceptable {
		t.Errorf("v2 in protobuf: %d, want 406", resp.StatusCode)
	}
	if err := s.AddCustomResource(CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	var index struct {
		Paths map[string]struct{ ServerRelativeURL string }
	}
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", "/openapi/v3", ""), &index); err != nil {
		t.Fatal(err)
	}
	if _, ok := index.Paths["apis/apps/v1"]; !ok {
		t.Errorf("index lacks apis/apps/v1: %v", index.Paths)
	}
	ref, ok := index.Paths["apis/example.com/v1"]
	if !ok {
		t.Fatalf("index lacks the custom resource's group version: %v", index.Paths)
	}
	resp, body := c.do("GET", ref.ServerRelativeURL, "application/json", "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "public, immutable" {
		t.Fatalf("%s: %d, Cache-Control %q", ref.ServerRelativeURL, resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				GVK []map[string]string `json:"x-kubernetes-group-version-kind"`
			}
		}
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	w := doc.Components.Schemas["com.example.v1.Widget"]
	if len(w.GVK) != 1 || w.GVK[0]["kind"] != "Widget" {
		t.Errorf("Widget schema: %+v", w)
	}
	if _, ok := doc.Components.Schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]; !ok {
		t.Error("the document lacks ObjectMeta")
	}
}

func TestHealthChecks(t *testing.T) {
	_, c := newTestServer(t, Options{})
	for _, p := range []string{"/healthz", "/readyz", "/livez", "/readyz/ping"} {
		if got := string(c.mustDo(http.StatusOK, "GET", p, "")); got != "ok" {
			t.Errorf("%s = %q", p, got)
		}
	}
	if got := string(c.mustDo(http.StatusOK, "GET", "/readyz?verbose", "")); !strings.HasPrefix(got, "[+]ping ok\n") || !strings.HasSuffix(got, "readyz check passed\n") {
		t.Errorf("verbose readyz = %q", got)
	}
	var v struct{ GitVersion, Major, Minor string }
	if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", "/version", ""), &v); err != nil || v.GitVersion != "v1.36.3" {
		t.Errorf("version %+v, %v", v, err)
	}
}

// Tables of built-in kinds have kube-apiserver's columns, wide ones
// included, and its cells.
func TestBuiltinTables(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":{"nodeName":"n1","containers":[{"name":"a","image":"i"},{"name":"b","image":"i"}]}}`)
	var table struct {
		ColumnDefinitions []struct {
			Name     string
			Priority int
		}
		Rows []struct{ Cells []any }
	}
	resp, body := c.do("GET", "/api/v1/namespaces/default/pods", "application/json;as=Table;v=v1;g=meta.k8s.io", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d: %s", resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, &table); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, col := range table.ColumnDefinitions {
		names = append(names, col.Name)
	}
	if got, want := strings.Join(names, ","), "Name,Ready,Status,Restarts,Age,IP,Node,Nominated Node,Readiness Gates"; got != want {
		t.Errorf("columns %s, want %s", got, want)
	}
	if len(table.Rows) != 1 {
		t.Fatalf("%d rows", len(table.Rows))
	}
	cells := table.Rows[0].Cells
	if cells[0] != "p" || cells[1] != "0/2" || cells[2] != "Pending" || cells[3] != "0" || cells[5] != "<none>" || cells[6] != "n1" {
		t.Errorf("cells %v", cells)
	}
}
