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

// Events are read from etcd: a list at resourceVersion=0 honours the
// limit, and a read at a version not reached asks no retry.
func TestEventsReadFromEtcd(t *testing.T) {
	_, c := newTestServer(t, Options{})
	events := "/api/v1/namespaces/default/events"
	for _, n := range []string{"e1", "e2"} {
		c.mustDo(http.StatusCreated, "POST", events, `{"metadata":{"name":"`+n+`"},"involvedObject":{"kind":"Pod","name":"p","namespace":"default"},"reason":"R","message":"m","type":"Normal","source":{"component":"c"}}`)
	}
	got := string(c.mustDo(http.StatusOK, "GET", events+"?resourceVersion=0&limit=1", ""))
	if !strings.Contains(got, `"continue":"`) || !strings.Contains(got, `"remainingItemCount":1`) {
		t.Errorf("events at 0 with a limit: %s", got)
	}
	c.createCM("c1")
	c.createCM("c2")
	if got := string(c.mustDo(http.StatusOK, "GET", testCMs+"?resourceVersion=0&limit=1", "")); strings.Contains(got, `"continue":"`) {
		t.Errorf("configmaps at 0 are served from the watch cache, whole: %s", got)
	}
	resp, body := c.do("GET", events+"/e1?resourceVersion=99999999999", "", "")
	if resp.StatusCode != http.StatusGatewayTimeout || resp.Header.Get("Retry-After") != "" || strings.Contains(string(body), "retryAfterSeconds") {
		t.Errorf("too large on events: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	resp, _ = c.do("GET", testCMs+"/c1?resourceVersion=99999999999", "", "")
	if resp.StatusCode != http.StatusGatewayTimeout || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("too large on configmaps: %d %v", resp.StatusCode, resp.Header)
	}
}
