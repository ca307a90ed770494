package fake

import (
	"strings"
	"testing"
)

// A custom resource's status write validates the status with its own
// schema, as kube-apiserver's status strategy does: the errors name
// their fields from the root, their texts from the status ("replicas in
// body"). Found by TestGeneratedSequences seed 6076: the fake's texts
// said "status.replicas in body".
func TestCustomResourceStatusErrorTexts(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"shapes.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"shapes","kind":"Shape"},"versions":[
{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","properties":{"replicas":{"type":"integer"}}},
"status":{"type":"object","properties":{"replicas":{"type":"integer","minimum":0},"phase":{"type":"string","maxLength":3}}}}}}}]}}`)
	c.mustDo(201, "POST", "/apis/example.com/v1/namespaces/default/shapes", `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"name":"s"},"spec":{"replicas":1}}`)
	body := string(c.mustPatch(422, "/apis/example.com/v1/namespaces/default/shapes/s/status", "application/merge-patch+json", `{"status":{"replicas":"many","phase":"long"}}`))
	for _, want := range []string{
		`{"reason":"FieldValueTypeInvalid","message":"Invalid value: \"string\": replicas in body must be of type integer: \"string\"","field":"status.replicas"}`,
		`"field":"status.phase"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("answer %s\nwant it to hold %s", body, want)
		}
	}
	if strings.Contains(body, "status.replicas in body") {
		t.Errorf("answer %s names the field from the root in its text", body)
	}
	// The main resource's writes still name fields from the root.
	body = string(c.mustPatch(422, "/apis/example.com/v1/namespaces/default/shapes/s", "application/merge-patch+json", `{"spec":{"replicas":"many"}}`))
	if want := `spec.replicas in body must be of type integer`; !strings.Contains(body, want) {
		t.Errorf("answer %s\nwant it to hold %s", body, want)
	}
}
