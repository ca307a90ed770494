package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/e2e/harness"
)

func TestMain(m *testing.M) { os.Exit(harness.Main(m)) }

// api sends requests to a cluster as one user, failing the test on
// transport errors.
type api struct {
	t     *testing.T
	c     *harness.Cluster
	hc    *http.Client
	token string
}

func newAPI(t *testing.T, c *harness.Cluster) *api {
	return &api{t: t, c: c, hc: c.Client(t), token: c.AdminToken}
}

// do sends a request; a non-nil body that is not []byte is sent as JSON.
func (a *api) do(method, path, accept string, body any) (int, http.Header, []byte) {
	a.t.Helper()
	var r io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			a.t.Fatal(err)
		}
		r, contentType = bytes.NewReader(j), "application/json"
	}
	req, err := http.NewRequestWithContext(a.t.Context(), method, a.c.URL+path, r)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		a.t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return resp.StatusCode, resp.Header, b
}

// must is do that fails the test unless the status is want.
func (a *api) must(want int, method, path, accept string, body any) (http.Header, []byte) {
	a.t.Helper()
	code, h, b := a.do(method, path, accept, body)
	if code != want {
		a.t.Fatalf("%s %s: status %d, want %d:\n%s", method, path, code, want, b)
	}
	return h, b
}

// TestSmoke proves the harness end to end with plain net/http: the real
// server answers, accepts JSON, serves protobuf that kubewire's generated
// types decode, and pages a list.
func TestSmoke(t *testing.T) {
	c := harness.Shared(t, "default", harness.Options{})
	a := newAPI(t, c)

	_, b := a.must(200, "GET", "/version", "application/json", nil)
	var v struct{ GitVersion, Major, Minor string }
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.GitVersion != "v1.36.3" || v.Major != "1" || v.Minor != "36" {
		t.Errorf("/version = %s", b)
	}
	if _, b := a.must(200, "GET", "/readyz", "", nil); string(b) != "ok" {
		t.Errorf("/readyz = %q", b)
	}
	// RBAC is on: the unprivileged token is authenticated but forbidden.
	user := &api{t: t, c: c, hc: a.hc, token: c.UserToken}
	user.must(http.StatusForbidden, "GET", "/api/v1/namespaces", "application/json", nil)
	user.token = "wrong"
	user.must(http.StatusUnauthorized, "GET", "/api/v1/namespaces", "application/json", nil)

	ns := "smoke"
	a.must(201, "POST", "/api/v1/namespaces", "application/json", map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns},
	})
	cms := "/api/v1/namespaces/" + ns + "/configmaps"
	for _, name := range []string{"a", "b", "c"} {
		a.must(201, "POST", cms, "application/json", map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "labels": map[string]string{"app": "smoke"}},
			"data":     map[string]string{"key": "value-" + name},
		})
	}

	h, b := a.must(200, "GET", cms+"/b", codec.MediaTypeProtobuf, nil)
	if ct := h.Get("Content-Type"); ct != codec.MediaTypeProtobuf {
		t.Fatalf("Content-Type %q, want %s", ct, codec.MediaTypeProtobuf)
	}
	var cm corev1.ConfigMap
	if err := codec.DecodeProtobuf(b, &cm); err != nil {
		t.Fatalf("decode protobuf ConfigMap: %v", err)
	}
	if cm.Kind != "ConfigMap" || cm.APIVersion != "v1" || cm.Name != "b" || cm.Namespace != ns ||
		cm.Data["key"] != "value-b" || cm.Labels["app"] != "smoke" || cm.UID == "" || cm.ResourceVersion == "" {
		t.Errorf("decoded ConfigMap: %+v", cm)
	}

	// limit=1 and continue, in protobuf, until the list ends.
	var names []string
	cont, rv := "", ""
	for page := 0; ; page++ {
		q := url.Values{"limit": {"1"}, "labelSelector": {"app=smoke"}}
		if cont != "" {
			q.Set("continue", cont)
		}
		_, b := a.must(200, "GET", cms+"?"+q.Encode(), codec.MediaTypeProtobuf, nil)
		var l corev1.ConfigMapList
		if err := codec.DecodeProtobuf(b, &l); err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		if len(l.Items) != 1 {
			t.Fatalf("page %d has %d items, want 1", page, len(l.Items))
		}
		if rv == "" {
			rv = l.ResourceVersion
		} else if l.ResourceVersion != rv {
			t.Errorf("page %d at resourceVersion %s, first page at %s", page, l.ResourceVersion, rv)
		}
		names = append(names, l.Items[0].Name)
		cont = l.Continue
		if cont == "" {
			break
		}
		if page > 3 {
			t.Fatalf("still paging after %d pages: %v", page, names)
		}
	}
	if got := strings.Join(names, ","); got != "a,b,c" {
		t.Errorf("paged names %s, want a,b,c", got)
	}
}
