package fake

import (
	"strconv"
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

// kube-apiserver takes an Accept's stream parameter when it is empty, or
// "watch" on a media type it can stream (JSON, protobuf, CBOR; not
// YAML), on any request, and skips the media type otherwise. Found by
// hand (curl on kube-apiserver v1.36.3): the fake refused
// application/vnd.kubernetes.protobuf;stream=watch with a 406, also on
// a watch.
func TestAcceptStreamParameter(t *testing.T) {
	_, c := newTestServer(t, Options{})
	for accept, want := range map[string]string{
		"application/vnd.kubernetes.protobuf;stream=watch":          "application/vnd.kubernetes.protobuf",
		"application/json;stream=watch":                             "application/json",
		"*/*;stream=watch":                                          "application/json",
		"application/json;as=Table;v=v1;g=meta.k8s.io;stream=watch": "application/json",
		"application/json;stream=foo":                               "406",
		"application/yaml;stream=watch":                             "406",
		"application/yaml;stream=watch, application/json;q=0.5":     "application/json",
	} {
		resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps", accept, "")
		got := resp.Header.Get("Content-Type")
		if resp.StatusCode != 200 {
			got = strconv.Itoa(resp.StatusCode)
		}
		if got != want {
			t.Errorf("list, Accept %s: %s, want %s: %.200s", accept, got, want, body)
		}
		if want == "406" && !strings.Contains(string(body), `"message": "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf"`) {
			t.Errorf("list, Accept %s: %s, want kube-apiserver's message", accept, body)
		}
	}
	resp, err := c.hc.Do(c.request("GET", "/api/v1/namespaces/default/configmaps?watch=true", "application/vnd.kubernetes.protobuf;stream=watch", ""))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "application/vnd.kubernetes.protobuf;stream=watch" {
		t.Errorf("watch, Accept protobuf;stream=watch: %d %s", resp.StatusCode, ct)
	}
}
