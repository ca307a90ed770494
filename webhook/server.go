package webhook

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"golang.org/x/sync/errgroup"
)

// Defaults of Options.
const (
	DefaultAddr             = ":9443"
	DefaultCertName         = "tls.crt"
	DefaultKeyName          = "tls.key"
	DefaultCertPollInterval = 10 * time.Second
	DefaultShutdownTimeout  = 30 * time.Second
	// DefaultMaxConcurrentReviews bounds the reviews in progress: at
	// most 64 × MaxRequestBytes (448 MiB with the default 7 MiB) of
	// bodies held by clients that send them slowly.
	DefaultMaxConcurrentReviews = 64
)

// DefaultCertDir is where the serving certificate is read from unless
// Options.CertDir says otherwise (controller-runtime's default, where
// kubebuilder's manifests mount the cert-manager Secret).
func DefaultCertDir() string {
	return filepath.Join(os.TempDir(), "k8s-webhook-server", "serving-certs")
}

// ErrInvalidOptions is matched by the errors NewServer returns for
// Options it cannot serve with.
var ErrInvalidOptions = errors.New("invalid webhook server options")

// Options configure a Server. The zero value serves on DefaultAddr with
// the certificate in DefaultCertDir, TLS 1.2 or later, HTTP/1.1.
type Options struct {
	// Addr is the address to listen on (default ":9443"); a port of 0
	// picks one (see Server.Addr).
	Addr string
	// Listener, when set, is served instead of listening on Addr (a
	// listener a test made, or one from socket activation). Run closes
	// it.
	Listener net.Listener

	// CertDir holds the serving certificate and key, PEM files named
	// CertName and KeyName (default tls.crt and tls.key, the keys of a
	// kubernetes.io/tls Secret). They are read when Run starts and again
	// whenever their contents change (checked every CertPollInterval,
	// default 10 s; see Server.ReloadCertificates), so a rotated
	// certificate is served without a restart.
	CertDir           string
	CertName, KeyName string
	CertPollInterval  time.Duration

	// The client-auth options, for a kube-apiserver that presents a
	// client certificate (the kubeconfig its admission configuration
	// gives for webhooks): ClientCAName names a PEM bundle in CertDir,
	// reloaded like the certificate; ClientAuth defaults to
	// tls.RequireAndVerifyClientCert when it is set; AllowedClientNames,
	// when set, accepts only client certificates whose common name or a
	// DNS name is listed.
	ClientCAName       string
	ClientAuth         tls.ClientAuthType
	AllowedClientNames []string

	// MinTLSVersion is the oldest TLS version accepted: tls.VersionTLS12
	// (the default) or tls.VersionTLS13. kube-apiserver speaks both.
	MinTLSVersion uint16
	// HTTP2 serves HTTP/2 besides HTTP/1.1. Off by default, as in
	// kubebuilder's projects: kube-apiserver's webhook client is content
	// with HTTP/1.1, and HTTP/2's stream resets have been a
	// denial-of-service vector (CVE-2023-44487).
	HTTP2 bool
	// TLSConfig, when set, may change the TLS configuration last (cipher
	// suites, curve preferences). Certificates come from the files.
	TLSConfig func(*tls.Config)

	// MaxRequestBytes bounds a review's body (default
	// DefaultMaxRequestBytes, 7 MiB); a larger one is answered 413.
	MaxRequestBytes int64
	// MaxConcurrentReviews bounds the reviews being read or answered at
	// once, over every path (default DefaultMaxConcurrentReviews, 64).
	// One more is answered at once, its body unread, with 429 Too Many
	// Requests and Retry-After: 1, and its connection is closed:
	// kube-apiserver retries it after a second within the webhook's
	// timeout, then applies the failurePolicy. Size it with the memory
	// of the pod: a review may hold up to MaxRequestBytes. Negative is an
	// error.
	MaxConcurrentReviews int
	// ShutdownTimeout bounds the wait for the reviews in progress when
	// Run's ctx ends (default 30 s); then connections are closed.
	ShutdownTimeout time.Duration

	// Logger gets the server's log lines (certificate loads and
	// failures at Info and Warn, each review at Debug). Nil: the logger
	// Inherit gives (package manager gives its own), else slog.Default()
	// from the start of Run, so that a server run on its own does not
	// serve an old certificate in silence.
	Logger *slog.Logger

	// Metrics observes the reviews of every path served (nil: none
	// until InheritMetrics gives some; package manager gives its own,
	// the controller_runtime_webhook_* series).
	Metrics Metrics
}

func (o Options) withDefaults() (Options, error) {
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.CertDir == "" {
		o.CertDir = DefaultCertDir()
	}
	if o.CertName == "" {
		o.CertName = DefaultCertName
	}
	if o.KeyName == "" {
		o.KeyName = DefaultKeyName
	}
	if o.CertPollInterval <= 0 {
		o.CertPollInterval = DefaultCertPollInterval
	}
	if o.ShutdownTimeout <= 0 {
		o.ShutdownTimeout = DefaultShutdownTimeout
	}
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	switch {
	case o.MaxConcurrentReviews < 0:
		return o, fmt.Errorf("webhook: MaxConcurrentReviews %d: want 0 (the default, %d) or more: %w", o.MaxConcurrentReviews, DefaultMaxConcurrentReviews, ErrInvalidOptions)
	case o.MaxConcurrentReviews == 0:
		o.MaxConcurrentReviews = DefaultMaxConcurrentReviews
	}
	switch o.MinTLSVersion {
	case 0:
		o.MinTLSVersion = tls.VersionTLS12
	case tls.VersionTLS12, tls.VersionTLS13:
	default:
		return o, fmt.Errorf("webhook: MinTLSVersion %#x: want tls.VersionTLS12 or tls.VersionTLS13: %w", o.MinTLSVersion, ErrInvalidOptions)
	}
	if o.ClientCAName != "" && o.ClientAuth == tls.NoClientCert {
		o.ClientAuth = tls.RequireAndVerifyClientCert
	}
	if o.ClientCAName == "" && o.ClientAuth >= tls.VerifyClientCertIfGiven {
		return o, fmt.Errorf("webhook: ClientAuth %v verifies client certificates: set ClientCAName: %w", o.ClientAuth, ErrInvalidOptions)
	}
	if len(o.AllowedClientNames) > 0 && o.ClientAuth != tls.RequireAndVerifyClientCert {
		return o, fmt.Errorf("webhook: AllowedClientNames needs verified client certificates (ClientCAName, ClientAuth tls.RequireAndVerifyClientCert): %w", ErrInvalidOptions)
	}
	if _, _, err := net.SplitHostPort(o.Addr); err != nil {
		return o, fmt.Errorf("webhook: Addr %q: %v: %w", o.Addr, err, ErrInvalidOptions)
	}
	return o, nil
}

// Server serves webhooks over TLS: the Hooks registered with it, and
// /healthz and /readyz. Run it on every replica of a program (a
// manager does, with manager.Options.Webhook): kube-apiserver calls
// whichever replica its Service routes to, leader or not.
//
// Register and the accessors are safe for concurrent use, before and
// while Run runs; Run is called once.
type Server struct {
	opts  Options
	certs *certFiles

	// reviews holds a token per review in progress (MaxConcurrentReviews).
	reviews chan struct{}

	mu      sync.RWMutex
	hooks   map[string]*Hook
	metrics Metrics // nil: reviews are not observed

	started atomic.Bool
	serving atomic.Bool
	addr    atomic.Value // string

	// inherited is the handler Inherit gave, when Options had no logger;
	// nil when it had one.
	inherited *atomic.Pointer[slog.Handler]
}

// NewServer returns a Server for opts, or an error matching
// ErrInvalidOptions. It reads nothing and listens nowhere; Run does.
func NewServer(opts Options) (*Server, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, hooks: map[string]*Hook{}, metrics: opts.Metrics, reviews: make(chan struct{}, opts.MaxConcurrentReviews)}
	if s.opts.Logger == nil {
		s.inherited = new(atomic.Pointer[slog.Handler])
		s.opts.Logger = slog.New(lateHandler{target: s.inherited})
	}
	s.certs = &certFiles{certFile: filepath.Join(opts.CertDir, opts.CertName), keyFile: filepath.Join(opts.CertDir, opts.KeyName), log: s.opts.Logger}
	if opts.ClientCAName != "" {
		s.certs.caFile = filepath.Join(opts.CertDir, opts.ClientCAName)
	}
	s.certs.observe = func(err error) {
		s.mu.RLock()
		m := s.metrics
		s.mu.RUnlock()
		if m != nil {
			m.WebhookCertificateRead(err)
		}
	}
	return s, nil
}

// Register adds hooks, each at its Path. A path served twice is an
// error, except for conversion Hooks, whose kinds are served together;
// so is a Hook that cannot work (see Hook.Err). Nothing is added then.
func (s *Server) Register(hooks ...*Hook) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	next := make(map[string]*Hook, len(s.hooks)+len(hooks))
	for p, h := range s.hooks {
		next[p] = h
	}
	for _, h := range hooks {
		if h.err != nil {
			return h.err
		}
		if len(h.path) == 0 || h.path[0] != '/' || h.path == "/healthz" || h.path == "/readyz" {
			return fmt.Errorf("webhook: cannot serve a %s hook at path %q", h.kind, h.path)
		}
		c := *h
		c.maxBytes, c.log = s.opts.MaxRequestBytes, s.opts.Logger
		if old := next[h.path]; old != nil {
			if old.conv == nil || h.conv == nil {
				return fmt.Errorf("webhook: path %s is served twice", h.path)
			}
			merged, err := old.conv.merge(h.conv)
			if err != nil {
				return err
			}
			c.conv = merged
		}
		next[h.path] = &c
	}
	if s.metrics != nil {
		for p := range next {
			if s.hooks[p] == nil {
				s.metrics.WebhookServing(p)
			}
		}
	}
	s.hooks = next
	return nil
}

// Paths returns the paths of the registered Hooks, sorted.
func (s *Server) Paths() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []string
	for p := range s.hooks {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// ServeHTTP serves the registered Hooks, /healthz and /readyz: the
// Server's handler, for tests that serve it themselves.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/healthz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = fmt.Fprintln(w, "ok")
		return
	case "/readyz":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if err := s.Ready(); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = fmt.Fprintln(w, err)
			return
		}
		_, _ = fmt.Fprintln(w, "ok")
		return
	}
	s.mu.RLock()
	h, m := s.hooks[r.URL.Path], s.metrics
	s.mu.RUnlock()
	if h == nil {
		writeJSON(w, http.StatusNotFound, badRequestStatus(http.StatusNotFound, "NotFound", "no webhook is served at "+r.URL.Path))
		return
	}
	var handler http.Handler = h
	select {
	case s.reviews <- struct{}{}:
		defer func() { <-s.reviews }()
	default:
		handler = http.HandlerFunc(s.tooManyReviews)
	}
	if m == nil {
		handler.ServeHTTP(w, r)
		return
	}
	observed(m, h.path, handler, w, r)
}

// tooManyReviews answers a review over MaxConcurrentReviews without
// reading its body, and closes the connection rather than read the body
// afterwards, as net/http would (with no deadline) to reuse it.
func (s *Server) tooManyReviews(w http.ResponseWriter, r *http.Request) {
	s.opts.Logger.Log(r.Context(), slog.LevelDebug, "webhook: too many reviews in progress", "path", r.URL.Path, "limit", s.opts.MaxConcurrentReviews)
	w.Header().Set("Retry-After", "1")
	w.Header().Set("Connection", "close")
	writeJSON(w, http.StatusTooManyRequests, badRequestStatus(http.StatusTooManyRequests, metav1.StatusReasonTooManyRequests,
		fmt.Sprintf("more than %d reviews in progress", s.opts.MaxConcurrentReviews)))
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
}

// Addr is the address the Server listens on once Run listens ("" before).
func (s *Server) Addr() string {
	a, _ := s.addr.Load().(string)
	return a
}

// Ready returns nil while Run serves with a certificate loaded.
func (s *Server) Ready() error {
	switch {
	case !s.started.Load():
		return errors.New("webhook server not started")
	case !s.serving.Load():
		return errors.New("webhook server not serving")
	}
	return nil
}

// ReloadCertificates reads the certificate files now, rather than at
// the next poll, and returns why they do not load (the ones in use
// stay).
func (s *Server) ReloadCertificates() error { return s.certs.load() }

// Run listens and serves until ctx ends, then stops taking connections,
// lets the reviews in progress finish (within ShutdownTimeout) and
// returns nil. It fails at once when the certificate does not load or
// the address cannot be listened on. Run returns after every goroutine
// it started has returned.
func (s *Server) Run(ctx context.Context) error {
	if !s.started.CompareAndSwap(false, true) {
		return errors.New("webhook: Run called twice")
	}
	s.Inherit(slog.Default()) // nothing inherited: the program's default logger
	if err := s.certs.load(); err != nil {
		if s.opts.Listener != nil {
			_ = s.opts.Listener.Close()
		}
		return err
	}
	ln := s.opts.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", s.opts.Addr); err != nil {
			return fmt.Errorf("webhook: %w", err)
		}
	}
	s.addr.Store(ln.Addr().String())
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       90 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.opts.Logger.Handler(), slog.LevelDebug),
	}
	if !s.opts.HTTP2 {
		srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
	}
	tlsLn := tls.NewListener(ln, s.tlsConfig())
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		if err := srv.Serve(tlsLn); !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("webhook: %w", err)
		}
		return nil
	})
	g.Go(func() error { s.certs.poll(gctx, s.opts.CertPollInterval); return nil })
	g.Go(func() error {
		<-gctx.Done()
		s.serving.Store(false)
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.ShutdownTimeout)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			_ = srv.Close()
		}
		return nil
	})
	s.serving.Store(true)
	s.opts.Logger.Info("webhook: serving", "addr", s.Addr(), "paths", s.Paths())
	err := g.Wait()
	s.serving.Store(false)
	return err
}

func (s *Server) tlsConfig() *tls.Config {
	o := s.opts
	base := &tls.Config{
		MinVersion:     o.MinTLSVersion,
		GetCertificate: s.certs.getCertificate,
		ClientAuth:     o.ClientAuth,
		NextProtos:     []string{"http/1.1"},
	}
	if o.HTTP2 {
		base.NextProtos = []string{"h2", "http/1.1"}
	}
	if len(o.AllowedClientNames) > 0 {
		base.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("webhook: no client certificate")
			}
			leaf := cs.PeerCertificates[0]
			names := append([]string{leaf.Subject.CommonName}, leaf.DNSNames...)
			for _, n := range names {
				if slices.Contains(o.AllowedClientNames, n) {
					return nil
				}
			}
			return fmt.Errorf("webhook: client certificate %q is not one of the allowed client names", leaf.Subject.CommonName)
		}
	}
	if o.TLSConfig != nil {
		o.TLSConfig(base)
	}
	if s.certs.caFile == "" {
		return base
	}
	// The client CA is reloaded like the certificate: each handshake
	// takes the pool loaded last.
	return &tls.Config{
		MinVersion: base.MinVersion,
		GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
			c := base.Clone()
			c.ClientCAs = s.certs.pool.Load()
			if c.ClientCAs == nil {
				c.ClientCAs = x509.NewCertPool()
			}
			return c, nil
		},
	}
}
