package client

import (
	"bytes"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/kubewire/kubewire/fake"
)

// Helpers running the client against package fake's API server over real
// loopback HTTP.
//
// fake.Server has no method returning a client Config, so fakeConfig
// builds one from URL and Token; for TLS it reuses the transport of
// fake.Server.Client (the self-signed certificate is not exported as
// PEM), which bypasses the client's own base transport. startFakeWire
// serves the fake from this package's own httptest server instead, so
// that tests can see requests as they reach the server, put a proxy in
// front of it, and (with tls) use the client's own HTTP/2 transport.

// fakeConfig is a Config for a started fake server: its URL and token,
// rate limiting off. cfg's other fields are kept.
func fakeConfig(srv *fake.Server, tlsOn bool, cfg Config) Config {
	cfg.Host = srv.URL()
	cfg.BearerToken = srv.Token()
	if cfg.QPS == 0 {
		cfg.QPS = -1
	}
	if tlsOn {
		cfg.Transport = srv.Client().Transport
	}
	return cfg
}

// startFake starts a fake API server with opts (fake.Start) and returns
// it with a Client built from cfg (see fakeConfig). Both are closed when
// the test ends.
func startFake(t testing.TB, opts fake.Options, cfg Config) (*fake.Server, *Client) {
	t.Helper()
	srv := fake.Start(opts)
	t.Cleanup(srv.Close)
	c, err := New(fakeConfig(srv, opts.TLS, cfg))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return srv, c
}

// wireOptions configure startFakeWire.
type wireOptions struct {
	fake fake.Options
	cfg  Config
	// tls serves HTTPS with HTTP/2; the client trusts the certificate
	// through Config.TLS.CAData and uses its own transport.
	tls bool
	// proxy, when set, wraps the fake's handler: a proxy or aggregated
	// server in front of it.
	proxy func(http.Handler) http.Handler
}

// wireRecord is what startFakeWire saw: the requests and the
// Content-Type of each answer.
type wireRecord struct {
	recorder
	mu        sync.Mutex
	respTypes []string
}

// lastResponseType is the Content-Type of the last answer.
func (w *wireRecord) lastResponseType() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.respTypes) == 0 {
		return ""
	}
	return w.respTypes[len(w.respTypes)-1]
}

// startFakeWire serves a fake API server (fake.New) from an httptest
// server that records every request (method, URL, headers and body) as
// it reaches the server and the Content-Type of its answer, and returns
// the fake, a Client and the record.
func startFakeWire(t testing.TB, o wireOptions) (*fake.Server, *Client, *wireRecord) {
	t.Helper()
	srv := fake.New(o.fake)
	var h http.Handler = srv
	if o.proxy != nil {
		h = o.proxy(h)
	}
	rec := &wireRecord{}
	hs := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.add(r.Clone(r.Context()), body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.ServeHTTP(&typeRecorder{ResponseWriter: w, rec: rec}, r)
	}))
	cfg := o.cfg
	if o.tls {
		hs.EnableHTTP2 = true
		hs.StartTLS()
		cfg.TLS.CAData = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw})
	} else {
		hs.Start()
	}
	t.Cleanup(hs.Close)
	t.Cleanup(srv.Close) // runs first: ends the watches hs.Close waits for
	cfg.Host = hs.URL
	cfg.BearerToken = srv.Token()
	if cfg.QPS == 0 {
		cfg.QPS = -1
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return srv, c, rec
}

// requests returns "METHOD URI Content-Type" of each recorded request.
func (rec *recorder) requests() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out := make([]string, len(rec.reqs))
	for i, r := range rec.reqs {
		out[i] = r.Method + " " + r.URL.RequestURI() + " " + r.Header.Get("Content-Type")
	}
	return out
}

// reset forgets the recorded requests.
func (rec *recorder) reset() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.reqs, rec.body = nil, nil
}

// formats are the two encodings the fake answers built-in kinds with:
// protobuf (the client's first choice) and JSON (the fake refusing
// protobuf, as for custom resources).
var formats = []struct {
	name     string
	noProto  bool
	respType string
}{
	{"protobuf", false, "application/vnd.kubernetes.protobuf"},
	{"json", true, "application/json"},
}

// typeRecorder notes the Content-Type of an answer when its header is
// written (a watch's handler runs until the watch ends).
type typeRecorder struct {
	http.ResponseWriter
	rec  *wireRecord
	done bool
}

func (t *typeRecorder) WriteHeader(code int) {
	t.note()
	t.ResponseWriter.WriteHeader(code)
}

func (t *typeRecorder) Write(b []byte) (int, error) {
	t.note()
	return t.ResponseWriter.Write(b)
}

func (t *typeRecorder) note() {
	if t.done {
		return
	}
	t.done = true
	t.rec.mu.Lock()
	t.rec.respTypes = append(t.rec.respTypes, t.Header().Get("Content-Type"))
	t.rec.mu.Unlock()
}

func (t *typeRecorder) Flush() { http.NewResponseController(t.ResponseWriter).Flush() }

func (t *typeRecorder) Unwrap() http.ResponseWriter { return t.ResponseWriter }
