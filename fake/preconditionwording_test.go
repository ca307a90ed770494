package fake

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// conflictOf decodes the message and details of a Status answer.
func conflictOf(t *testing.T, body []byte) (string, string) {
	t.Helper()
	var st struct {
		Message string
		Details struct{ Kind string }
	}
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatal(err)
	}
	return st.Message, st.Details.Kind
}

// A custom resource's delete checks its preconditions in kube-apiserver's
// generic registry, as a ConfigMap's does: the 409 names the kind and
// says what the mismatch may mean. Only the registries of namespaces and
// of CustomResourceDefinitions word it "Precondition failed". Found by
// TestGeneratedSequences seeds 27, 35, 86, 163 and 185.
func TestCustomResourceDeletePreconditionMessage(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gadgetCRD)
	var g struct {
		Metadata struct{ UID, ResourceVersion string } `json:"metadata"`
	}
	if err := json.Unmarshal(c.mustDo(http.StatusCreated, "POST", gadgets, `{"apiVersion":"test.example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":1}}`), &g); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ pre, want string }{
		{`{"uid":"00000000-0000-0000-0000-000000000000"}`, `Operation cannot be fulfilled on Gadget.test.example.com "g": the UID in the precondition (00000000-0000-0000-0000-000000000000) does not match the UID in record (` + g.Metadata.UID + `). The object might have been deleted and then recreated`},
		{`{"resourceVersion":"1"}`, `Operation cannot be fulfilled on Gadget.test.example.com "g": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (` + g.Metadata.ResourceVersion + `). The object might have been modified`},
	} {
		for _, dry := range []string{"", "?dryRun=All"} {
			msg, kind := conflictOf(t, c.mustDo(http.StatusConflict, "DELETE", gadgets+"/g"+dry, `{"preconditions":`+tc.pre+`}`))
			if msg != tc.want || kind != "Gadget" {
				t.Errorf("precondition %s%s: message %q details kind %q, want %q and Gadget", tc.pre, dry, msg, kind, tc.want)
			}
		}
	}
	// A CRD's own registry words it as the namespace registry does.
	msg, kind := conflictOf(t, c.mustDo(http.StatusConflict, "DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.test.example.com", `{"preconditions":{"resourceVersion":"1"}}`))
	if want := `Operation cannot be fulfilled on customresourcedefinitions.apiextensions.k8s.io "gadgets.test.example.com": Precondition failed`; kind != "customresourcedefinitions" || !strings.HasPrefix(msg, want) {
		t.Errorf("CRD delete precondition: message %q details kind %q", msg, kind)
	}
}

// A dry-run update naming another uid fails the precondition in the
// dry-run storage, whose error names the key the registry asked for,
// without etcd's "/registry" prefix; a real update's names it with.
// Found by TestGeneratedSequences seeds 29, 48, 69, 117, 152, 156, 164
// and 171.
func TestDryRunUpdateUIDPreconditionKey(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("u")
	body := `{"metadata":{"name":"u","uid":"00000000-0000-0000-0000-000000000000"}}`
	for _, tc := range []struct{ query, key string }{
		{"", "/registry/configmaps/default/u"},
		{"?dryRun=All", "/configmaps/default/u"},
	} {
		msg, _ := conflictOf(t, c.mustDo(http.StatusConflict, "PUT", testCMs+"/u"+tc.query, body))
		want := `Operation cannot be fulfilled on configmaps "u": StorageError: invalid object, Code: 4, Key: ` + tc.key + `, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000000, UID in object meta: `
		if !strings.HasPrefix(msg, want) {
			t.Errorf("update%s: message %q, want it to begin %q", tc.query, msg, want)
		}
	}
	// A Service may be created by an update: the precondition fails
	// against the empty object, in a dry run without the prefix too.
	msg, _ := conflictOf(t, c.mustDo(http.StatusConflict, "PUT", "/api/v1/namespaces/default/services/missing?dryRun=All", `{"metadata":{"name":"missing","uid":"00000000-0000-0000-0000-000000000001"},"spec":{"ports":[{"port":80}]}}`))
	if want := `Key: /services/specs/default/missing,`; !strings.Contains(msg, want) {
		t.Errorf("dry-run update of a missing Service: message %q, want %q in it", msg, want)
	}
}
