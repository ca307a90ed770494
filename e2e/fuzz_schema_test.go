package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strings"
)

// The differential fuzzer builds its requests from kube-apiserver's own
// OpenAPI v3 documents: the fields of each kind, their types, formats
// and enums. A leaf is a field the generator sets (a scalar, or an
// object of unknown shape), at a path of keys and "[0]" for the first
// item of a list.

// oaSchema is the part of an OpenAPI v3 schema the fuzzer reads.
type oaSchema struct {
	Ref                  string              `json:"$ref"`
	AllOf                []oaSchema          `json:"allOf"`
	Type                 string              `json:"type"`
	Format               string              `json:"format"`
	Enum                 []any               `json:"enum"`
	Properties           map[string]oaSchema `json:"properties"`
	Items                *oaSchema           `json:"items"`
	AdditionalProperties *oaSchema           `json:"additionalProperties"`
	Required             []string            `json:"required"`
}

// fuzzLeaf is a field the generator can set.
type fuzzLeaf struct {
	path     []string // keys, "[0]" for a list's first item, "*" for a map key
	typ      string   // string, integer, number, boolean, object
	format   string
	enum     []string
	required bool // its object requires it
}

func (l fuzzLeaf) String() string { return strings.Join(l.path, ".") }

// fuzzSchemas are the component schemas of the group versions the
// fuzzer writes, by name.
type fuzzSchemas map[string]oaSchema

// fetchFuzzSchemas reads the OpenAPI v3 documents of group versions from
// a server.
func fetchFuzzSchemas(ctx context.Context, hc *http.Client, base, token string, gvs []string) (fuzzSchemas, error) {
	out := fuzzSchemas{}
	for _, gv := range gvs {
		p := "/openapi/v3/apis/" + gv
		if gv == "v1" {
			p = "/openapi/v3/api/v1"
		}
		req, err := http.NewRequestWithContext(ctx, "GET", base+p, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := hc.Do(req)
		if err != nil {
			return nil, err
		}
		var doc struct {
			Components struct {
				Schemas map[string]oaSchema `json:"schemas"`
			} `json:"components"`
		}
		err = json.NewDecoder(resp.Body).Decode(&doc)
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		for n, s := range doc.Components.Schemas {
			out[n] = s
		}
	}
	return out, nil
}

// resolve follows $ref and a single allOf.
func (s fuzzSchemas) resolve(x oaSchema) (oaSchema, string) {
	for range 4 {
		if x.Ref == "" && len(x.AllOf) == 1 {
			x = x.AllOf[0]
		}
		if x.Ref == "" {
			return x, ""
		}
		name := path.Base(x.Ref)
		r, ok := s[name]
		if !ok {
			return oaSchema{Type: "object"}, name
		}
		x = r
		if x.Ref == "" && len(x.AllOf) == 0 {
			return x, name
		}
	}
	return x, ""
}

// leaves lists the fields of a kind the generator may set, depth first,
// at most maxDepth keys deep, leaving out status, the type fields and
// managedFields, and recursive definitions past their first use.
func (s fuzzSchemas) leaves(kind string, maxDepth int) []fuzzLeaf {
	var out []fuzzLeaf
	var walk func(x oaSchema, p []string, required bool, seen []string)
	walk = func(x oaSchema, p []string, required bool, seen []string) {
		x, name := s.resolve(x)
		if name != "" {
			if slices.Contains(seen, name) {
				return
			}
			seen = append(seen, name)
		}
		switch {
		case name == "io.k8s.apimachinery.pkg.api.resource.Quantity":
			out = append(out, fuzzLeaf{path: p, typ: "string", format: "quantity", required: required})
			return
		case name == "io.k8s.apimachinery.pkg.util.intstr.IntOrString":
			out = append(out, fuzzLeaf{path: p, typ: "string", format: "int-or-string", required: required})
			return
		case name == "io.k8s.apimachinery.pkg.apis.meta.v1.Time" || name == "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime":
			out = append(out, fuzzLeaf{path: p, typ: "string", format: "date-time", required: required})
			return
		}
		if len(p) >= maxDepth {
			return
		}
		switch {
		case len(x.Properties) > 0:
			for _, k := range sortedKeys(x.Properties) {
				if len(p) == 0 && (k == "status" || k == "apiVersion" || k == "kind") {
					continue
				}
				if k == "managedFields" || k == "selfLink" {
					continue
				}
				walk(x.Properties[k], append(slices.Clone(p), k), slices.Contains(x.Required, k), seen)
			}
		case x.Type == "array" && x.Items != nil:
			walk(*x.Items, append(slices.Clone(p), "[0]"), false, seen)
		case x.Type == "object" && x.AdditionalProperties != nil:
			walk(*x.AdditionalProperties, append(slices.Clone(p), "*"), false, seen)
		case x.Type == "object":
			out = append(out, fuzzLeaf{path: p, typ: "object", required: required})
		case x.Type != "":
			l := fuzzLeaf{path: p, typ: x.Type, format: x.Format, required: required}
			for _, e := range x.Enum {
				if v, ok := e.(string); ok {
					l.enum = append(l.enum, v)
				}
			}
			out = append(out, l)
		}
	}
	walk(s[kind], nil, false, nil)
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// setPath sets a value at a leaf's path in a decoded object, making the
// objects and lists on the way (a list gets one item; "*" is the map
// key "k1").
func setPath(obj map[string]any, p []string, v any) {
	var cur any = obj
	for i, k := range p {
		last := i == len(p)-1
		switch {
		case k == "[0]":
			l, _ := cur.([]any)
			_ = l // lists are made by their parent
			return
		default:
			if k == "*" {
				k = "k1"
			}
			m, ok := cur.(map[string]any)
			if !ok {
				return
			}
			if last {
				m[k] = v
				return
			}
			if p[i+1] == "[0]" {
				l, _ := m[k].([]any)
				if len(l) == 0 {
					l = []any{map[string]any{}}
				}
				if i+1 == len(p)-1 {
					l[0] = v
					m[k] = l
					return
				}
				item, ok := l[0].(map[string]any)
				if !ok {
					item = map[string]any{}
					l[0] = item
				}
				m[k] = l
				setPath(item, p[i+2:], v)
				return
			}
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			cur = next
		}
	}
}

// getPath reads the value at a path, or false.
func getPath(obj map[string]any, p []string) (any, bool) {
	var cur any = obj
	for _, k := range p {
		switch {
		case k == "[0]":
			l, ok := cur.([]any)
			if !ok || len(l) == 0 {
				return nil, false
			}
			cur = l[0]
		default:
			if k == "*" {
				k = "k1"
			}
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, false
			}
			if cur, ok = m[k]; !ok {
				return nil, false
			}
		}
	}
	return cur, true
}
