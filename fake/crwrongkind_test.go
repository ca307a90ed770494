package fake

import (
	"strings"
	"testing"
)

// A custom resource created with another kind in its body is refused by
// its validation, as kube-apiserver v1.36.3 refuses it: a 422 naming the
// kind. Found by TestGeneratedSequences seed 14: the fake answered 400.
func TestCustomResourceOfAnotherKind(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gizmos.gendiff.example.com"},"spec":{"group":"gendiff.example.com","scope":"Namespaced","names":{"plural":"gizmos","kind":"Gizmo"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`)
	body := string(c.mustDo(422, "POST", "/apis/gendiff.example.com/v1/namespaces/default/gizmos", `{"apiVersion":"gendiff.example.com/v1","kind":"Widget","metadata":{"name":"g"}}`))
	for _, want := range []string{
		`"message":"Widget.gendiff.example.com \"g\" is invalid: kind: Invalid value: \"Widget\": must be Gizmo"`,
		`"details":{"name":"g","group":"gendiff.example.com","kind":"Widget","causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"Widget\": must be Gizmo","field":"kind"}]}`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("answer %s\nwant it to hold %s", body, want)
		}
	}
}
