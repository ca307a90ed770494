package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A DELETE whose dryRun is not All is a 422 naming DeleteOptions whether
// the value comes in the query or in a body, with one error quoting the
// whole list, as kube-apiserver v1.36.3 answers (checked with an e2e
// probe: DELETE ?dryRun=Some without a body, and {"dryRun":["Some"]}).
func TestDeleteDryRunOtherThanAll(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("d")
	want := `DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: [\"Some\"]: supported values: \"All\"`
	for _, tc := range []struct{ query, body string }{{"?dryRun=Some", ""}, {"", `{"dryRun":["Some"]}`}} {
		got := string(c.mustDo(http.StatusUnprocessableEntity, "DELETE", testCMs+"/d"+tc.query, tc.body))
		if !strings.Contains(got, want) {
			t.Errorf("DELETE%s %s: answered %s, want %s in it", tc.query, tc.body, got, want)
		}
	}
	c.mustDo(http.StatusOK, "GET", testCMs+"/d", "")
	c.mustDo(http.StatusOK, "DELETE", testCMs+"/d?dryRun=All", "")
	c.mustDo(http.StatusOK, "GET", testCMs+"/d", "")
}
