package fake

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/testing/fixture"
)

func loadFixture(t *testing.T, name string) fixture.Response {
	t.Helper()
	r, err := fixture.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func decodeStatus(t *testing.T, contentType string, body []byte) *metav1.Status {
	t.Helper()
	st, err := codec.DecodeStatus(contentType, body)
	if err != nil {
		t.Fatalf("decode Status (%s): %v\n%s", contentType, err, body)
	}
	return st
}

// TestErrorsMatchFixtures provokes each error kube-apiserver was recorded
// answering and compares the fake's Status with the recording.
func TestErrorsMatchFixtures(t *testing.T) {
	s, c := newTestServer(t, Options{Namespaces: []string{"fixtures"}})
	if err := s.AddCustomResource(CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true}); err != nil {
		t.Fatal(err)
	}
	const cms = "/api/v1/namespaces/fixtures/configmaps"
	c.mustDo(http.StatusCreated, "POST", cms, `{"metadata":{"name":"cm-3"}}`)
	stale := c.mustDo(http.StatusOK, "GET", cms+"/cm-3", "")
	c.mustDo(http.StatusOK, "PUT", cms+"/cm-3", `{"metadata":{"name":"cm-3"},"data":{"k":"v"}}`)
	c.mustDo(http.StatusCreated, "POST", "/apis/example.com/v1/namespaces/fixtures/widgets", `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"}}`)
	old := s.CurrentResourceVersion()
	c.mustDo(http.StatusCreated, "POST", cms, `{"metadata":{"name":"cm-4"}}`)

	tests := []struct {
		fixture              string
		method, path, accept string
		body                 string
		before               func()
	}{
		{fixture: "errors/notfound.json", method: "GET", path: "/api/v1/namespaces/fixtures/pods/nope"},
		{fixture: "errors/notfound.pb", method: "GET", path: "/api/v1/namespaces/fixtures/pods/nope", accept: codec.MediaTypeProtobuf},
		{fixture: "errors/alreadyexists.json", method: "POST", path: cms, body: `{"metadata":{"name":"cm-3"}}`},
		{fixture: "errors/conflict.json", method: "PUT", path: cms + "/cm-3", body: string(stale)},
		{fixture: "errors/invalid.json", method: "POST", path: cms, body: `{"metadata":{"name":"Bad_Name"}}`},
		{fixture: "errors/rvmatch-without-rv.json", method: "GET", path: cms + "?resourceVersionMatch=NotOlderThan"},
		{fixture: "errors/strict-unknown-field.json", method: "POST", path: cms + "?fieldValidation=Strict", body: `{"metadata":{"name":"cm-x"},"bogus":1}`},
		{fixture: "errors/widget-protobuf-only-406", method: "GET", path: "/apis/example.com/v1/namespaces/fixtures/widgets/w1", accept: codec.MediaTypeProtobuf},
		{fixture: "errors/list-exact-gone.json", method: "GET", path: cms + "?resourceVersionMatch=Exact&resourceVersion=" + old, before: s.Compact},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			want := loadFixture(t, tt.fixture)
			if tt.before != nil {
				tt.before()
			}
			resp, body := c.do(tt.method, tt.path, tt.accept, tt.body)
			if resp.StatusCode != want.Status || resp.Header.Get("Content-Type") != want.ContentType() {
				t.Errorf("status %d %s, want %d %s", resp.StatusCode, resp.Header.Get("Content-Type"), want.Status, want.ContentType())
			}
			got := decodeStatus(t, resp.Header.Get("Content-Type"), body)
			if diff := cmp.Diff(decodeStatus(t, want.ContentType(), want.Body), got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Status (-kube-apiserver +fake):\n%s", diff)
			}
			if want.ContentType() == codec.MediaTypeProtobuf && !bytes.Equal(want.Body, body) {
				t.Errorf("protobuf body differs:\nkube-apiserver %q\nfake           %q", want.Body, body)
			}
		})
	}
}

func TestWatchGoneMatchesFixtures(t *testing.T) {
	for _, name := range []string{"errors/watch-gone.json", "errors/watch-gone.pb"} {
		t.Run(name, func(t *testing.T) {
			want := loadFixture(t, name)
			s, c := newTestServer(t, Options{})
			c.createCM("a")
			old := s.CurrentResourceVersion()
			c.createCM("b")
			s.Compact()
			accept := codec.MediaTypeJSON
			if strings.HasSuffix(name, ".pb") {
				accept = codec.MediaTypeProtobuf
			}
			resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion="+old, accept, "")
			if resp.StatusCode != want.Status || resp.Header.Get("Content-Type") != want.ContentType() {
				t.Errorf("status %d %s, want %d %s", resp.StatusCode, resp.Header.Get("Content-Type"), want.Status, want.ContentType())
			}
			if !bytes.Equal(want.Body, body) {
				t.Errorf("body differs:\nkube-apiserver %q\nfake           %q", want.Body, body)
			}
		})
	}
}

func TestTooLargeAndExpiredContinueMatchFixtures(t *testing.T) {
	s, c := newTestServer(t, Options{})
	for _, n := range []string{"a", "b", "c"} {
		c.createCM(n)
	}
	cur := s.CurrentResourceVersion()
	resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps?resourceVersion=999999999&resourceVersionMatch=NotOlderThan", "", "")
	want := loadFixture(t, "errors/too-large-rv.json")
	wantSt := decodeStatus(t, want.ContentType(), want.Body)
	wantSt.Message = strings.Replace(wantSt.Message, "current: 250", "current: "+cur, 1)
	if diff := cmp.Diff(wantSt, decodeStatus(t, resp.Header.Get("Content-Type"), body), cmpopts.EquateEmpty()); diff != "" || resp.Header.Get("Retry-After") != want.Header.Get("Retry-After") {
		t.Errorf("too large (-kube-apiserver +fake):\n%s\nRetry-After %q", diff, resp.Header.Get("Retry-After"))
	}

	var page metav1.ListMeta
	first := c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/configmaps?limit=1", "")
	var l struct {
		Metadata metav1.ListMeta `json:"metadata"`
	}
	_ = json.Unmarshal(first, &l)
	page = l.Metadata
	c.createCM("d")
	s.Compact()
	resp, body = c.do("GET", "/api/v1/namespaces/default/configmaps?limit=1&continue="+page.Continue, "", "")
	want = loadFixture(t, "errors/expired-continue.json")
	wantSt = decodeStatus(t, want.ContentType(), want.Body)
	got := decodeStatus(t, resp.Header.Get("Content-Type"), body)
	if got.Continue == "" {
		t.Error("no fresh continue token")
	}
	got.Continue, wantSt.Continue = "", ""
	if diff := cmp.Diff(wantSt, got, cmpopts.EquateEmpty()); diff != "" || resp.StatusCode != want.Status {
		t.Errorf("expired continue (-kube-apiserver +fake):\n%s", diff)
	}
}

func TestWarningHeaderMatchesFixture(t *testing.T) {
	want := loadFixture(t, "errors/warn-unknown-field.json")
	_, c := newTestServer(t, Options{})
	resp, _ := c.do("POST", "/api/v1/namespaces/default/configmaps?fieldValidation=Warn", "", `{"metadata":{"name":"cm-y"},"bogus":1}`)
	if resp.StatusCode != want.Status || resp.Header.Get("Warning") != want.Header.Get("Warning") {
		t.Errorf("status %d Warning %q, want %d %q", resp.StatusCode, resp.Header.Get("Warning"), want.Status, want.Header.Get("Warning"))
	}
}
