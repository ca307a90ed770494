package fake

import (
	"encoding/json"
	"slices"
	"testing"
)

// kube-apiserver keys a custom resource's reset fields by the request's
// version alone: a main-resource update through v1 that sends no status
// takes the status fields from a status entry written through v1beta1
// (its comparison at v1beta1 sees them removed), while a v1 status entry
// keeps them. Found by TestGeneratedSequences seed 6218 and checked on
// kube-apiserver v1.36.3.
func TestCustomResourceResetFieldsOfOtherVersions(t *testing.T) {
	_, c := newTestServer(t, Options{})
	sch := `"subresources":{"status":{}},"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer"}}},"status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}`
	c.mustDo(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"shapes.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"shapes","kind":"Shape"},"versions":[
{"name":"v1","served":true,"storage":true,`+sch+`},{"name":"v1beta1","served":true,"storage":false,`+sch+`}]}}`)
	type entry struct{ APIVersion, Subresource string }
	entries := func(b []byte) (string, []entry) {
		var o struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
				ManagedFields   []entry
			}
		}
		if err := json.Unmarshal(b, &o); err != nil {
			t.Fatal(err)
		}
		return o.Metadata.ResourceVersion, o.Metadata.ManagedFields
	}
	for _, tc := range []struct {
		statusVersion string
		want          []entry
	}{
		{"v1beta1", []entry{{"example.com/v1", ""}}},
		{"v1", []entry{{"example.com/v1", ""}, {"example.com/v1", "status"}}},
	} {
		name := "s-" + tc.statusVersion
		rv, _ := entries(c.mustDo(201, "POST", "/apis/example.com/v1/namespaces/default/shapes", `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"name":"`+name+`"},"spec":{"replicas":1}}`))
		rv, _ = entries(c.mustDo(200, "PUT", "/apis/example.com/"+tc.statusVersion+"/namespaces/default/shapes/"+name+"/status", `{"apiVersion":"example.com/`+tc.statusVersion+`","kind":"Shape","metadata":{"name":"`+name+`","resourceVersion":"`+rv+`"},"status":{"replicas":1}}`))
		_, got := entries(c.mustDo(200, "PUT", "/apis/example.com/v1/namespaces/default/shapes/"+name, `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"name":"`+name+`","resourceVersion":"`+rv+`"},"spec":{"replicas":3}}`))
		if !slices.Equal(got, tc.want) {
			t.Errorf("status written through %s, then an update through v1: managedFields %v, want %v", tc.statusVersion, got, tc.want)
		}
	}
}

// A status write resets the spec for every version: an entry of another
// version keeps its spec fields (seed 6114).
func TestCustomResourceStatusWriteKeepsOtherVersionsSpec(t *testing.T) {
	_, c := newTestServer(t, Options{})
	sch := `"subresources":{"status":{}},"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer"}}},"status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}`
	c.mustDo(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"shapes.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"shapes","kind":"Shape"},"versions":[
{"name":"v1","served":true,"storage":true,`+sch+`},{"name":"v1beta1","served":true,"storage":false,`+sch+`}]}}`)
	var o struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
			ManagedFields   []struct{ APIVersion, Subresource string }
		}
	}
	if err := json.Unmarshal(c.mustDo(201, "POST", "/apis/example.com/v1beta1/namespaces/default/shapes", `{"apiVersion":"example.com/v1beta1","kind":"Shape","metadata":{"name":"s"},"spec":{"replicas":1}}`), &o); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(c.mustDo(200, "PUT", "/apis/example.com/v1/namespaces/default/shapes/s/status", `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"name":"s","resourceVersion":"`+o.Metadata.ResourceVersion+`"},"status":{"replicas":1}}`), &o); err != nil {
		t.Fatal(err)
	}
	if len(o.Metadata.ManagedFields) != 2 {
		t.Errorf("managedFields %v, want the v1beta1 entry and the v1 status entry", o.Metadata.ManagedFields)
	}
}
