package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A custom resource may carry a finalizer that is neither standard nor
// has a path (Argo CD's Applications do): kube-apiserver accepts it with
// a warning, where a built-in object is refused.
func TestCustomResourceUnqualifiedFinalizer(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", gadgetCRD)
	got := string(c.mustDo(http.StatusCreated, "POST", gadgets,
		`{"apiVersion":"test.example.com/v1","kind":"Gadget","metadata":{"name":"g","finalizers":["resources-finalizer.argocd.argoproj.io","plain"]},"spec":{"size":1}}`))
	if !strings.Contains(got, `"resources-finalizer.argocd.argoproj.io"`) || !strings.Contains(got, `"plain"`) {
		t.Errorf("created object lost its finalizers: %s", got)
	}
	c.mustDo(http.StatusUnprocessableEntity, "POST", testCMs, `{"metadata":{"name":"l","finalizers":["resources-finalizer.argocd.argoproj.io"]}}`)
}
