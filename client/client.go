package client

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
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
	timeout   time.Duration
	namespace string
	obs       *observer // logger and metrics

	maxBody  int64 // Config.MaxResponseBytes with its default; negative: none
	maxEvent int   // Config.MaxWatchEventBytes; codec applies the default
	bodies   bodyBuffers

	// jsonOnly holds the resources whose server answered 406 to an
	// Accept offering protobuf or CBOR (see negotiate.go).
	jsonOnly refusals
	// jsonWrites holds the resources whose server answered 415 to a
	// protobuf body (see negotiate.go).
	jsonWrites refusals
	// protobufWritesOff is Config.JSONWrites.
	protobufWritesOff bool
	// cborOff is Config.DisableCBOR; cborServed holds the resources whose
	// latest read offering CBOR was answered in CBOR (a GroupVersionResource
	// key), cborRefused those that refused a CBOR body (see cbor.go).
	cborOff     bool
	cborServed  sync.Map
	cborRefused refusals
	// reflected remembers the kinds For warned about (see slowcodec.go),
	// keyed by reflect.Type.
	reflected sync.Map

	discoveryMu    sync.Mutex
	discoveryCache *discoveryState
	discoveryFetch *discoveryFetch // the fetch under way, nil when none
}

// New returns a Client for cfg. It reads the CA file once, now; a token
// file and client certificate files are read again as they rotate.
// It does not contact the server.
func New(cfg Config) (*Client, error) {
	base, err := parseHost(cfg.Host)
	if err != nil {
		return nil, err
	}
	obs := newObserver(&cfg)
	logger := obs.logger()
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
		var certs func(context.Context) (*tls.Certificate, error)
		if execCreds != nil {
			certs = execCreds.certificate
		}
		files, err := newCertFiles(&cfg, obs.logger)
		if err != nil {
			return nil, err
		}
		t, err := baseTransport(&cfg, certs, files)
		if err != nil {
			return nil, err
		}
		if execCreds != nil {
			execCreds.onNewCert = t.CloseIdleConnections
		}
		next = t
		if files != nil {
			next = &certCheckTransport{files: files, next: t}
		}
	} else if !tlsEmpty(cfg.TLS) {
		logger.Debug("client: Config.Transport is set; its TLS settings are not used")
	}
	if cfg.WrapTransport != nil {
		if next = cfg.WrapTransport(next); next == nil {
			return nil, fmt.Errorf("client: Config.WrapTransport returned no transport: %w", ErrInvalidOptions)
		}
	}
	maxBody := cfg.MaxResponseBytes
	if maxBody == 0 {
		maxBody = defaultMaxResponseBytes
	}
	next = &stalledBodyTransport{limit: headerTimeout(&cfg), next: next}
	next = &gzipTransport{ask: !cfg.DisableCompression, next: next}
	next = &authTransport{creds: creds, origin: base, next: next}
	warnings := cfg.WarningHandler
	if warnings == nil {
		warnings = &onceLogger{current: obs.logger, seen: make(map[string]struct{})}
	}
	ua := cfg.UserAgent
	if ua == "" {
		ua = defaultUserAgent
	}
	next = &headerTransport{userAgent: ua, warnings: warnings, logger: obs.logger, next: next}
	if cfg.QPS > 0 {
		qps, burst := rate.Limit(cfg.QPS), cfg.Burst
		if burst <= 0 {
			burst = max(int(2*cfg.QPS), 1)
		}
		next = &rateLimitTransport{reads: rate.NewLimiter(qps, burst), writes: rate.NewLimiter(qps, burst), next: next}
	}
	c := &Client{
		base:      base,
		http:      &http.Client{Transport: next, CheckRedirect: keepRedirect},
		timeout:   cfg.Timeout,
		namespace: cfg.Namespace,
		obs:       obs,
		maxBody:   maxBody,
		maxEvent:  cfg.MaxWatchEventBytes,

		protobufWritesOff: cfg.JSONWrites,
		cborOff:           cfg.DisableCBOR,
	}
	buffered := &http.Client{Transport: &bufferingTransport{limit: maxBody, bodies: &c.bodies, next: next}, CheckRedirect: keepRedirect}
	c.retry = newRetryClient(buffered, cfg.Retry.withDefaults())
	return c, nil
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

// Logger is Config.Logger, else the logger Inherit gave, else
// slog.Default() as it was when New ran. Informers and reflectors built on this
// Client log through it unless told otherwise, so one logger serves the
// whole program.
func (c *Client) Logger() *slog.Logger { return c.obs.logger() }

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
	// no5xxRetry makes a 5xx answer without Retry-After final: discovery
	// of a group version whose aggregated server is down answers 503 at
	// once, and waiting out the retry policy for it (48 s by default,
	// per such group) delays every other kind's discovery.
	no5xxRetry bool
}

// response is a successful (2xx) answer, its body read in full.
type response struct {
	code        int
	contentType string
	header      http.Header
	body        []byte

	buf   *bodyBuf // holds body; nil when not recycled
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
// returned as an error wrapping *codec.StatusError. Every error names the
// request and, when the client tried more than once, says how often.
func (c *Client) do(ctx context.Context, r *request) (*response, error) {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	resp, t, err := c.send(ctx, r)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if err := redirectError(r, resp); err != nil {
		return nil, err
	}
	bb, ok := resp.Body.(*bufferedBody)
	if !ok { // every answer of c.retry comes through bufferingTransport
		return nil, requestError(r, t, errors.New("internal error: an answer was not read by the client's transport"))
	}
	data, buf := bb.take()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, requestError(r, t, statusError(resp, data))
	}
	return &response{code: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), header: resp.Header,
		body: data, buf: buf, owner: &c.bodies}, nil
}

// send sends r through the retry policy and returns the last answer,
// its body still to be read and closed, with the tries it took.
func (c *Client) send(ctx context.Context, r *request) (*http.Response, *tries, error) {
	t := &tries{start: time.Now(), safe: safeMethod(r.method), no5xxRetry: r.no5xxRetry}
	ctx = withTries(ctx, t)
	var body any
	if r.body != nil {
		body = r.body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, c.url(r), body)
	if err != nil {
		return nil, t, requestError(r, nil, err)
	}
	setHeaders(req.Header, r)
	resp, err := c.retry.Do(req)
	c.obs.request(c.base.Host, r.method, resp, t.start)
	if err != nil {
		if resp != nil {
			// go-retryablehttp hands back the last answer with the error
			// (ctx ended after it came): recycle its buffer.
			resp.Body.Close()
		}
		return nil, t, requestError(r, t, err)
	}
	return resp, t, nil
}

// streamedKey marks the context of a request whose 2xx answer the
// caller reads as it arrives (doStream): bufferingTransport hands it on
// unread.
type streamedKey struct{}

func streamed(ctx context.Context) bool { return ctx.Value(streamedKey{}) != nil }

// doStream sends r as do does, with retries of error answers and failed
// connections, and returns the open 2xx answer for the caller to read
// and close: its body is not read whole nor bounded here.
func (c *Client) doStream(ctx context.Context, r *request) (*http.Response, error) {
	resp, t, err := c.send(context.WithValue(ctx, streamedKey{}, true), r)
	if err != nil {
		return nil, err
	}
	if err := redirectError(r, resp); err != nil {
		drain(resp)
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, requestError(r, t, statusError(resp, data))
	}
	return resp, nil
}

// stream sends r once, without retries, and returns the open response for
// the caller to read and close. A non-2xx answer is returned as an error
// wrapping a *codec.StatusError.
func (c *Client) stream(ctx context.Context, r *request) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, r.method, c.url(r), nil)
	if err != nil {
		return nil, requestError(r, nil, err)
	}
	setHeaders(req.Header, r)
	start := time.Now()
	resp, err := c.http.Do(req)
	c.obs.request(c.base.Host, r.method, resp, start)
	if err != nil {
		return nil, requestError(r, nil, err)
	}
	if err := redirectError(r, resp); err != nil {
		drain(resp)
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return nil, requestError(r, nil, statusError(resp, data))
	}
	return resp, nil
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
