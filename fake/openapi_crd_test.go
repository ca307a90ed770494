package fake

import (
	"compress/gzip"
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A custom resource's OpenAPI v3 document is kube-apiserver v1.36.3's
// (recorded in testdata/openapi): paths of both scopes, with and without
// subresources, the shared schemas, and the kind's schema from the CRD.
func TestCustomResourceOpenAPIAsRecorded(t *testing.T) {
	gizmo := func(scope string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gizmos.` + scope + `.tmpl.example.org"},
"spec":{"group":"` + scope + `.tmpl.example.org","scope":"` + map[string]string{"namespaced": "Namespaced", "cluster": "Cluster"}[scope] + `","names":{"plural":"gizmos","singular":"gizmo","kind":"Gizmo"},
"versions":[{"name":"v1alpha1","served":true,"storage":true,
"subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}},
"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer"}}},"status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}}]}}`
	}
	tests := []struct {
		name, crd, docPath, recorded string
	}{
		{"namespaced, no subresources", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"crontabs.stable.example.com"},
"spec":{"group":"stable.example.com","scope":"Namespaced","names":{"plural":"crontabs","singular":"crontab","kind":"CronTab","shortNames":["ct"]},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"cronSpec":{"type":"string"},"replicas":{"type":"integer"}}}}}}}]}}`,
			"apis/stable.example.com/v1", "crontabs.stable.example.com"},
		{"namespaced, status and scale", gizmo("namespaced"), "apis/namespaced.tmpl.example.org/v1alpha1", "gizmos.namespaced.tmpl.example.org"},
		{"cluster-scoped, status and scale", gizmo("cluster"), "apis/cluster.tmpl.example.org/v1alpha1", "gizmos.cluster.tmpl.example.org"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, c := newTestServer(t, Options{})
			c.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", tt.crd)
			var got any
			if err := json.Unmarshal(c.mustDo(http.StatusOK, "GET", "/openapi/v3/"+tt.docPath, ""), &got); err != nil {
				t.Fatal(err)
			}
			want := readRecordedJSON(t, "testdata/openapi/"+tt.recorded+".json.gz")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("the document differs from kube-apiserver's (-kube-apiserver +fake):\n%s", diff)
			}
		})
	}
}

func readRecordedJSON(t *testing.T, name string) any {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.NewDecoder(zr).Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}
