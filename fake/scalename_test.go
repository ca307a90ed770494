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
