package informer_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
)

// hostile is a server speaking kube-apiserver's protocol bytes that
// lies inside them: list answers the n-th list (from 0), watch the n-th
// watch, with a body; a watch body ends after its events unless hold is
// set, then nothing more comes until the client goes. It serves in
// memory, for synctest bubbles.
type hostile struct {
	list  func(n int, q url.Values) string
	watch func(n int, q url.Values) (body string, hold bool)

	mu             sync.Mutex
	lists, watches int
}

func (h *hostile) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	h.mu.Lock()
	isWatch := q.Get("watch") == "true"
	n := h.lists
	if isWatch {
		n = h.watches
		h.watches++
	} else {
		h.lists++
	}
	h.mu.Unlock()
	var body string
	hold := false
	if isWatch {
		body, hold = h.watch(n, q)
	} else {
		body = h.list(n, q)
	}
	var rc io.ReadCloser = io.NopCloser(bytes.NewReader([]byte(body)))
	if hold {
		rc = &heldBody{Reader: bytes.NewReader([]byte(body)), ctx: req.Context()}
	}
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: rc, ContentLength: -1, Request: req,
	}, nil
}

// heldBody sends its bytes, then nothing until its request's ctx ends.
type heldBody struct {
	*bytes.Reader
	ctx context.Context
}

func (b *heldBody) Read(p []byte) (int, error) {
	if b.Len() > 0 {
		return b.Reader.Read(p)
	}
	<-b.ctx.Done()
	return 0, b.ctx.Err()
}

func (b *heldBody) Close() error { return nil }

func (h *hostile) resource(t *testing.T) *client.Resource[*corev1.ConfigMap] {
	t.Helper()
	c, err := client.New(client.Config{Host: "http://hostile", QPS: -1, Transport: h})
	if err != nil {
		t.Fatal(err)
	}
	return client.For[*corev1.ConfigMap](c).Namespace("default")
}

// fixture reads testdata/hostile/name: watch event lines or a list, as
// a server sends them.
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hostile", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
