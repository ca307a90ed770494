package fake

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/fake/internal/request"
)

// A fault aimed by a Match hits only the requests it matches, as many
// times as it says, and goes when removed.
func TestFaultsAdd(t *testing.T) {
	s, c := newTestServer(t, Options{})
	c.createCM("a")
	remove := s.Faults().Add(Fault{Match: Match{Verbs: []string{"update"}, Resource: "configmaps", Name: "a"}, Code: http.StatusServiceUnavailable, Message: "try later"})
	s.Faults().Add(Fault{Match: Match{Verbs: []string{"create"}, Resource: "configmaps.apps"}, Code: http.StatusInternalServerError})
	s.Faults().Add(Fault{Match: Match{FieldManager: "robot"}, Times: 1, Code: http.StatusTooManyRequests})

	c.mustDo(http.StatusOK, "GET", testCMs+"/a", "")                           // reads go through
	c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"b"}}`) // the apps group has no configmaps: no match
	got := c.mustDo(http.StatusServiceUnavailable, "PUT", testCMs+"/a", `{"metadata":{"name":"a"}}`)
	if !bytes.Contains(got, []byte(`"message":"try later"`)) {
		t.Errorf("fault answer: %s", got)
	}
	c.mustDo(http.StatusOK, "PUT", testCMs+"/b", `{"metadata":{"name":"b"}}`)
	resp, _ := c.do("POST", testCMs+"?fieldManager=robot", "", `{"metadata":{"name":"c"}}`)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("robot's create: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	c.mustDo(http.StatusCreated, "POST", testCMs+"?fieldManager=robot", `{"metadata":{"name":"c"}}`) // Times: 1
	remove()
	remove()
	c.mustDo(http.StatusOK, "PUT", testCMs+"/a", `{"metadata":{"name":"a"}}`)
	s.Faults().Clear()
}

func TestMatch(t *testing.T) {
	ri := request.Info{Verb: "patch", Group: "apps", Resource: "deployments", Subresource: "scale", Namespace: "ns", Name: "web", FieldManager: "hpa", UserAgent: "kubectl/v1.36.0 (linux/amd64)"}
	tests := []struct {
		m    Match
		want bool
	}{
		{Match{}, true},
		{Match{Resource: "deployments"}, true},
		{Match{Resource: "deployments.apps"}, true},
		{Match{Resource: "deployments.extensions"}, false},
		{Match{Subresource: "-"}, false},
		{Match{Subresource: "scale", Verbs: []string{"get", "patch"}}, true},
		{Match{Namespace: "ns", Name: "web"}, true},
		{Match{Name: "api"}, false},
		{Match{FieldManager: "hpa", UserAgent: "kubectl"}, true},
		{Match{UserAgent: "kubectl/v1.36.0 (linux/amd64)"}, true},
		{Match{UserAgent: "curl"}, false},
	}
	for _, tt := range tests {
		if got := tt.m.matches(ri); got != tt.want {
			t.Errorf("%+v matches = %t, want %t", tt.m, got, tt.want)
		}
	}
}

// Admission hooks see writes after the built-in plugins: they change
// the object (without owning what they add), deny it with their own
// Status, or fail as an unreachable webhook does.
func TestAdmissionHooks(t *testing.T) {
	var seen []string
	_, c := newTestServer(t, Options{Admission: []AdmissionHook{
		{Name: "labeler.example.com", Match: Match{Resource: "configmaps", Verbs: []string{"create", "update", "patch"}}, Admit: func(r *AdmissionRequest) error {
			seen = append(seen, r.Operation+" "+r.Name)
			meta, _ := r.Object["metadata"].(map[string]any)
			labels, _ := meta["labels"].(map[string]any)
			if labels == nil {
				labels = map[string]any{}
				meta["labels"] = labels
			}
			labels["admitted"] = "yes"
			return nil
		}},
		{Name: "deny.example.com", Match: Match{Name: "forbidden"}, Admit: func(*AdmissionRequest) error {
			return &AdmissionError{Code: http.StatusForbidden, Message: "not this one"}
		}},
		{Name: "down.example.com", Match: Match{Verbs: []string{"delete"}}, Admit: func(r *AdmissionRequest) error {
			if r.OldObject == nil || r.Object != nil {
				t.Errorf("delete sees Object %v, OldObject %v", r.Object, r.OldObject)
			}
			return errors.New("context deadline exceeded")
		}},
	}})
	var cm struct {
		Metadata struct {
			Labels        map[string]string
			ManagedFields json.RawMessage
		}
	}
	if err := json.Unmarshal(c.mustDo(http.StatusCreated, "POST", testCMs, `{"metadata":{"name":"a"},"data":{"k":"v"}}`), &cm); err != nil {
		t.Fatal(err)
	}
	if cm.Metadata.Labels["admitted"] != "yes" || bytes.Contains(cm.Metadata.ManagedFields, []byte("admitted")) {
		t.Errorf("mutated object: %+v", cm.Metadata)
	}
	got := string(c.mustDo(http.StatusForbidden, "POST", testCMs, `{"metadata":{"name":"forbidden"}}`))
	if !strings.Contains(got, `admission webhook \"deny.example.com\" denied the request: not this one`) {
		t.Errorf("denial: %s", got)
	}
	got = string(c.mustDo(http.StatusInternalServerError, "DELETE", testCMs+"/a", ""))
	if !strings.Contains(got, `Internal error occurred: failed calling webhook \"down.example.com\": context deadline exceeded`) {
		t.Errorf("failure: %s", got)
	}
	c.mustDo(http.StatusOK, "PUT", testCMs+"/a", `{"metadata":{"name":"a"}}`)
	if want := "CREATE a,CREATE forbidden,UPDATE a"; strings.Join(seen, ",") != want {
		t.Errorf("the labeler saw %q, want %q", strings.Join(seen, ","), want)
	}
}

// A snapshot loaded into a new server gives it the same objects, custom
// resources included.
func TestSnapshotRoundTrip(t *testing.T) {
	s, c := newTestServer(t, Options{})
	if err := s.AddCustomResource(CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces", `{"metadata":{"name":"team"}}`)
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/team/configmaps", `{"metadata":{"name":"cm","labels":{"a":"b"}},"data":{"k":"v"}}`)
	c.mustDo(http.StatusCreated, "POST", "/apis/example.com/v1/namespaces/team/widgets", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":3}}`)
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/team/services", `{"metadata":{"name":"svc"},"spec":{"ports":[{"port":80}]}}`)
	var buf bytes.Buffer
	if err := s.Snapshot(&buf); err != nil {
		t.Fatal(err)
	}
	s2, c2 := newTestServer(t, Options{})
	if err := s2.LoadSnapshot(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/api/v1/namespaces/team/configmaps/cm", "/apis/example.com/v1/namespaces/team/widgets/w", "/api/v1/namespaces/team/services/svc", "/api/v1/namespaces/team"} {
		a, b := decodeAny(t, c.mustDo(http.StatusOK, "GET", p, "")), decodeAny(t, c2.mustDo(http.StatusOK, "GET", p, ""))
		delete(a["metadata"].(map[string]any), "resourceVersion")
		delete(b["metadata"].(map[string]any), "resourceVersion")
		ab, _ := json.Marshal(a)
		bb, _ := json.Marshal(b)
		if !bytes.Equal(ab, bb) {
			t.Errorf("%s:\nsaved  %s\nloaded %s", p, ab, bb)
		}
	}
	var again bytes.Buffer
	if err := s2.LoadSnapshot(strings.NewReader(`{"apiVersion":"v1","kind":"List","items":[]}`)); err == nil {
		t.Error("a List loaded as a snapshot")
	}
	if err := s2.Snapshot(&again); err != nil {
		t.Fatal(err)
	}
}

func decodeAny(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// An injected refusal carries the reason kube-apiserver gives its code and
// names the request's resource and object, so that a client's checks of
// the reason see a forbidden, a not found or a conflict (before, every
// code but 429, 503 and 504 was an InternalError "injected fault").
func TestFaultReasons(t *testing.T) {
	s, c := newTestServer(t, Options{})
	c.createCM("a")
	tests := []struct {
		code              int
		method, path      string
		reason, message   string
		detailsName, kind string
	}{
		{http.StatusForbidden, "GET", testCMs + "/a", "Forbidden", `configmaps "a" is forbidden: injected fault`, "a", "configmaps"},
		{http.StatusForbidden, "GET", testCMs, "Forbidden", `configmaps is forbidden: injected fault`, "", "configmaps"},
		{http.StatusNotFound, "GET", testCMs + "/a", "NotFound", `configmaps "a" not found`, "a", "configmaps"},
		{http.StatusConflict, "PUT", testCMs + "/a", "Conflict", `Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again`, "a", "configmaps"},
		{http.StatusUnauthorized, "GET", testCMs, "Unauthorized", "Unauthorized", "", ""},
		{http.StatusBadRequest, "GET", testCMs, "BadRequest", "the server rejected our request for an unknown reason", "", ""},
		{http.StatusGone, "GET", testCMs, "Expired", "The resourceVersion for the provided watch is too old.", "", ""},
		{http.StatusInternalServerError, "GET", testCMs, "InternalError", "Internal error occurred: injected fault", "", ""},
		{http.StatusTeapot, "GET", testCMs, "", "the server responded with the status code 418 but did not return more information", "", ""},
	}
	for _, tt := range tests {
		remove := s.Faults().Add(Fault{Code: tt.code})
		body := c.mustDo(tt.code, tt.method, tt.path, `{"metadata":{"name":"a"}}`)
		remove()
		var st struct {
			Reason, Message string
			Code            int
			Details         struct{ Name, Kind string }
		}
		if err := json.Unmarshal(body, &st); err != nil {
			t.Fatalf("%d: %v: %s", tt.code, err, body)
		}
		if st.Reason != tt.reason || st.Message != tt.message || st.Code != tt.code || st.Details.Name != tt.detailsName || st.Details.Kind != tt.kind {
			t.Errorf("%d %s %s: %s", tt.code, tt.method, tt.path, body)
		}
	}
}
