package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A JSON patch replacing a label the object does not have, in a labels
// map it has, sets it: kube-apiserver's JSON patch (evanphx/json-patch
// v4) replaces a missing key of an object as add does. Without the map
// the path is missing and the patch fails. Found by TestGeneratedSequences
// seeds 38, 66, 92 and 142.
func TestJSONPatchReplaceOfMissingLabel(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"l","labels":{"tier":"x"}}}`)
	got := string(c.mustPatch(http.StatusOK, testCMs+"/l", "application/json-patch+json", `[{"op":"replace","path":"/metadata/labels/app","value":"b"}]`))
	if !strings.Contains(got, `"labels":{"app":"b","tier":"x"}`) {
		t.Errorf("patched object %s, want labels app=b and tier=x", got)
	}
	c.createCM("n")
	c.mustPatch(http.StatusUnprocessableEntity, testCMs+"/n", "application/json-patch+json", `[{"op":"replace","path":"/metadata/labels/app","value":"b"}]`)
}
