package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A get's resourceVersion that is not a number: kube-apiserver v1.36.3
// answers 500 for kinds its watch cache serves and 400 for Events,
// which it reads from etcd (e2e TestFuzzFidelity's reports).
func TestGetResourceVersionNotANumber(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("g")
	got := string(c.mustDo(http.StatusInternalServerError, "GET", testCMs+"/g?resourceVersion=bogus", ""))
	if want := `"message":"resourceVersion: Invalid value: \"bogus\": strconv.ParseUint: parsing \"bogus\": invalid syntax"`; !strings.Contains(got, want) {
		t.Errorf("configmap: got %s\nwant it to contain %s", got, want)
	}
	got = string(c.mustDo(http.StatusBadRequest, "GET", "/apis/events.k8s.io/v1/namespaces/default/events/e?resourceVersion=bogus", ""))
	if want := `"message":"invalid resource version: resourceVersion: Invalid value: \"bogus\": strconv.ParseUint: parsing \"bogus\": invalid syntax"`; !strings.Contains(got, want) {
		t.Errorf("event: got %s\nwant it to contain %s", got, want)
	}
	c.mustDo(http.StatusOK, "GET", testCMs+"/g?resourceVersion=0", "")
}
