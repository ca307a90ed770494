package fake

import (
	"net/http"
	"testing"
)

// A list or watch negotiates its media type before it reads its options,
// as kube-apiserver's ListResource does: a custom resource listed in
// protobuf with bad options is a 406, not the options' 400 or 422.
// Found by the extended generator (seeds 1121 and 1126).
func TestListNegotiatesBeforeItReadsItsOptions(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gadgetCRD)
	for _, query := range []string{"?limit=1&resourceVersionMatch=Exact", "?fieldSelector=spec.unknown%3Dx", "?watch=true&resourceVersionMatch=Exact"} {
		resp, _ := c.do("GET", gadgets+query, "application/vnd.kubernetes.protobuf", "")
		if resp.StatusCode != http.StatusNotAcceptable {
			t.Errorf("%s in protobuf: %d, want 406", query, resp.StatusCode)
		}
	}
	resp, _ := c.do("GET", gadgets+"?limit=1&resourceVersionMatch=Exact", "application/json", "")
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("bad options in JSON: %d, want 422", resp.StatusCode)
	}
}
