package client

import (
	"bytes"
	"context"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/kubewire/kubewire/internal/testing/fixture"
)

// load reads a fixture or fails the test.
func load(t testing.TB, name string) fixture.Response {
	t.Helper()
	r, err := fixture.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// serve writes a captured response: its status, Content-Type, Warning and
// Retry-After headers, and body.
func serve(w http.ResponseWriter, r fixture.Response) {
	for _, h := range []string{"Content-Type", "Warning", "Retry-After"} {
		for _, v := range r.Header.Values(h) {
			w.Header().Add(h, v)
		}
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(r.Body)))
	w.WriteHeader(r.Status)
	w.Write(r.Body)
}

// pemOf returns the PEM of a test server's certificate, to trust it.
func pemOf(srv *httptest.Server) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
}

// recorder keeps the requests a test server received.
type recorder struct {
	mu   sync.Mutex
	reqs []*http.Request
	body [][]byte
}

func (rec *recorder) add(r *http.Request, body []byte) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.reqs = append(rec.reqs, r)
	rec.body = append(rec.body, body)
}

func (rec *recorder) last(t testing.TB) (*http.Request, []byte) {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.reqs) == 0 {
		t.Fatal("the server received no request")
	}
	return rec.reqs[len(rec.reqs)-1], rec.body[len(rec.body)-1]
}

func (rec *recorder) count() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.reqs)
}

// newServer starts an httptest server (real loopback HTTP) running h and
// returns a Client for it with rate limiting off.
func newServer(t testing.TB, h http.HandlerFunc) (*Client, *recorder) {
	t.Helper()
	return newServerConfig(t, Config{QPS: -1}, h)
}

// newServerConfig is newServer with a Config (its Host is set here).
func newServerConfig(t testing.TB, cfg Config, h http.HandlerFunc) (*Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := readAll(r)
		rec.add(r, body)
		r.Body = io.NopCloser(bytes.NewReader(body)) // for h to read again
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	cfg.Host = srv.URL
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c, rec
}

func readAll(r *http.Request) []byte {
	if r.Body == nil {
		return nil
	}
	var b []byte
	buf := make([]byte, 4096)
	for {
		n, err := r.Body.Read(buf)
		b = append(b, buf[:n]...)
		if err != nil {
			return b
		}
	}
}

// pipeNet is an in-memory network for testing/synctest bubbles: each dial
// makes a net.Pipe whose server end the listener accepts. Goroutines
// blocked on pipes are durably blocked, so fake time advances.
type pipeNet struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeNet() *pipeNet {
	return &pipeNet{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (p *pipeNet) Accept() (net.Conn, error) {
	select {
	case c := <-p.conns:
		return c, nil
	case <-p.closed:
		return nil, net.ErrClosed
	}
}

func (p *pipeNet) Close() error   { p.once.Do(func() { close(p.closed) }); return nil }
func (p *pipeNet) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 443} }

func (p *pipeNet) DialContext(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case p.conns <- server:
		return client, nil
	case <-ctx.Done():
		client.Close()
		server.Close()
		return nil, ctx.Err()
	case <-p.closed:
		client.Close()
		server.Close()
		return nil, &net.OpError{Op: "dial", Net: "pipe", Err: net.ErrClosed}
	}
}

// newPipeServer serves h over a pipeNet and returns a Client for it built
// from cfg (Host and Transport are set here). Call it inside a synctest
// bubble; the returned stop function shuts everything down so the
// bubble's goroutines can exit.
func newPipeServer(t testing.TB, cfg Config, h http.HandlerFunc) (*Client, *recorder, func()) {
	t.Helper()
	rec := &recorder{}
	pn := newPipeNet()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := readAll(r)
		rec.add(r, body)
		r.Body = io.NopCloser(bytes.NewReader(body)) // for h to read again
		h(w, r)
	})}
	go srv.Serve(pn)
	tr := &http.Transport{DialContext: pn.DialContext}
	cfg.Host = "http://kube.test"
	cfg.Transport = tr
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	stop := func() {
		tr.CloseIdleConnections()
		srv.Close()
		pn.Close()
	}
	return c, rec, stop
}
