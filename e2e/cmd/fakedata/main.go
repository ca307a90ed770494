// Command fakedata records what a real kube-apiserver serves that the
// fake server serves as recorded: the discovery documents (legacy and
// aggregated), /version, the OpenAPI v2 and v3 documents, and the Table
// column definitions of every built-in resource. It starts a
// kube-apiserver with the e2e harness and writes gzipped JSON files to
// the fake's embedded data folder:
//
//	cd e2e && go run ./cmd/fakedata -out ../fake/internal/upstream/data
//
// Files written:
//
//	discovery.json.gz   {"version": ..., "paths": {"/api": ..., "/apis/apps/v1": ...},
//	                     "aggregated": {"/api": ..., "/apis": ...}}
//	tables.json.gz      {"GROUP/RESOURCE": [columnDefinitions...]}
//	openapi-v2.json.gz  the /openapi/v2 document
//	openapi-v3.json.gz  {"api/v1": document, "apis/apps/v1": document, ...}
//	crd-openapi.json.gz {"Namespaced": paths, "Cluster": paths, "schemas": {...}}: the
//	                     paths of a custom resource's OpenAPI v3 document (names as
//	                     placeholders) and the schemas of other groups it holds
//
// -only NAME writes one of them.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/e2e/harness"
)

func main() {
	out := flag.String("out", "data", "folder to write the files to")
	only := flag.String("only", "", "write only this file (e.g. crd-openapi.json.gz)")
	flag.Parse()
	if err := run(*out, *only); err != nil {
		fmt.Fprintln(os.Stderr, "fakedata:", err)
		os.Exit(1)
	}
}

func run(out, only string) error {
	ctx := context.Background()
	c, err := harness.Start(ctx, harness.Options{Name: "fakedata", Log: os.Stderr})
	if err != nil {
		return err
	}
	defer c.Stop()
	f := &fetcher{ctx: ctx, c: c}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if only != "" && only != "crd-openapi.json.gz" {
		return fmt.Errorf("-only %s: only crd-openapi.json.gz can be written alone", only)
	}
	if only == "crd-openapi.json.gz" {
		crd, err := f.crdOpenAPI()
		if err != nil {
			return err
		}
		return writeGzip(filepath.Join(out, only), crd)
	}
	disc, resources, err := f.discovery()
	if err != nil {
		return err
	}
	tables, err := f.tables(resources)
	if err != nil {
		return err
	}
	v2, err := f.get("/openapi/v2", "application/json")
	if err != nil {
		return err
	}
	v3, err := f.openAPIV3()
	if err != nil {
		return err
	}
	// Last: the CRDs it creates would show in the documents above.
	crd, err := f.crdOpenAPI()
	if err != nil {
		return err
	}
	for name, v := range map[string]any{"crd-openapi.json.gz": crd, "discovery.json.gz": disc, "tables.json.gz": tables, "openapi-v2.json.gz": json.RawMessage(v2), "openapi-v3.json.gz": v3} {
		if err := writeGzip(filepath.Join(out, name), v); err != nil {
			return err
		}
	}
	return nil
}

type fetcher struct {
	ctx context.Context
	c   *harness.Cluster
}

// get fetches path with an Accept header and returns the body compacted.
func (f *fetcher) get(path, accept string) ([]byte, error) {
	hc, err := f.c.HTTPClient()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(f.ctx, "GET", f.c.URL+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+f.c.AdminToken)
	req.Header.Set("Accept", accept)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %.200s", path, resp.StatusCode, b.Bytes())
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, b.Bytes()); err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	return compact.Bytes(), nil
}

// listable is a resource that can be listed, for its Table columns.
type listable struct{ group, version, resource string }

func (f *fetcher) discovery() (map[string]any, []listable, error) {
	paths := map[string]json.RawMessage{}
	add := func(p string) ([]byte, error) {
		b, err := f.get(p, "application/json")
		if err == nil {
			paths[p] = b
		}
		return b, err
	}
	version, err := f.get("/version", "application/json")
	if err != nil {
		return nil, nil, err
	}
	if _, err := add("/api"); err != nil {
		return nil, nil, err
	}
	gvs := []string{"/api/v1"}
	b, err := add("/apis")
	if err != nil {
		return nil, nil, err
	}
	var groups struct {
		Groups []struct {
			Name     string `json:"name"`
			Versions []struct {
				GroupVersion string `json:"groupVersion"`
			} `json:"versions"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(b, &groups); err != nil {
		return nil, nil, err
	}
	for _, g := range groups.Groups {
		if _, err := add("/apis/" + g.Name); err != nil {
			return nil, nil, err
		}
		for _, v := range g.Versions {
			gvs = append(gvs, "/apis/"+v.GroupVersion)
		}
	}
	var res []listable
	for _, gv := range gvs {
		b, err := add(gv)
		if err != nil {
			return nil, nil, err
		}
		var list struct {
			GroupVersion string `json:"groupVersion"`
			Resources    []struct {
				Name  string   `json:"name"`
				Verbs []string `json:"verbs"`
			} `json:"resources"`
		}
		if err := json.Unmarshal(b, &list); err != nil {
			return nil, nil, err
		}
		group, version, ok := strings.Cut(list.GroupVersion, "/")
		if !ok {
			group, version = "", list.GroupVersion
		}
		for _, r := range list.Resources {
			if !strings.Contains(r.Name, "/") && slices.Contains(r.Verbs, "list") {
				res = append(res, listable{group, version, r.Name})
			}
		}
	}
	aggregated := map[string]json.RawMessage{}
	for _, p := range []string{"/api", "/apis"} {
		b, err := f.get(p, "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList")
		if err != nil {
			return nil, nil, err
		}
		aggregated[p] = b
	}
	return map[string]any{"version": json.RawMessage(version), "paths": paths, "aggregated": aggregated}, res, nil
}

// tables records the Table column definitions of every listable
// resource, keyed "group/resource" (the preferred version's columns).
func (f *fetcher) tables(res []listable) (map[string]json.RawMessage, error) {
	out := map[string]json.RawMessage{}
	for _, r := range res {
		key := r.group + "/" + r.resource
		if _, done := out[key]; done {
			continue
		}
		p := "/api/" + r.version + "/" + r.resource
		if r.group != "" {
			p = "/apis/" + r.group + "/" + r.version + "/" + r.resource
		}
		b, err := f.get(p+"?limit=1", "application/json;as=Table;v=v1;g=meta.k8s.io")
		if err != nil {
			return nil, err
		}
		var t struct {
			Columns json.RawMessage `json:"columnDefinitions"`
		}
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, err
		}
		out[key] = t.Columns
	}
	return out, nil
}

func (f *fetcher) openAPIV3() (map[string]json.RawMessage, error) {
	b, err := f.get("/openapi/v3", "application/json")
	if err != nil {
		return nil, err
	}
	var index struct {
		Paths map[string]struct {
			URL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(b, &index); err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	for p, ref := range index.Paths {
		doc, err := f.get(ref.URL, "application/json")
		if err != nil {
			return nil, err
		}
		out[p] = doc
	}
	return out, nil
}

func writeGzip(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(b); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "fakedata: %s: %d bytes (%d uncompressed)\n", name, buf.Len(), len(b))
	return os.WriteFile(name, buf.Bytes(), 0o644)
}
