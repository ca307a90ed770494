package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/kubewire/kubewire/codec"
	"golang.org/x/sync/singleflight"
	"golang.org/x/time/rate"
)

// Client talks to one API server. Create it with New; it is safe for
// concurrent use by any number of goroutines and should be shared: it
// holds the connection pool, the rate limiter, the credentials cache, the
// discovery cache and what the server told it about content types.
//
// Typed access goes through For (built-in kinds), Dynamic (any resource as
// Unstructured) and Metadata (PartialObjectMetadata); discovery through
// Discovery.
type Client struct {
	base      *url.URL
	http      *http.Client // every layer but retries: watches
	retry     *retryablehttp.Client
	transport http.RoundTripper
	timeout   time.Duration
	namespace string
	logger    *slog.Logger

	maxBody  int64 // Config.MaxResponseBytes with its default; negative: none
	maxEvent int   // Config.MaxWatchEventBytes; codec applies the default
	bodies   bodyBuffers

	// jsonOnly remembers resources whose server answered 406 to
	// protobuf (see negotiate.go): key "group/version/resource".
	jsonOnly sync.Map
	// jsonWrites remembers resources whose server answered 415 to a
	// protobuf body (see negotiate.go), keyed like jsonOnly.
	jsonWrites sync.Map
	// protobufWritesOff is Config.JSONWrites.
	protobufWritesOff bool

	discoveryMu    sync.Mutex
	discoveryCache *discoveryState
	discoveryGroup singleflight.Group
}

// New returns a Client for cfg. It reads the files cfg names (CA,
// certificates) once, now; a token file is read again as it rotates.
// It does not contact the server.
func New(cfg Config) (*Client, error) {
	base, err := parseHost(cfg.Host)
	if err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var execCreds *execCredentials
	if cfg.Exec != nil {
		if execCreds, err = newExecCredentials(&cfg); err != nil {
			return nil, err
		}
	}
	creds, err := credentialsFor(&cfg, execCreds)
	if err != nil {
		return nil, err
	}
	next := cfg.Transport
	if next == nil {
		var certs func() (*tls.Certificate, error)
		if execCreds != nil {
			certs = execCreds.certificate
		}
		t, err := baseTransport(&cfg, certs)
		if err != nil {
			return nil, err
		}
		if execCreds != nil {
			execCreds.onNewCert = t.CloseIdleConnections
		}
		next = t
	} else if !tlsEmpty(cfg.TLS) {
		logger.Debug("client: Config.Transport is set; its TLS settings are not used")
	}
	maxBody := cfg.MaxResponseBytes
	if maxBody == 0 {
		maxBody = defaultMaxResponseBytes
	}
	next = &gzipTransport{ask: !cfg.DisableCompression, next: next}
	next = &authTransport{creds: creds, next: next}
	warnings := cfg.WarningHandler
	if warnings == nil {
		warnings = LogWarningsOnce(cfg.Logger)
	}
	ua := cfg.UserAgent
	if ua == "" {
		ua = defaultUserAgent
	}
	next = &headerTransport{userAgent: ua, warnings: warnings, next: next}
	if cfg.QPS >= 0 {
		qps, burst := float64(cfg.QPS), cfg.Burst
		if qps == 0 {
			qps = defaultQPS
		}
		if burst <= 0 {
			burst = defaultBurst
		}
		next = &rateLimitTransport{limiter: rate.NewLimiter(rate.Limit(qps), burst), next: next}
	}
	hc := &http.Client{Transport: next}
	return &Client{
		base:      base,
		http:      hc,
		retry:     newRetryClient(hc, cfg.Retry.withDefaults()),
		transport: next,
		timeout:   cfg.Timeout,
		namespace: cfg.Namespace,
		logger:    logger,
		maxBody:   maxBody,
		maxEvent:  cfg.MaxWatchEventBytes,

		protobufWritesOff: cfg.JSONWrites,
	}, nil
}

// tlsEmpty reports whether t sets nothing.
func tlsEmpty(t TLSConfig) bool {
	return !t.Insecure && t.ServerName == "" && t.CAFile == "" && len(t.CAData) == 0 &&
		t.CertFile == "" && len(t.CertData) == 0 && t.KeyFile == "" && len(t.KeyData) == 0
}

// Namespace is the default namespace of the Config (kubeconfig context or
// in-cluster pod), or "default" when it had none.
func (c *Client) Namespace() string {
	if c.namespace == "" {
		return "default"
	}
	return c.namespace
}

// Host is the server's base URL.
func (c *Client) Host() string { return c.base.String() }

// CloseIdleConnections closes the connections not in use. A Client needs
// no closing; this only lets tests and short-lived programs release
// sockets early.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// request is one HTTP request to the API server.
type request struct {
	method      string
	path        string // absolute, escaped segments joined by "/"
	query       url.Values
	accept      string
	contentType string
	body        []byte
}

// response is a successful (2xx) answer, its body read in full.
type response struct {
	code        int
	contentType string
	header      http.Header
	body        []byte

	buf   *bytes.Buffer // holds body
	owner *bodyBuffers
}

// release hands the body's buffer back for the next answer. Call it once
// the body is decoded (decoders copy what they keep) and never touch body
// after.
func (r *response) release() {
	r.owner.put(r.buf)
	r.body, r.buf = nil, nil
}

func (c *Client) url(r *request) string {
	u := *c.base
	u.Path = c.base.Path + r.path
	u.RawPath = ""
	if len(r.query) > 0 {
		u.RawQuery = r.query.Encode()
	}
	return u.String()
}

// do sends r with retries and reads the whole answer. A non-2xx answer is
// returned as an error wrapping *codec.StatusError; when the client tried
// more than once the error says how often.
func (c *Client) do(ctx context.Context, r *request) (*response, error) {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	t := &tries{start: time.Now(), safe: safeMethod(r.method)}
	ctx = withTries(ctx, t)
	var body any
	if r.body != nil {
		body = r.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, c.url(r), body)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", r.method, r.path, err)
	}
	setHeaders(req.Header, r)
	resp, err := c.retry.Do(req)
	if err != nil {
		if resp != nil {
			// go-retryablehttp's pass-through error handler hands back the
			// last response along with the error (ctx ended after it came);
			// an unclosed body would hold its connection, or the in-memory
			// fake's handler, forever.
			resp.Body.Close()
		}
		return nil, c.triedError(r, t, err)
	}
	defer resp.Body.Close()
	buf := c.bodies.get()
	data, err := readBody(resp, c.maxBody, buf)
	if err != nil {
		c.bodies.put(buf)
		return nil, c.triedError(r, t, fmt.Errorf("reading the response: %w", err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, c.triedError(r, t, statusError(resp, data)) // buf is not reused: the error may hold parts of it
	}
	return &response{code: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), header: resp.Header,
		body: data, buf: buf, owner: &c.bodies}, nil
}

// triedError wraps err with the request and, after retries, the count.
func (c *Client) triedError(r *request, t *tries, err error) error {
	if t.count > 1 {
		return fmt.Errorf("client: %s %s: gave up after %d tries in %s: %w",
			r.method, r.path, t.count, time.Since(t.start).Round(time.Millisecond), err)
	}
	if _, ok := err.(*codec.StatusError); ok {
		return err // the server's message already names the object
	}
	return fmt.Errorf("client: %s %s: %w", r.method, r.path, err)
}

// stream sends r once, without retries, and returns the open response for
// the caller to read and close. A non-2xx answer is returned as a
// *codec.StatusError.
func (c *Client) stream(ctx context.Context, r *request) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, r.method, c.url(r), nil)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", r.method, r.path, err)
	}
	setHeaders(req.Header, r)
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", r.method, r.path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxWatchErrorBody))
		return nil, statusError(resp, data)
	}
	return resp, nil
}

// maxWatchErrorBody bounds what is read of the body of a watch request's
// error answer: a Status is a few hundred bytes.
const maxWatchErrorBody = 1 << 20

// maxBodyPrealloc bounds the buffer allocated up front for a body from its
// Content-Length, which a server could overstate.
const maxBodyPrealloc = 8 << 20

// readBody reads resp's whole body, failing with an error matching
// codec.ErrTooLarge as soon as it is known to exceed limit bytes (at once
// when Content-Length says so). A negative limit means no bound.
func readBody(resp *http.Response, limit int64, buf *bytes.Buffer) ([]byte, error) {
	tooLarge := func() error {
		return fmt.Errorf("the body is larger than %d bytes (Config.MaxResponseBytes): %w", limit, codec.ErrTooLarge)
	}
	if limit >= 0 && resp.ContentLength > limit {
		return nil, tooLarge()
	}
	if resp.ContentLength > 0 {
		buf.Grow(int(min(resp.ContentLength, maxBodyPrealloc)) + bytes.MinRead)
	}
	var r io.Reader = resp.Body
	if limit >= 0 {
		r = io.LimitReader(resp.Body, limit+1)
	}
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	if limit >= 0 && int64(buf.Len()) > limit {
		return nil, tooLarge()
	}
	return buf.Bytes(), nil
}

func setHeaders(h http.Header, r *request) {
	if r.accept != "" {
		h.Set("Accept", r.accept)
	}
	if r.contentType != "" {
		h.Set("Content-Type", r.contentType)
	}
}

// drain reads a little of resp's body and closes it, so the connection
// can be reused.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// joinPath joins the non-empty segments with "/". Segments are names
// checked by checkName, so they need no escaping.
func joinPath(segments ...string) string {
	var b strings.Builder
	for _, s := range segments {
		if s == "" {
			continue
		}
		b.WriteByte('/')
		b.WriteString(s)
	}
	return b.String()
}
