package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A namespace's first delete sets the garbage collector's finalizers as
// the namespace registry does: foregroundDeletion for the Foreground
// policy, orphan for Orphan, neither for Background. Found by
// TestGeneratedSequences seeds 67 and 132 (Foreground: kube-apiserver
// answered the namespace with foregroundDeletion, the fake without).
func TestNamespaceDeleteSetsPropagationFinalizers(t *testing.T) {
	_, c := newTestServer(t, Options{})
	for _, tc := range []struct{ policy, want string }{
		{"Foreground", `"finalizers":["foregroundDeletion"]`},
		{"Orphan", `"finalizers":["orphan"]`},
		{"Background", ``},
	} {
		name := "del-" + strings.ToLower(tc.policy)
		c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces", `{"metadata":{"name":"`+name+`"}}`)
		got := string(c.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/"+name+"?propagationPolicy="+tc.policy, ""))
		if tc.want != "" && !strings.Contains(got, tc.want) || tc.want == "" && (strings.Contains(got, `"foregroundDeletion"`) || strings.Contains(got, `"orphan"`)) {
			t.Errorf("%s: answered %s, want %s", tc.policy, got, tc.want)
		}
		if !strings.Contains(got, `"phase":"Terminating"`) {
			t.Errorf("%s: answered %s, want Terminating", tc.policy, got)
		}
	}
}
