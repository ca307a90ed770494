package fake

import (
	"encoding/json"
	"testing"
)

// An update naming a uid makes the uid a precondition of the storage,
// checked before the object is found missing: kube-apiserver answers a
// 409 whose message names an empty stored uid, not a 404. Found by
// TestGeneratedSequences seed 4.
func TestUpdateOfMissingObjectWithUID(t *testing.T) {
	_, c := newTestServer(t, Options{})
	var st struct {
		Reason, Message string
		Code            int
	}
	body := c.mustDo(409, "PUT", "/api/v1/namespaces/default/configmaps/missing", `{"metadata":{"name":"missing","uid":"00000000-0000-0000-0000-000000000001"}}`)
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatal(err)
	}
	want := `Operation cannot be fulfilled on configmaps "missing": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/missing, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 00000000-0000-0000-0000-000000000001, UID in object meta: `
	if st.Reason != "Conflict" || st.Message != want {
		t.Errorf("reason %s message %q, want Conflict %q", st.Reason, st.Message, want)
	}
}
