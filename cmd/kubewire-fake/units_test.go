package main

import (
	"bytes"
	"encoding/binary"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kubewire/kubewire/client/kubeconfig"
	"github.com/kubewire/kubewire/codec"
)

func TestParseRequest(t *testing.T) {
	tests := []struct {
		method, target string
		want           requestInfo
	}{
		{"GET", "/api/v1/pods", requestInfo{resource: true, verb: "list", resourceKey: "pods"}},
		{"GET", "/api/v1/namespaces/ns/pods?watch=true", requestInfo{resource: true, verb: "watch", resourceKey: "pods"}},
		{"GET", "/api/v1/namespaces/ns/pods?watch=True", requestInfo{resource: true, verb: "watch", resourceKey: "pods"}},
		{"GET", "/api/v1/namespaces/ns/pods/p", requestInfo{resource: true, verb: "get", resourceKey: "pods"}},
		{"PUT", "/api/v1/namespaces/ns/pods/p/status", requestInfo{resource: true, verb: "update", resourceKey: "pods", subresource: "status"}},
		{"GET", "/api/v1/namespaces", requestInfo{resource: true, verb: "list", resourceKey: "namespaces"}},
		{"GET", "/api/v1/namespaces/ns", requestInfo{resource: true, verb: "get", resourceKey: "namespaces"}},
		{"PUT", "/api/v1/namespaces/ns/finalize", requestInfo{resource: true, verb: "update", resourceKey: "namespaces", subresource: "finalize"}},
		{"POST", "/apis/apps/v1/namespaces/ns/deployments", requestInfo{resource: true, verb: "create", group: "apps", resourceKey: "deployments.apps"}},
		{"PATCH", "/apis/apps/v1/namespaces/ns/deployments/d/scale", requestInfo{resource: true, verb: "patch", group: "apps", resourceKey: "deployments.apps", subresource: "scale"}},
		{"DELETE", "/apis/stable.example.com/v1/namespaces/ns/crontabs", requestInfo{resource: true, verb: "deletecollection", group: "stable.example.com", resourceKey: "crontabs.stable.example.com"}},
		{"DELETE", "/apis/rbac.authorization.k8s.io/v1/clusterroles/admin", requestInfo{resource: true, verb: "delete", group: "rbac.authorization.k8s.io", resourceKey: "clusterroles.rbac.authorization.k8s.io"}},
		{"GET", "/apis/apps/v1", requestInfo{}},
		{"GET", "/api/v1", requestInfo{}},
		{"GET", "/openapi/v3", requestInfo{}},
		{"GET", "/version", requestInfo{}},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			got := parseRequest(httptest.NewRequest(tt.method, tt.target, nil))
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(requestInfo{})); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseFlagsRefusesBadValues(t *testing.T) {
	for _, args := range [][]string{
		{"--error-rate", "1.5"},
		{"--error-rate-verb", "list"},
		{"--error-rate-verb", "frobnicate=0.1"},
		{"--error-rate-resource", "pods=2"},
		{"--error-code", "302"},
		{"--error-code", "600"},
		{"--watch-expire-every", "-1"},
		{"stray"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) succeeded", args)
		}
	}
	o, err := parseFlags([]string{"--addr=default", "--error-rate-verb", "LIST=0.5", "--error-rate-resource", "deployments.apps=1", "-f", "a", "-f", "b"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.addr != defaultAddr || o.faults.perVerb["list"] != 0.5 || o.faults.perResource["deployments.apps"] != 1 || len(o.files) != 2 {
		t.Errorf("parsed %+v", o)
	}
}

func TestFaultRates(t *testing.T) {
	tests := []struct {
		name string
		opts faultOptions
		req  *http.Request
		fail bool
	}{
		{"verb matches", faultOptions{perVerb: map[string]float64{"list": 1}}, httptest.NewRequest("GET", "/api/v1/pods", nil), true},
		{"verb differs", faultOptions{perVerb: map[string]float64{"list": 1}}, httptest.NewRequest("GET", "/api/v1/namespaces/a/pods/p", nil), false},
		{"resource with group", faultOptions{perResource: map[string]float64{"deployments.apps": 1}}, httptest.NewRequest("GET", "/apis/apps/v1/deployments", nil), true},
		{"resource without group", faultOptions{perResource: map[string]float64{"deployments": 1}}, httptest.NewRequest("GET", "/apis/apps/v1/deployments", nil), true},
		{"discovery never fails", faultOptions{errorRate: 1}, httptest.NewRequest("GET", "/apis/apps/v1", nil), false},
		{"every request", faultOptions{errorRate: 1}, httptest.NewRequest("DELETE", "/api/v1/namespaces/a/configmaps/c", nil), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.errorCode = 500
			reached := false
			f := newFaultInjector(tt.opts, http.HandlerFunc(func(http.ResponseWriter, *http.Request) { reached = true }))
			rec := httptest.NewRecorder()
			f.ServeHTTP(rec, tt.req)
			if failed := rec.Code == 500; failed != tt.fail || reached == tt.fail {
				t.Errorf("status %d, reached the server %v; want failed=%v", rec.Code, reached, tt.fail)
			}
			if tt.fail {
				st, err := codec.DecodeStatus(rec.Header().Get("Content-Type"), rec.Body.Bytes())
				if err != nil || st.Reason != "InternalError" || st.Code != 500 {
					t.Errorf("injected answer %s: %v", rec.Body, err)
				}
			}
		})
	}
}

// TestExpiringWriterCountsFrames writes protobuf frames and JSON lines
// in pieces that do not line up with events and checks that the 410
// comes right after the Nth event.
func TestExpiringWriterCountsFrames(t *testing.T) {
	frame := func(payload string) []byte {
		b := binary.BigEndian.AppendUint32(nil, uint32(len(payload)))
		return append(b, payload...)
	}
	tests := []struct {
		name     string
		ct       string
		stream   []byte
		every    int
		wantKept int // bytes of the stream passed before the ERROR event
	}{
		{"json", "application/json", []byte("{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n"), 2, 16},
		{"protobuf", "application/vnd.kubernetes.protobuf;stream=watch", bytes.Join([][]byte{frame("abc"), frame(""), frame("defgh")}, nil), 2, 11},
	}
	for _, tt := range tests {
		for _, chunk := range []int{1, 3, 100} {
			t.Run(tt.name, func(t *testing.T) {
				rec := httptest.NewRecorder()
				canceled := false
				w := &expiringWriter{ResponseWriter: rec, every: tt.every, cancel: func() { canceled = true }}
				w.Header().Set("Content-Type", tt.ct)
				w.WriteHeader(200)
				var err error
				for b := tt.stream; len(b) > 0 && err == nil; {
					n := min(chunk, len(b))
					_, err = w.Write(b[:n])
					b = b[n:]
				}
				if err != errWatchExpired || !canceled {
					t.Fatalf("after the stream: error %v, canceled %v; want errWatchExpired and canceled", err, canceled)
				}
				got := rec.Body.Bytes()
				if !bytes.Equal(got[:tt.wantKept], tt.stream[:tt.wantKept]) {
					t.Errorf("passed %q, want the first %d bytes of the stream", got, tt.wantKept)
				}
				rest := got[tt.wantKept:]
				if tt.ct == "application/json" {
					if !strings.HasPrefix(string(rest), `{"object":{"apiVersion":"v1","code":410`) && !strings.Contains(string(rest), `"type":"ERROR"`) {
						t.Errorf("after the events: %q, want a 410 ERROR event", rest)
					}
				} else if n := binary.BigEndian.Uint32(rest); int(n) != len(rest)-4 || !bytes.Contains(rest, []byte("ERROR")) || !bytes.Contains(rest, []byte("Expired")) {
					t.Errorf("after the events: %q, want one ERROR frame", rest)
				}
			})
		}
	}
}

func TestWriteKubeconfigKeepsOtherEntries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	existing := `apiVersion: v1
kind: Config
current-context: prod
preferences: {colors: true}
clusters:
- name: prod
  cluster: {server: "https://prod.example:6443"}
- name: kubewire-fake
  cluster: {server: "https://127.0.0.1:1"}
users:
- name: prod
  user: {token: prod-token}
contexts:
- name: prod
  context: {cluster: prod, user: prod}
`
	if err := os.WriteFile(path, []byte(existing), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeKubeconfig(path, "https://127.0.0.1:7777", []byte("CA"), "tok"); err != nil {
		t.Fatal(err)
	}
	m, err := kubeconfig.LoadFiles(kubeconfig.Options{Paths: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"kubewire-fake", "prod"}, m.Contexts()); diff != "" {
		t.Errorf("contexts (-want +got):\n%s", diff)
	}
	if m.CurrentContext != "kubewire-fake" {
		t.Errorf("current-context %q", m.CurrentContext)
	}
	cfg, err := m.Config("", "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Host != "https://127.0.0.1:7777" || cfg.BearerToken != "tok" || string(cfg.TLS.CAData) != "CA" {
		t.Errorf("kubewire-fake context: host %q, token %v, CA %q", cfg.Host, cfg.BearerToken == "tok", cfg.TLS.CAData)
	}
	prod, err := m.Config("prod", "")
	if err != nil || prod.Host != "https://prod.example:6443" || prod.BearerToken != "prod-token" {
		t.Errorf("prod context changed: %v %v", prod.Host, err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "colors: true") {
		t.Errorf("preferences dropped:\n%s", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestParseManifests(t *testing.T) {
	in := "# comment only\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n--- \napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Secret, metadata: {name: s}}\n---\n"
	ms, err := parseManifests("f.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range ms {
		got = append(got, m.from+" "+m.obj.GetKind()+"/"+m.obj.GetName())
	}
	want := []string{"f.yaml#2 ConfigMap/a", "f.yaml#3 item 0 Secret/s"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := parseManifests("g.yaml", []byte("metadata: {name: x}\n")); err == nil {
		t.Error("a document without kind was accepted")
	}
}

// --error-code takes any 4xx or 5xx and answers with the reason
// kube-apiserver gives the code.
func TestInjectedStatusReasons(t *testing.T) {
	for code, reason := range map[int]string{400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound", 409: "Conflict", 410: "Expired", 422: "Invalid", 429: "TooManyRequests", 500: "InternalError", 502: "InternalError", 503: "ServiceUnavailable", 504: "Timeout"} {
		if _, err := parseFlags([]string{"--error-code", strconv.Itoa(code)}, io.Discard); err != nil {
			t.Errorf("--error-code %d: %v", code, err)
		}
		if st := injectedStatus(code); string(st.Reason) != reason || st.Code != int32(code) || st.Message == "" {
			t.Errorf("code %d: reason %q code %d message %q, want %s", code, st.Reason, st.Code, st.Message, reason)
		}
	}
}
