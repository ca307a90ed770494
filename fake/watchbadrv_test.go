package fake

import "testing"

// A watch's resourceVersion that is no number fails in kube-apiserver's
// watch cache with a 500 (a list's, and an Events watch's, with a 400),
// as v1.36.3 answers. Found by TestGeneratedSequences seed 14: the fake
// answered 400.
func TestWatchResourceVersionNotANumber(t *testing.T) {
	_, c := newTestServer(t, Options{})
	resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=abc", "", "")
	want := `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceVersion: Invalid value: \"abc\": strconv.ParseUint: parsing \"abc\": invalid syntax","code":500}` + "\n"
	if resp.StatusCode != 500 || string(body) != want {
		t.Errorf("watch: %d %s, want 500 %s", resp.StatusCode, body, want)
	}
	c.mustDo(400, "GET", "/api/v1/namespaces/default/configmaps?resourceVersion=abc", "")
	c.mustDo(400, "GET", "/api/v1/namespaces/default/events?watch=true&resourceVersion=abc", "")
}
