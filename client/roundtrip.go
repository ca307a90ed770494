package client

import (
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"golang.org/x/time/rate"
)

// The layers every request goes through, outermost first (retries, when
// used, wrap them all so each try passes every layer again):
//
//	rateLimitTransport -> headerTransport -> authTransport -> gzipTransport -> base
//
// Each is a small http.RoundTripper that clones the request before
// changing headers, as the RoundTripper contract requires, and passes
// CloseIdleConnections on to the next, so that http.Client's (and
// Client's) CloseIdleConnections reaches the base transport.

// closeIdle closes rt's idle connections, if it has a way to.
func closeIdle(rt http.RoundTripper) {
	if c, ok := rt.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

func (t *rateLimitTransport) CloseIdleConnections() { closeIdle(t.next) }
func (t *headerTransport) CloseIdleConnections()    { closeIdle(t.next) }
func (t *authTransport) CloseIdleConnections()      { closeIdle(t.next) }
func (t *gzipTransport) CloseIdleConnections()      { closeIdle(t.next) }

// rateLimitTransport waits for a token before each try: of the reads
// bucket for safe methods (get, list, watch), of the writes bucket for
// the others. Waiting ends early with the request's context.
type rateLimitTransport struct {
	reads, writes *rate.Limiter
	next          http.RoundTripper
}

func (t *rateLimitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	limiter := t.writes
	if safeMethod(req.Method) {
		limiter = t.reads
	}
	if err := limiter.Wait(req.Context()); err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			err = ctxErr
		}
		return nil, fmt.Errorf("client: waiting for the rate limiter: %w", err)
	}
	return t.next.RoundTrip(req)
}

// headerTransport sets the User-Agent and hands Warning headers of every
// response to the warning handler, at most maxWarningsPerAnswer of them
// (the drop of the others is logged).
type headerTransport struct {
	userAgent string
	warnings  WarningHandler
	logger    func() *slog.Logger
	next      http.RoundTripper
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("User-Agent") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("User-Agent", t.userAgent)
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, headersTooLarge(err)
	}
	if t.warnings != nil {
		warnings, more := parseWarnings(resp.Header.Values("Warning"))
		for _, w := range warnings {
			t.warnings.HandleWarning(w)
		}
		if l := t.logger(); more && l != nil {
			l.Warn("kubernetes api warnings dropped: the answer has more than the client passes on",
				slog.Int("passedOn", len(warnings)), slog.String("method", req.Method), slog.String("path", req.URL.Path))
		}
	}
	return resp, err
}

// gzipTransport asks for gzip (unless Config.DisableCompression) and
// decompresses gzip answers, asked for or not. An answer in any other
// Content-Encoding fails with an *encodingError: its bytes could not be
// decoded.
//
// It does not bound the decompressed size: the reader of the body does
// (Client.do stops at Config.MaxResponseBytes, a watch at each event's
// bound), and since decompression happens as the body is read, a gzip
// bomb is never expanded further than its reader reads.
type gzipTransport struct {
	ask  bool
	next http.RoundTripper
}

func (t *gzipTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.ask && req.Header.Get("Accept-Encoding") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	switch enc := strings.TrimSpace(resp.Header.Get("Content-Encoding")); {
	case enc == "" || strings.EqualFold(enc, "identity"):
		return resp, nil
	case !strings.EqualFold(enc, "gzip"):
		drain(resp)
		return nil, &encodingError{encoding: enc}
	}
	resp.Body = &gzipBody{raw: resp.Body}
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Uncompressed = true
	return resp, nil
}

// encodingError is an answer in a Content-Encoding the client cannot
// read. It matches ErrMalformed and errors.ErrUnsupported; retrying
// cannot fix it.
type encodingError struct{ encoding string }

func (e *encodingError) Error() string {
	enc := e.encoding
	if len(enc) > 64 {
		enc = enc[:64] + "..."
	}
	return fmt.Sprintf("client: the response's Content-Encoding %q is not supported (want gzip or none)", enc)
}

func (e *encodingError) Is(target error) bool {
	return target == ErrMalformed || target == errors.ErrUnsupported
}

// gzipBody decompresses lazily (the gzip header is read on the first
// Read, so that opening a response never blocks on its body).
type gzipBody struct {
	raw io.ReadCloser
	zr  *gzip.Reader
	err error
}

func (b *gzipBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.zr == nil {
		zr, err := gzip.NewReader(b.raw)
		if err != nil {
			b.err = gzipReadError(err)
			return 0, b.err
		}
		b.zr = zr
	}
	n, err := b.zr.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = gzipReadError(err)
		b.err = err
	}
	return n, err
}

// gzipReadError wraps an error of the gzip reader. Bytes that are not gzip
// (a bad header, a corrupt stream, a wrong checksum) match ErrMalformed:
// the server would send them again. A stream cut short is not: a
// connection that broke off looks the same, and a retry may get it whole.
func gzipReadError(err error) error {
	var corrupt flate.CorruptInputError
	if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &corrupt) {
		return fmt.Errorf("client: gzip response: %w: %w", ErrMalformed, err)
	}
	return fmt.Errorf("client: gzip response: %w", err)
}

func (b *gzipBody) Close() error { return b.raw.Close() }
