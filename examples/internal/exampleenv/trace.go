package exampleenv

import (
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/kubewire/kubewire/client"
)

// Trace makes every request of the clients built from cfg write a line
// to w as it is answered: method, path and query (continue tokens
// shortened), the Accept header sent, and the status and Content-Type
// received, each prefixed by prefix. It sets cfg.WrapTransport, so the
// transport the client builds from cfg's TLS and proxy settings is kept;
// the client layers authentication, retries and the rest on top, so the
// trace shows what goes on the wire.
func Trace(cfg *client.Config, w io.Writer, prefix string) {
	cfg.WrapTransport = func(base http.RoundTripper) http.RoundTripper {
		return &tracer{base: base, w: w, prefix: prefix}
	}
}

type tracer struct {
	base   http.RoundTripper
	prefix string
	mu     sync.Mutex // serializes writes to w
	w      io.Writer
}

func (t *tracer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	target := req.URL.Path
	if q := req.URL.Query(); len(q) > 0 {
		if q.Has("continue") {
			q.Set("continue", "…")
		}
		target += "?" + q.Encode()
	}
	got := ""
	if err != nil {
		got = err.Error()
	} else {
		got = fmt.Sprintf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	t.mu.Lock()
	fmt.Fprintf(t.w, "%s%s %s\n%s  Accept: %s\n%s  answer: %s\n", t.prefix, req.Method, target, t.prefix, req.Header.Get("Accept"), t.prefix, got)
	t.mu.Unlock()
	return resp, err
}
