package cel_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/cel"
)

// A failed rule's error shows the value of a scalar node (a string
// quoted, a number as it is) and omits an object's or a list's; a rule
// that fails to evaluate shows the node's schema type and names the rule
// (its message, or its text): as kube-apiserver v1.36.3's CEL validator
// words them. Found by TestGeneratedSequences seed 6021: the fake
// omitted the value of an integer's transition rule.
func TestRuleErrorValues(t *testing.T) {
	ev, err := cel.New()
	if err != nil {
		t.Fatal(err)
	}
	srv := fake.Start(fake.Options{Rules: ev})
	defer srv.Close()
	do := func(method, path, body string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL()+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+srv.Token())
		req.Header.Set("Content-Type", "application/json")
		if method == "PATCH" {
			req.Header.Set("Content-Type", "application/merge-patch+json")
		}
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"shapes.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"shapes","kind":"Shape"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object",
"x-kubernetes-validations":[{"rule":"self.minimum <= self.maximum","message":"minimum above maximum"}],
"properties":{"minimum":{"type":"integer"},"maximum":{"type":"integer"},
"id":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"id is immutable"}]},
"counter":{"type":"integer","x-kubernetes-validations":[{"rule":"!oldSelf.hasValue() || self >= oldSelf.value()","optionalOldSelf":true,"messageExpression":"self == 0 ? 'counter may not go down to zero' : 'counter may not go down'"}]},
"tags":{"type":"array","items":{"type":"string"},"x-kubernetes-validations":[{"rule":"size(self) < 2"}]}}}}}}}]}}`); code != 201 {
		t.Fatalf("create the CRD: %d %s", code, body)
	}
	shapes := "/apis/example.com/v1/namespaces/default/shapes"
	if code, body := do("POST", shapes, `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"name":"s"},"spec":{"minimum":1,"maximum":2,"id":"a","counter":3}}`); code != 201 {
		t.Fatalf("create: %d %s", code, body)
	}
	for _, tc := range []struct {
		name, method, path, body string
		want                     []string
	}{
		{"failed rules", "PATCH", shapes + "/s", `{"spec":{"minimum":3,"maximum":2,"id":"b","counter":0,"tags":["x","y"]}}`, []string{
			`{"reason":"FieldValueInvalid","message":"Invalid value: 0: counter may not go down to zero","field":"spec.counter"}`,
			`{"reason":"FieldValueInvalid","message":"Invalid value: \"b\": id is immutable","field":"spec.id"}`,
			`{"reason":"FieldValueInvalid","message":"Invalid value: failed rule: size(self) \u003c 2","field":"spec.tags"}`,
			`{"reason":"FieldValueInvalid","message":"Invalid value: minimum above maximum","field":"spec"}`,
		}},
		{"a rule that does not evaluate", "POST", shapes, `{"apiVersion":"example.com/v1","kind":"Shape","metadata":{"name":"t"},"spec":{"minimum":3}}`, []string{
			`{"reason":"FieldValueInvalid","message":"Invalid value: \"object\": no such key: maximum evaluating rule: minimum above maximum","field":"spec"}`,
		}},
	} {
		code, body := do(tc.method, tc.path, tc.body)
		if code != 422 {
			t.Errorf("%s: %d %s, want 422", tc.name, code, body)
		}
		for _, w := range tc.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s: answer %s\nwant it to hold %s", tc.name, body, w)
			}
		}
	}
}
