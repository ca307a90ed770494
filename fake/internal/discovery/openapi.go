package discovery

import (
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/upstream"
)

// serveInfo answers the health checks and the OpenAPI documents. It
// reports whether path was one of them.
func (s *Server) serveInfo(w http.ResponseWriter, req *http.Request, path string) bool {
	switch {
	case path == "/healthz" || path == "/readyz" || path == "/livez" ||
		strings.HasPrefix(path, "/healthz/") || strings.HasPrefix(path, "/readyz/") || strings.HasPrefix(path, "/livez/"):
		s.serveHealth(w, req, path)
	case path == "/openapi/v2":
		s.serveOpenAPIV2(w, req)
	case path == "/openapi/v3":
		s.serveOpenAPIV3Index(w, req)
	case strings.HasPrefix(path, "/openapi/v3/"):
		s.serveOpenAPIV3(w, req, strings.TrimPrefix(path, "/openapi/v3/"))
	default:
		return false
	}
	return true
}

// healthChecks are the checks /readyz?verbose lists (a subset of
// kube-apiserver's: the ones that mean something for the fake).
func healthChecks() []string {
	return []string{"ping", "log", "etcd", "informer-sync", "poststarthook/start-apiextensions-controllers", "poststarthook/crd-informer-synced"}
}

// serveHealth answers /healthz, /readyz and /livez (and their single
// checks) as a healthy kube-apiserver does.
func (s *Server) serveHealth(w http.ResponseWriter, req *http.Request, path string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache, private")
	root, check, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if check != "" && !slices.Contains(healthChecks(), check) {
		http.NotFound(w, req)
		return
	}
	if _, verbose := req.URL.Query()["verbose"]; !verbose || check != "" {
		_, _ = io.WriteString(w, "ok")
		return
	}
	var b strings.Builder
	for _, c := range healthChecks() {
		b.WriteString("[+]" + c + " ok\n")
	}
	b.WriteString(root + " check passed\n")
	_, _ = io.WriteString(w, b.String())
}

// serveOpenAPIV2 answers /openapi/v2 with kube-apiserver's recorded
// document in JSON (custom resources are not in it). A client that
// accepts only the protobuf encoding gets 406.
func (s *Server) serveOpenAPIV2(w http.ResponseWriter, req *http.Request) {
	if a := req.Header.Get("Accept"); a != "" {
		accept, err := codec.ParseAccept(a)
		if _, ok := codec.Negotiate(accept, []codec.MediaType{request.MediaType("application", "json")}); err != nil || !ok {
			request.WriteError(w, req, apierr.NotAcceptable())
			return
		}
	}
	gz, err := upstream.OpenAPIV2Gzip()
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache, private")
	h.Add("Vary", "Accept-Encoding")
	h.Add("Vary", "Accept")
	if request.AcceptsGzip(req) {
		h.Set("Content-Encoding", "gzip")
		_, _ = w.Write(gz)
		return
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
		return
	}
	_, _ = io.Copy(w, zr)
}

// openAPIV3Docs returns every OpenAPI v3 document by path: the recorded
// ones, and one per custom resource group version built from the CRDs'
// schemas.
func (s *Server) openAPIV3Docs() (map[string][]byte, error) {
	rec, err := s.Docs.openAPIV3()
	if err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(rec)+4)
	for p, d := range rec {
		out[p] = d
	}
	crd, err := s.Docs.customResourceOpenAPI()
	if err != nil {
		return nil, err
	}
	for gv, doc := range s.customOpenAPIV3(crd) {
		out["apis/"+gv] = doc
	}
	return out, nil
}

func openAPIHash(doc []byte) string {
	sum := sha512.Sum512(doc)
	return strings.ToUpper(hex.EncodeToString(sum[:]))
}

// serveOpenAPIV3Index answers /openapi/v3: every document's path with
// its hash.
func (s *Server) serveOpenAPIV3Index(w http.ResponseWriter, req *http.Request) {
	docs, err := s.openAPIV3Docs()
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
		return
	}
	paths := map[string]any{}
	for p, d := range docs {
		paths[p] = map[string]string{"serverRelativeURL": "/openapi/v3/" + p + "?hash=" + openAPIHash(d)}
	}
	b, _ := json.Marshal(map[string]any{"paths": paths})
	// kube-apiserver leaves the index's Content-Type to be sniffed.
	request.WriteBody(w, req, http.StatusOK, "text/plain; charset=utf-8", b, s.GzipThreshold)
}

// serveOpenAPIV3 answers one OpenAPI v3 document, cacheable for good
// when asked for by its hash.
func (s *Server) serveOpenAPIV3(w http.ResponseWriter, req *http.Request, path string) {
	docs, err := s.openAPIV3Docs()
	if err != nil {
		request.WriteError(w, req, apierr.Internal(err))
		return
	}
	doc, ok := docs[path]
	if !ok {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	hash := openAPIHash(doc)
	h := w.Header()
	h.Set("Etag", strconv.Quote(hash))
	h.Set("Vary", "Accept")
	if req.URL.Query().Get("hash") == hash {
		h.Set("Cache-Control", "public, immutable")
	}
	if req.Header.Get("If-None-Match") == strconv.Quote(hash) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	request.WriteRawBody(w, req, http.StatusOK, "application/json", doc, s.GzipThreshold)
}

// metaSchemaPrefix names the apimachinery schemas a custom resource's
// document refers to.
const metaSchemaPrefix = "io.k8s.apimachinery.pkg.apis.meta.v1."

// scaleSchemaPrefix names the schemas of the scale subresource.
const scaleSchemaPrefix = "io.k8s.api.autoscaling.v1."

// customOpenAPIV3 builds the OpenAPI v3 document of every served custom
// resource group version ("group/version") as kube-apiserver does: each
// kind's schema from its CRD (with apiVersion, kind and metadata) and its
// list kind, the kind's paths and the other groups' schemas from the
// recorded document of a custom resource (kubectl looks for the kind's
// patch operation and its fieldValidation parameter in the paths).
func (s *Server) customOpenAPIV3(rec *upstream.CustomResourceOpenAPI) map[string][]byte {
	var custom []*object.Resource
	for _, r := range s.Resources() {
		if r.Custom && r.CRD != nil {
			custom = append(custom, r)
		}
	}
	byGV := map[string]map[string]any{}
	pathsByGV := map[string]map[string]any{}
	for _, r := range custom {
		crd := s.CRD(r.CRD.Name)
		if crd == nil {
			continue
		}
		gv := r.Kind.Group + "/" + r.Kind.Version
		schemas := byGV[gv]
		if schemas == nil {
			schemas = map[string]any{}
			byGV[gv] = schemas
			pathsByGV[gv] = map[string]any{}
			for name, sch := range rec.Schemas {
				if strings.HasPrefix(name, metaSchemaPrefix) {
					schemas[name] = sch
				}
			}
		}
		prefix := reverseDomain(r.Kind.Group) + "." + r.Kind.Version + "."
		kindSchema := map[string]any{"type": "object"}
		var status, scale bool
		for _, v := range crd.Spec.Versions {
			if v.Name != r.Kind.Version {
				continue
			}
			if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				b, _ := json.Marshal(v.Schema.OpenAPIV3Schema)
				_ = json.Unmarshal(b, &kindSchema)
			}
			if v.Subresources != nil {
				status, scale = v.Subresources.Status != nil, v.Subresources.Scale != nil
			}
		}
		for p, item := range customPaths(rec.Paths[string(crd.Spec.Scope)], r, status, scale) {
			pathsByGV[gv][p] = item
		}
		if scale {
			for name, sch := range rec.Schemas {
				if strings.HasPrefix(name, scaleSchemaPrefix) {
					schemas[name] = sch
				}
			}
		}
		props, _ := kindSchema["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
			kindSchema["properties"] = props
		}
		props["apiVersion"] = map[string]any{"type": "string", "description": apiVersionDoc}
		props["kind"] = map[string]any{"type": "string", "description": kindDoc}
		props["metadata"] = map[string]any{"description": objectMetaDoc, "allOf": []any{map[string]any{"$ref": "#/components/schemas/" + metaSchemaPrefix + "ObjectMeta"}}}
		kindSchema["x-kubernetes-group-version-kind"] = []any{map[string]string{"group": r.Kind.Group, "kind": r.Kind.Kind, "version": r.Kind.Version}}
		schemas[prefix+r.Kind.Kind] = kindSchema
		schemas[prefix+r.Kind.ListKind] = map[string]any{
			"description": r.Kind.ListKind + " is a list of " + r.Kind.Kind,
			"type":        "object",
			"required":    []string{"items"},
			"properties": map[string]any{
				"apiVersion": map[string]any{"type": "string", "description": apiVersionDoc},
				"kind":       map[string]any{"type": "string", "description": kindDoc},
				"items": map[string]any{"type": "array", "description": "List of " + r.Kind.Resource + ". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
					"items": map[string]any{"$ref": "#/components/schemas/" + prefix + r.Kind.Kind}},
				"metadata": map[string]any{"description": listMetadataDoc, "allOf": []any{map[string]any{"$ref": "#/components/schemas/" + metaSchemaPrefix + "ListMeta"}}},
			},
			"x-kubernetes-group-version-kind": []any{map[string]string{"group": r.Kind.Group, "kind": r.Kind.ListKind, "version": r.Kind.Version}},
		}
	}
	out := make(map[string][]byte, len(byGV))
	for gv, schemas := range byGV {
		b, _ := json.Marshal(map[string]any{
			"openapi": "3.0.0",
			"info":    map[string]string{"title": "Kubernetes CRD Swagger", "version": "v0.1.0"},
			"paths":   pathsByGV[gv],
			"components": map[string]any{
				"schemas": schemas,
			},
		})
		out[gv] = b
	}
	return out
}

// customPaths fills in the recorded paths of a custom resource of the
// scope the template is for, without the subresources it does not have.
func customPaths(template string, r *object.Resource, status, scale bool) map[string]any {
	if template == "" {
		return nil
	}
	group := strings.TrimSuffix(r.Kind.Group, ".k8s.io")
	text := strings.NewReplacer(
		"${group}", r.Kind.Group,
		"${reversedGroup}", reverseDomain(r.Kind.Group),
		"${GroupID}", operationID(group, true),
		"${groupTag}", operationID(group, false),
		"${version}", r.Kind.Version,
		"${VersionID}", operationID(r.Kind.Version, true),
		"${plural}", r.Kind.Resource,
		"${ListKind}", r.Kind.ListKind,
		"${Kind}", r.Kind.Kind,
	).Replace(template)
	var paths map[string]any
	if json.Unmarshal([]byte(text), &paths) != nil {
		return nil
	}
	for p := range paths {
		if (!status && strings.HasSuffix(p, "/{name}/status")) || (!scale && strings.HasSuffix(p, "/{name}/scale")) {
			delete(paths, p)
		}
	}
	return paths
}

// operationID turns a group or version into the camel-case word
// kube-apiserver puts in operation IDs and tags: letters and underscores
// kept, digits kept except first, anything else dropped and the letter
// after it capitalised.
func operationID(s string, capitalizeFirst bool) string {
	var b strings.Builder
	upper := capitalizeFirst
	for i, c := range s {
		if !unicode.IsLetter(c) && c != '_' && (i == 0 || !unicode.IsDigit(c)) {
			upper = true
			continue
		}
		if upper {
			c = unicode.ToUpper(c)
			upper = false
		}
		b.WriteRune(c)
	}
	return b.String()
}

// reverseDomain turns "fid.example.com" into "com.example.fid", as
// kube-apiserver names custom resource schemas.
func reverseDomain(group string) string {
	parts := strings.Split(group, ".")
	slices.Reverse(parts)
	return strings.Join(parts, ".")
}

// The descriptions kube-apiserver gives the fields it adds to a custom
// resource's schema.
const (
	apiVersionDoc   = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	kindDoc         = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	objectMetaDoc   = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	listMetadataDoc = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)
