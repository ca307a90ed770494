package fake

import (
	"io"
	"net/http"
	"strings"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
)

// tclient is a minimal HTTP client for the server's tests.
type tclient struct {
	t   testing.TB
	s   *Server
	hc  *http.Client
	url string
}

func newTestServer(t testing.TB, opts Options) (*Server, *tclient) {
	t.Helper()
	s := Start(opts)
	t.Cleanup(s.Close)
	return s, &tclient{t: t, s: s, hc: s.Client(), url: s.URL()}
}

// newMemServer serves in memory (for testing/synctest bubbles).
func newMemServer(t testing.TB, opts Options) (*Server, *tclient) {
	t.Helper()
	s := New(opts)
	t.Cleanup(s.Close)
	return s, &tclient{t: t, s: s, hc: s.Client(), url: "http://fake"}
}

func (c *tclient) request(method, path, accept, body string) *http.Request {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.url+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.s.Token())
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// do sends a request and reads the whole response.
func (c *tclient) do(method, path, accept, body string) (*http.Response, []byte) {
	c.t.Helper()
	resp, err := c.hc.Do(c.request(method, path, accept, body))
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: read: %v", method, path, err)
	}
	return resp, b
}

// mustDo is do that fails the test unless the status is code.
func (c *tclient) mustDo(code int, method, path, body string) []byte {
	c.t.Helper()
	resp, b := c.do(method, path, "", body)
	if resp.StatusCode != code {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, code, b)
	}
	return b
}

// mustPatch sends a patch of type contentType and fails the test unless
// the status is code.
func (c *tclient) mustPatch(code int, path, contentType, body string) []byte {
	c.t.Helper()
	req := c.request("PATCH", path, "", body)
	req.Header.Set("Content-Type", contentType)
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatalf("PATCH %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("PATCH %s: read: %v", path, err)
	}
	if resp.StatusCode != code {
		c.t.Fatalf("PATCH %s: status %d, want %d: %s", path, resp.StatusCode, code, b)
	}
	return b
}

func (c *tclient) createCM(name string) {
	c.t.Helper()
	c.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"`+name+`"}}`)
}

// watch opens a watch and returns a decoder of its events.
func (c *tclient) watch(query, accept string) (*http.Response, *codec.WatchDecoder) {
	c.t.Helper()
	resp, err := c.hc.Do(c.request("GET", "/api/v1/namespaces/default/configmaps?watch=true&"+query, accept, ""))
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		c.t.Fatalf("watch status %d: %s", resp.StatusCode, b)
	}
	dec, err := codec.NewWatchDecoder(resp.Header.Get("Content-Type"), resp.Body, codec.WatchOptions{})
	if err != nil {
		c.t.Fatal(err)
	}
	return resp, dec
}

// nextEvent reads one event: its type and object name.
func nextEvent(t testing.TB, dec *codec.WatchDecoder) (string, string, error) {
	t.Helper()
	typ, cm, err := nextObject(dec)
	return typ, cm.Name, err
}

// nextObject reads one event and decodes its ConfigMap.
func nextObject(dec *codec.WatchDecoder) (string, corev1.ConfigMap, error) {
	var cm corev1.ConfigMap
	typ, err := dec.Next()
	if err != nil {
		return "", cm, err
	}
	err = dec.Decode(&cm)
	return typ, cm, err
}
