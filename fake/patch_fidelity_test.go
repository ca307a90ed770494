package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// A JSON, merge or strategic patch whose result has an unknown field
// under Strict validation is refused as kube-apiserver does: 422 Invalid
// on field "patch", the patched object (or the strategic patch's map) as
// the invalid value.
func TestStrictPatchIsInvalid(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("a")
	for _, tc := range []struct {
		contentType, body, value string
	}{
		{"application/merge-patch+json", `{"spec":{"x":1}}`, `\"spec\":{\"x\":1}`},
		{"application/json-patch+json", `[{"op":"add","path":"/spec","value":{"x":1}}]`, `\"spec\":{\"x\":1}`},
		{"application/strategic-merge-patch+json", `{"spec":{"x":1}}`, `map[spec:map[x:1]]`},
	} {
		req := c.request("PATCH", "/api/v1/namespaces/default/configmaps/a?fieldValidation=Strict", "application/json", tc.body)
		req.Header.Set("Content-Type", tc.contentType)
		resp, err := c.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var st metav1.Status
		err = json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusUnprocessableEntity || st.Reason != "Invalid" {
			t.Errorf("%s: %d %s, want 422 Invalid", tc.contentType, resp.StatusCode, st.Reason)
			continue
		}
		if !strings.HasPrefix(st.Message, ` "" is invalid: patch: Invalid value: `) ||
			!strings.HasSuffix(st.Message, `: strict decoding error: unknown field "spec"`) {
			t.Errorf("%s: message %q", tc.contentType, st.Message)
		}
		if st.Details == nil || len(st.Details.Causes) != 1 || st.Details.Causes[0].Field != "patch" ||
			!strings.Contains(st.Details.Causes[0].Message, tc.value) {
			t.Errorf("%s: details %+v, want one cause on field patch showing %s", tc.contentType, st.Details, tc.value)
		}
	}
}

// A Deployment's generation counts changes of its annotations, which
// kube-apiserver copies to the ReplicaSets; a ConfigMap has none.
func TestDeploymentAnnotationsBumpGeneration(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/apis/apps/v1/namespaces/default/deployments",
		`{"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"web:1"}]}}}}`)
	req := c.request("PATCH", "/apis/apps/v1/namespaces/default/deployments/web", "application/json", `{"metadata":{"annotations":{"a":"b"}}}`)
	req.Header.Set("Content-Type", "application/merge-patch+json")
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d struct{ Metadata struct{ Generation int64 } }
	if err := json.NewDecoder(resp.Body).Decode(&d); err != nil {
		t.Fatal(err)
	}
	if d.Metadata.Generation != 2 {
		t.Errorf("generation after an annotation patch: %d, want 2", d.Metadata.Generation)
	}
}
