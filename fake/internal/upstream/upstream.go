package upstream

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"fmt"
	"io"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

//go:embed data/*.json.gz
var data embed.FS

// read returns a data file's JSON, decompressed.
func read(name string) ([]byte, error) {
	b, err := data.ReadFile("data/" + name)
	if err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("upstream: %s: %w", name, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("upstream: %s: %w", name, err)
	}
	return out, nil
}

// Discovery is kube-apiserver's discovery as recorded, without custom
// resources.
type Discovery struct {
	// Version is the /version document.
	Version json.RawMessage `json:"version"`
	// Paths maps /api, /apis, /api/v1, /apis/GROUP and
	// /apis/GROUP/VERSION to their legacy discovery documents.
	Paths map[string]json.RawMessage `json:"paths"`
	// Aggregated maps /api and /apis to their apidiscovery.k8s.io/v2
	// APIGroupDiscoveryList in JSON.
	Aggregated map[string]json.RawMessage `json:"aggregated"`
}

// LoadDiscovery decodes the recorded discovery documents.
func LoadDiscovery() (*Discovery, error) {
	b, err := read("discovery.json.gz")
	if err != nil {
		return nil, err
	}
	d := &Discovery{}
	if err := json.Unmarshal(b, d); err != nil {
		return nil, fmt.Errorf("upstream: discovery: %w", err)
	}
	return d, nil
}

// LoadTableColumns decodes the Table column definitions of the built-in
// resources, keyed "GROUP/RESOURCE" ("/pods", "apps/deployments").
func LoadTableColumns() (map[string][]metav1.TableColumnDefinition, error) {
	b, err := read("tables.json.gz")
	if err != nil {
		return nil, err
	}
	out := map[string][]metav1.TableColumnDefinition{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("upstream: tables: %w", err)
	}
	return out, nil
}

// OpenAPIV2Gzip returns the /openapi/v2 document, gzipped.
func OpenAPIV2Gzip() ([]byte, error) {
	b, err := data.ReadFile("data/openapi-v2.json.gz")
	if err != nil {
		return nil, fmt.Errorf("upstream: %w", err)
	}
	return b, nil
}

// LoadOpenAPIV3 decodes the OpenAPI v3 documents, keyed by their path
// under /openapi/v3 ("api/v1", "apis/apps/v1").
func LoadOpenAPIV3() (map[string]json.RawMessage, error) {
	b, err := read("openapi-v3.json.gz")
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("upstream: openapi v3: %w", err)
	}
	return out, nil
}

// CustomResourceOpenAPI is what kube-apiserver's OpenAPI v3 document of
// a custom resource group version holds besides the kinds' schemas.
type CustomResourceOpenAPI struct {
	// Paths by scope ("Namespaced", "Cluster"): JSON text with
	// placeholders ${group}, ${reversedGroup}, ${GroupID}, ${groupTag},
	// ${version}, ${VersionID}, ${plural}, ${Kind} and ${ListKind},
	// recorded from a kind with status and scale subresources.
	Paths map[string]string
	// Schemas of other groups the document refers to (metadata, Scale).
	Schemas map[string]json.RawMessage
}

// LoadCustomResourceOpenAPI decodes the recorded paths and schemas of a
// custom resource's OpenAPI v3 document.
func LoadCustomResourceOpenAPI() (*CustomResourceOpenAPI, error) {
	b, err := read("crd-openapi.json.gz")
	if err != nil {
		return nil, err
	}
	var raw struct {
		Namespaced, Cluster json.RawMessage
		Schemas             map[string]json.RawMessage `json:"schemas"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("upstream: crd openapi: %w", err)
	}
	return &CustomResourceOpenAPI{
		Paths:   map[string]string{"Namespaced": string(raw.Namespaced), "Cluster": string(raw.Cluster)},
		Schemas: raw.Schemas,
	}, nil
}
