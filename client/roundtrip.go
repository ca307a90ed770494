package client

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/kubewire/kubewire/codec"
	"golang.org/x/time/rate"
)

// The layers every request goes through, outermost first (retries, when
// used, wrap them all so each try passes every layer again):
//
//	rateLimitTransport -> headerTransport -> authTransport -> gzipTransport -> base
//
// Each is a small http.RoundTripper that clones the request before
// changing headers, as the RoundTripper contract requires.

// rateLimitTransport waits for a token of the client's bucket before each
// try. Waiting ends early with the request's context.
type rateLimitTransport struct {
	limiter *rate.Limiter
	next    http.RoundTripper
}

func (t *rateLimitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.limiter.Wait(req.Context()); err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			err = ctxErr
		}
		return nil, fmt.Errorf("client: waiting for the rate limiter: %w", err)
	}
	return t.next.RoundTrip(req)
}

// headerTransport sets the User-Agent and hands Warning headers of every
// response to the warning handler.
type headerTransport struct {
	userAgent string
	warnings  WarningHandler
	next      http.RoundTripper
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("User-Agent") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("User-Agent", t.userAgent)
	}
	resp, err := t.next.RoundTrip(req)
	if err == nil && t.warnings != nil {
		for _, w := range parseWarnings(resp.Header.Values("Warning")) {
			t.warnings.HandleWarning(w)
		}
	}
	return resp, err
}

// watchKey marks a watch request's context, for layers that treat watch
// streams differently (no decompressed-size bound, no retries).
type watchKey struct{}

func withWatch(ctx context.Context) context.Context { return context.WithValue(ctx, watchKey{}, true) }

func isWatch(ctx context.Context) bool { v, _ := ctx.Value(watchKey{}).(bool); return v }

// gzipTransport asks for gzip and decompresses, bounding the decompressed
// size of non-watch bodies by max bytes.
type gzipTransport struct {
	max  int64
	next http.RoundTripper
}

func (t *gzipTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Header.Get("Accept-Encoding") != "" {
		return t.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := t.next.RoundTrip(req)
	if err != nil || !strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		return resp, err
	}
	limit := t.max
	if isWatch(req.Context()) {
		limit = 0
	}
	resp.Body = &gzipBody{raw: resp.Body, limit: limit, left: limit}
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Uncompressed = true
	return resp, nil
}

// gzipBody decompresses lazily (the gzip header is read on the first
// Read, so that opening a response never blocks on its body).
type gzipBody struct {
	raw   io.ReadCloser
	zr    *gzip.Reader
	limit int64 // 0: unbounded
	left  int64
	err   error
}

func (b *gzipBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.zr == nil {
		zr, err := gzip.NewReader(b.raw)
		if err != nil {
			b.err = fmt.Errorf("client: gzip response: %w", err)
			return 0, b.err
		}
		b.zr = zr
	}
	if b.limit > 0 {
		if b.left <= 0 {
			// Look for one more byte to tell "exactly at the limit" from "over".
			var one [1]byte
			if n, _ := b.zr.Read(one[:]); n > 0 {
				b.err = fmt.Errorf("client: gzip response decompresses to more than %d bytes: %w", b.limit, codec.ErrTooLarge)
				return 0, b.err
			}
			return 0, io.EOF
		}
		if int64(len(p)) > b.left {
			p = p[:b.left]
		}
	}
	n, err := b.zr.Read(p)
	b.left -= int64(n)
	if err != nil && !errors.Is(err, io.EOF) {
		err = fmt.Errorf("client: gzip response: %w", err)
		b.err = err
	}
	return n, err
}

func (b *gzipBody) Close() error { return b.raw.Close() }
