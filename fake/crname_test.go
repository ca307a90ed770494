package fake

import (
	"strings"
	"testing"
)

// A custom resource's invalid name is one error among its schema's, as
// kube-apiserver's custom resource strategy validates the metadata and
// the schema together: a 422 naming both. Found by TestGeneratedSequences
// seed 6000: the fake answered the name alone.
func TestCustomResourceNameAmongSchemaErrors(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"shapes.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"shapes","kind":"Shape"},"versions":[
{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{
"ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer"}}}}}}}}}}]}}`)
	const subdomainRule = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	for _, tc := range []struct {
		path, body string
		causes     string
	}{
		{"/apis/example.com/v1/namespaces/default/shapes", `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"name":"bad_name"},"spec":{"ports":[{"name":"a"},{"name":"a","port":1}]}}`,
			`"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"bad_name\": ` + subdomainRule + `","field":"metadata.name"},{"reason":"FieldValueDuplicate","message":"Duplicate value: {\"name\":\"a\"}","field":"spec.ports[1]"}]`},
		{"/apis/example.com/v1/namespaces/default/shapes", `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"generateName":"Bad-"}}`,
			`"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"Bad-\": ` + subdomainRule + `","field":"metadata.generateName"},{"reason":"FieldValueInvalid","message":"Invalid value: \"Bad-`},
		{"/apis/example.com/v1/namespaces/default/shapes/bad_name?fieldManager=m", `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"name":"bad_name"},"spec":{"ports":[{"name":"a"},{"name":"a","port":1}]}}`,
			`"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"bad_name\": ` + subdomainRule + `","field":"metadata.name"},{"reason":"FieldValueDuplicate"`},
	} {
		var body string
		if strings.Contains(tc.path, "fieldManager") {
			body = string(c.mustPatch(422, tc.path, "application/apply-patch+yaml", tc.body))
		} else {
			body = string(c.mustDo(422, "POST", tc.path, tc.body))
		}
		if !strings.Contains(body, tc.causes) {
			t.Errorf("%s: answer %s\nwant it to hold %s", tc.body, body, tc.causes)
		}
	}
}
