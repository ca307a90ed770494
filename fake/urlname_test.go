package fake

import (
	"net/http"
	"strings"
	"testing"
)

// A write that leaves the object without a name, and one that names a
// resource version that is not a number, are answered as kube-apiserver
// v1.36.3 answers them (e2e TestFuzzFidelity's reports).
func TestWriteNameAndResourceVersionChecks(t *testing.T) {
	_, c := newTestServer(t, Options{})
	c.createCM("n")
	undeterminable := `the name of the object (n based on URL) was undeterminable: name must be provided`
	for _, tt := range []struct {
		name, method, contentType, body string
		code                            int
		want                            string
	}{
		{"update without a name", "PUT", "", `{"metadata":{"name":""}}`, http.StatusBadRequest, undeterminable},
		{"json patch removing the name", "PATCH", "application/json-patch+json", `[{"op":"remove","path":"/metadata/name"}]`, http.StatusBadRequest, undeterminable},
		{"merge patch clearing the name", "PATCH", "application/merge-patch+json", `{"metadata":{"name":null}}`, http.StatusBadRequest, undeterminable},
		{"update with another name", "PUT", "", `{"metadata":{"name":"m"}}`, http.StatusBadRequest, `the name of the object (m) does not match the name on the URL (n)`},
		{"update with a bogus resourceVersion", "PUT", "", `{"metadata":{"name":"n","resourceVersion":"web"}}`, http.StatusInternalServerError, `"message":"strconv.ParseUint: parsing \"web\": invalid syntax"`},
		{"patch to a bogus resourceVersion", "PATCH", "application/merge-patch+json", `{"metadata":{"resourceVersion":"10.0.0.7"}}`, http.StatusInternalServerError, `"message":"strconv.ParseUint: parsing \"10.0.0.7\": invalid syntax"`},
		{"patch to another resourceVersion", "PATCH", "application/merge-patch+json", `{"metadata":{"resourceVersion":"1"}}`, http.StatusConflict, `the object has been modified`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			if tt.method == "PATCH" {
				got = string(c.mustPatch(tt.code, testCMs+"/n", tt.contentType, tt.body))
			} else {
				got = string(c.mustDo(tt.code, tt.method, testCMs+"/n", tt.body))
			}
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %s\nwant it to contain %s", got, tt.want)
			}
		})
	}
	// "0" names no version: the update is unconditional.
	c.mustDo(http.StatusOK, "PUT", testCMs+"/n", `{"metadata":{"name":"n","resourceVersion":"0"},"data":{"a":"b"}}`)
}

// A create's deletionTimestamp and deletionGracePeriodSeconds are wiped
// before managedFields are recorded: nobody owns them.
func TestCreateWipesSystemFields(t *testing.T) {
	_, c := newTestServer(t, Options{})
	got := string(c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"w","deletionGracePeriodSeconds":30,"deletionTimestamp":"2026-01-02T03:04:05Z","uid":"u1"},"data":{"a":"b"}}`))
	for _, bad := range []string{"deletionGracePeriodSeconds", "deletionTimestamp", `"u1"`} {
		if strings.Contains(got, bad) {
			t.Errorf("created object still has %s: %s", bad, got)
		}
	}
	if !strings.Contains(got, `"fieldsV1":{"f:data":{".":{},"f:a":{}}}`) {
		t.Errorf("managedFields: %s", got)
	}
}

// A server-side apply that creates checks the object as kube-apiserver's
// patch handler does (e2e TestFuzzFidelity's reports).
func TestApplyCreateChecksMetadata(t *testing.T) {
	_, c := newTestServer(t, Options{})
	const ct = "application/apply-patch+yaml"
	for _, tt := range []struct {
		name, body string
		code       int
		want       string
	}{
		{"no name", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":""}}`, http.StatusBadRequest,
			`the name of the object (a based on URL) was undeterminable: name must be provided`},
		{"another namespace", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"web"}}`, http.StatusBadRequest,
			`the namespace of the provided object does not match the namespace sent on the request`},
		{"a uid", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","uid":"/data"}}`, http.StatusConflict,
			`Operation cannot be fulfilled on configmaps \"a\": uid mismatch: the provided object specified uid /data, and no existing object was found`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(c.mustPatch(tt.code, testCMs+"/a?fieldManager=m", ct, tt.body))
			if !strings.Contains(got, tt.want) {
				t.Errorf("got %s\nwant it to contain %s", got, tt.want)
			}
		})
	}
	c.mustPatch(http.StatusCreated, testCMs+"/a?fieldManager=m", ct, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default"}}`)
}
