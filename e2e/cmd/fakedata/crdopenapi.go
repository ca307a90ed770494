package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// crdTemplateNames are the names of the custom resources whose OpenAPI
// paths are recorded, and the placeholders they become (longest first,
// so that "GizmoList" is replaced before "Gizmo").
var crdTemplateNames = [][2]string{
	{"GROUP.tmpl.example.org", "${group}"},
	{"org.example.tmpl.GROUP", "${reversedGroup}"},
	{"GROUPCAMELTmplExampleOrg", "${GroupID}"},
	{"GROUPLOWERTmplExampleOrg", "${groupTag}"},
	{"V1alpha1", "${VersionID}"},
	{"v1alpha1", "${version}"},
	{"gizmos", "${plural}"},
	{"GizmoList", "${ListKind}"},
	{"Gizmo", "${Kind}"},
}

// crdOpenAPI records the paths kube-apiserver's OpenAPI v3 document of a
// custom resource group version has, for a namespaced and a
// cluster-scoped kind with status and scale subresources, with the
// names replaced by placeholders the fake fills in (the fake drops the
// subresource paths a CRD does not have), and the schemas of other
// groups the document holds (metadata, Scale).
func (f *fetcher) crdOpenAPI() (map[string]any, error) {
	out := map[string]any{}
	for _, scope := range []string{"Namespaced", "Cluster"} {
		lower := strings.ToLower(scope)
		group := lower + ".tmpl.example.org"
		crd := fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gizmos.%s"},
"spec":{"group":%q,"scope":%q,"names":{"plural":"gizmos","singular":"gizmo","kind":"Gizmo"},
"versions":[{"name":"v1alpha1","served":true,"storage":true,
"subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}},
"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer"}}},"status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}}]}}`, group, group, scope)
		if err := f.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd); err != nil {
			return nil, err
		}
		var paths json.RawMessage
		for deadline := time.Now().Add(time.Minute); ; {
			b, err := f.get("/openapi/v3/apis/"+group+"/v1alpha1", "application/json")
			if err == nil {
				var doc struct {
					Paths      map[string]json.RawMessage `json:"paths"`
					Components struct {
						Schemas map[string]json.RawMessage `json:"schemas"`
					} `json:"components"`
				}
				if err := json.Unmarshal(b, &doc); err != nil {
					return nil, err
				}
				if len(doc.Paths) > 0 {
					paths, _ = json.Marshal(doc.Paths)
					if scope == "Namespaced" {
						shared := map[string]json.RawMessage{}
						for name, sch := range doc.Components.Schemas {
							if !strings.HasPrefix(name, "org.example.tmpl.") {
								shared[name] = sch
							}
						}
						out["schemas"] = shared
					}
					break
				}
			}
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("the OpenAPI document of %s has no paths after a minute (last error: %v)", group, err)
			}
			time.Sleep(500 * time.Millisecond)
		}
		text := string(paths)
		for _, r := range crdTemplateNames {
			from := strings.NewReplacer("GROUPCAMEL", scope, "GROUPLOWER", lower, "GROUP", lower).Replace(r[0])
			text = strings.ReplaceAll(text, from, r[1])
		}
		if strings.Contains(text, "izmo") || strings.Contains(text, "tmpl") {
			return nil, fmt.Errorf("the %s template keeps a name it should not: %.300s", scope, text)
		}
		out[scope] = json.RawMessage(text)
	}
	return out, nil
}

// post creates an object from its JSON.
func (f *fetcher) post(path, body string) error {
	hc, err := f.c.HTTPClient()
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(f.ctx, "POST", f.c.URL+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+f.c.AdminToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	_, _ = b.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("POST %s: %d %.200s", path, resp.StatusCode, b.Bytes())
	}
	return nil
}
