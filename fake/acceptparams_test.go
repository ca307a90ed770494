package fake

import (
	"strings"
	"testing"
)

// kube-apiserver ignores Accept parameters it does not know (its
// negotiation records them as unrecognized and goes on), so a Table
// asked for with includeObject as a media type parameter is a Table.
// Found by TestGeneratedSequences seed 7: the fake answered 406.
func TestAcceptIgnoresUnknownParameters(t *testing.T) {
	_, c := newTestServer(t, Options{})
	for _, accept := range []string{
		"application/json;as=Table;v=v1;g=meta.k8s.io;includeObject=Metadata",
		"application/json;foo=bar",
		"application/json;charset=latin1",
	} {
		resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps", accept, "")
		if resp.StatusCode != 200 {
			t.Errorf("Accept %s: %d %s", accept, resp.StatusCode, body)
			continue
		}
		if strings.Contains(accept, "Table") && !strings.Contains(string(body), `"kind":"Table"`) {
			t.Errorf("Accept %s: not a Table: %.200s", accept, body)
		}
	}
}
