package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A Scale sent with PUT must carry the name: kube-apiserver v1.36.3
// answers 400 before it looks for the object (checked by hand, on an
// existing and a missing Deployment).
func TestScaleUpdateNeedsName(t *testing.T) {
	_, c := newTestServer(t, Options{})
	const path = "/apis/apps/v1/namespaces/default/deployments"
	c.mustDo(http.StatusCreated, "POST", path, `{"metadata":{"name":"web"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`)
	for _, name := range []string{"web", "missing"} {
		b := c.mustDo(http.StatusBadRequest, "PUT", path+"/"+name+"/scale", `{"spec":{"replicas":3}}`)
		if want := "the name of the object (" + name + " based on URL) was undeterminable: name must be provided"; !strings.Contains(string(b), want) {
			t.Errorf("%s: %s, want %q", name, b, want)
		}
	}
}

// A Scale whose resourceVersion is no number fails where kube-apiserver's
// storage reads it, before comparing it with the stored one: a 500 with
// the parser's words, not a 409 (found by TestGeneratedSequences seed
// 4045 on a custom resource; a missing object is still a 404).
func TestScaleUpdateResourceVersionNotANumber(t *testing.T) {
	_, c := newTestServer(t, Options{})
	const path = "/apis/apps/v1/namespaces/default/deployments"
	c.mustDo(http.StatusCreated, "POST", path, `{"metadata":{"name":"web"},"spec":{"replicas":1,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`)
	b := c.mustDo(http.StatusInternalServerError, "PUT", path+"/web/scale", `{"metadata":{"name":"web","resourceVersion":"abc"},"spec":{"replicas":3}}`)
	if want := `strconv.ParseUint: parsing \"abc\": invalid syntax`; !strings.Contains(string(b), want) {
		t.Errorf("%s, want %q", b, want)
	}
	c.mustDo(http.StatusNotFound, "PUT", path+"/missing/scale", `{"metadata":{"name":"missing","resourceVersion":"abc"},"spec":{"replicas":3}}`)
}
