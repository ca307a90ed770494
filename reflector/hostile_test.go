package reflector_test

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
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
)

// hostile is a server that speaks kube-apiserver's protocol bytes but
// lies inside them: list answers the collection's list, and watch the
// n-th watch (from 0) with a body of events; the watch ends after them
// unless hold is set, then it sends nothing more until the client goes.
// It serves in memory, for synctest bubbles, and records what it was
// asked.
type hostile struct {
	list  func(q url.Values) string
	watch func(n int, q url.Values) (body string, hold bool)

	mu      sync.Mutex
	watches []hostileRequest
	lists   []hostileRequest
}

type hostileRequest struct {
	at time.Time
	q  url.Values
}

func (h *hostile) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	h.mu.Lock()
	var body string
	hold := false
	if q.Get("watch") == "true" {
		n := len(h.watches)
		h.watches = append(h.watches, hostileRequest{time.Now(), q})
		h.mu.Unlock()
		body, hold = h.watch(n, q)
	} else {
		h.lists = append(h.lists, hostileRequest{time.Now(), q})
		h.mu.Unlock()
		body = h.list(q)
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

func (h *hostile) watchRequests() []hostileRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hostileRequest(nil), h.watches...)
}

func (h *hostile) listRequests() []hostileRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hostileRequest(nil), h.lists...)
}

// resource is a client of the hostile server's ConfigMaps in "default".
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

// requestGaps returns the time between consecutive requests.
func requestGaps(reqs []hostileRequest) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(reqs); i++ {
		out = append(out, reqs[i].at.Sub(reqs[i-1].at))
	}
	return out
}
