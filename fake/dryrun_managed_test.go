package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A dry-run create answers the object with its managedFields (when the
// body sets fields) and without a resource version, as kube-apiserver
// v1.36.3 does (e2e TestFuzzFidelity's reports).
func TestDryRunCreateKeepsManagedFields(t *testing.T) {
	_, c := newTestServer(t, Options{})
	got := string(c.mustDo(http.StatusCreated, "POST", testCMs+"?dryRun=All&fieldManager=m", `{"metadata":{"name":"d"},"data":{"a":"1"}}`))
	if !strings.Contains(got, `"managedFields":[{"manager":"m","operation":"Update"`) || strings.Contains(got, "resourceVersion") {
		t.Errorf("dry-run create: %s", got)
	}
	got = string(c.mustDo(http.StatusCreated, "POST", testCMs+"?dryRun=All&fieldManager=m", `{"metadata":{"name":"e"}}`))
	if strings.Contains(got, "managedFields") {
		t.Errorf("dry-run create of no fields: %s", got)
	}
	c.mustDo(http.StatusNotFound, "GET", testCMs+"/d", "")
}

// A generateName longer than 58 characters is cut to 58 before the 5
// random characters are added, as kube-apiserver cuts it.
func TestGenerateNameCut(t *testing.T) {
	_, c := newTestServer(t, Options{})
	base := strings.Repeat("a", 70)
	got := string(c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"generateName":"`+base+`"}}`))
	i := strings.Index(got, `"name":"`)
	if i < 0 {
		t.Fatalf("no name: %s", got)
	}
	name := got[i+len(`"name":"`):]
	name = name[:strings.IndexByte(name, '"')]
	if len(name) != 63 || !strings.HasPrefix(name, base[:58]) || strings.HasPrefix(name, base[:59]) {
		t.Errorf("generated name %q (%d characters)", name, len(name))
	}
}
