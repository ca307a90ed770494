package fake

import (
	"encoding/json"
	"testing"
)

// A write through a version other than the storage version that changes
// nothing is no write: kube-apiserver converts the object to the storage
// version (with conversion None, it relabels apiVersion) and finds it
// equal to the stored one, so the resource version stays. A write that
// changes the object is stored at the storage version. Found by
// TestGeneratedSequences seed 6061: the fake stored the object under the
// request's version, which differed from the stored one.
func TestCustomResourceNoOpWriteThroughOtherVersion(t *testing.T) {
	_, c := newTestServer(t, Options{})
	sch := `"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer"},"counter":{"type":"integer"}}}}}}`
	c.mustDo(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"shapes.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"shapes","kind":"Shape"},"versions":[
{"name":"v1","served":true,"storage":true,`+sch+`},{"name":"v1beta1","served":true,"storage":false,`+sch+`}]}}`)
	var apiVersion string
	rv := func(b []byte) string {
		var o struct {
			APIVersion string `json:"apiVersion"`
			Metadata   struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(b, &o); err != nil {
			t.Fatal(err)
		}
		apiVersion = o.APIVersion
		return o.Metadata.ResourceVersion
	}
	created := rv(c.mustDo(201, "POST", "/apis/example.com/v1/namespaces/default/shapes", `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"name":"s"},"spec":{"replicas":1}}`))
	for _, v := range []string{"v1", "v1beta1", "v1beta1"} {
		if got := rv(c.mustPatch(200, "/apis/example.com/"+v+"/namespaces/default/shapes/s", "application/merge-patch+json", `{"spec":{"counter":null}}`)); got != created {
			t.Errorf("a no-op patch through %s answered resourceVersion %s, want %s", v, got, created)
		}
	}
	changed := rv(c.mustPatch(200, "/apis/example.com/v1beta1/namespaces/default/shapes/s", "application/merge-patch+json", `{"spec":{"counter":2}}`))
	if changed == created {
		t.Fatal("a patch through v1beta1 that changes the object kept its resourceVersion")
	}
	if apiVersion != "example.com/v1beta1" {
		t.Errorf("a patch through v1beta1 answered apiVersion %s", apiVersion)
	}
	// Stored at v1 now: a no-op through v1 is no write either.
	if got := rv(c.mustPatch(200, "/apis/example.com/v1/namespaces/default/shapes/s", "application/merge-patch+json", `{"spec":{"counter":2}}`)); got != changed {
		t.Errorf("a no-op patch through v1 after a v1beta1 write answered resourceVersion %s, want %s", got, changed)
	}
}
