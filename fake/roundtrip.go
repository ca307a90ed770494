package fake

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"sync"
)

// RoundTripper returns a transport that serves requests by calling the
// server's handler in memory, with no sockets: responses stream through a
// pipe, so watches work. It suits testing/synctest bubbles, where network
// connections do not. Requests still need the bearer token. The transport
// is safe for concurrent use; Close ends its in-flight requests.
func (s *Server) RoundTripper() http.RoundTripper { return memTransport{s} }

type memTransport struct{ s *Server }

func (t memTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.s.ctx.Err(); err != nil {
		return nil, errors.New("fake: server closed")
	}
	sreq := req.Clone(req.Context())
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		sreq.Body = io.NopCloser(bytes.NewReader(b))
		sreq.ContentLength = int64(len(b))
	}
	sreq.RequestURI = req.URL.RequestURI()
	pr, pw := io.Pipe()
	w := &memWriter{header: http.Header{}, pw: pw, ready: make(chan struct{})}
	t.s.wg.Add(1)
	go func() {
		defer t.s.wg.Done()
		defer func() {
			if v := recover(); v != nil && v != http.ErrAbortHandler { //nolint:errorlint // sentinel value comparison, as net/http does
				panic(v)
			}
			w.finish()
		}()
		t.s.ServeHTTP(w, sreq)
	}()
	select {
	case <-w.ready:
	case <-req.Context().Done():
		_ = pr.CloseWithError(req.Context().Err())
		return nil, req.Context().Err()
	}
	resp := &http.Response{
		Status:     http.StatusText(w.code),
		StatusCode: w.code,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        w.header.Clone(),
		Body:          &memBody{pr: pr, cancel: func() { _ = pr.Close() }},
		ContentLength: -1,
		Request:       req,
	}
	if resp.Header.Get("Content-Encoding") == "gzip" && req.Header.Get("Accept-Encoding") == "" {
		// Like net/http's transport: it asked for gzip on the caller's
		// behalf, so it decompresses.
		return gunzipResponse(resp)
	}
	return resp, nil
}

// memWriter is the handler's side of an in-memory response.
type memWriter struct {
	mu      sync.Mutex
	header  http.Header
	code    int
	pw      *io.PipeWriter
	ready   chan struct{}
	started bool
	aborted bool
}

func (w *memWriter) Header() http.Header { return w.header }

func (w *memWriter) WriteHeader(code int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.started {
		return
	}
	w.started = true
	w.code = code
	w.header = w.header.Clone()
	close(w.ready)
}

func (w *memWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.pw.Write(p)
}

// Flush is a no-op: the pipe hands every write to the reader.
func (w *memWriter) Flush() {}

// Abort breaks the response mid-stream.
func (w *memWriter) Abort() {
	w.mu.Lock()
	w.aborted = true
	w.mu.Unlock()
	_ = w.pw.CloseWithError(io.ErrUnexpectedEOF)
}

func (w *memWriter) finish() {
	w.WriteHeader(http.StatusOK)
	_ = w.pw.Close()
}

// memBody is the client's side; closing it unblocks the handler.
type memBody struct {
	pr     *io.PipeReader
	cancel func()
}

func (b *memBody) Read(p []byte) (int, error) { return b.pr.Read(p) }
func (b *memBody) Close() error               { b.cancel(); return nil }
