package fake

import (
	"encoding/json"
	"testing"
)

// A namespace's delete checks its preconditions itself and words the
// 409 as kube-apiserver's namespace registry does (not as its generic
// storage). Found by TestGeneratedSequences seed 10.
func TestNamespaceDeletePreconditionMessage(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"pre"}}`)
	var ns struct {
		Metadata struct{ ResourceVersion string } `json:"metadata"`
	}
	if err := json.Unmarshal(c.mustDo(200, "GET", "/api/v1/namespaces/pre", ""), &ns); err != nil {
		t.Fatal(err)
	}
	var st struct {
		Message string
		Details struct{ Name, Kind string }
	}
	body := c.mustDo(409, "DELETE", "/api/v1/namespaces/pre", `{"preconditions":{"resourceVersion":"1"}}`)
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatal(err)
	}
	want := `Operation cannot be fulfilled on namespaces "pre": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ` + ns.Metadata.ResourceVersion
	if st.Message != want || st.Details.Kind != "namespaces" || st.Details.Name != "pre" {
		t.Errorf("message %q details %+v, want %q and kind namespaces", st.Message, st.Details, want)
	}
}
