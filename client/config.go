package client

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/kubewire/kubewire/internal/runtime/smallfile"
)

// Config says how to reach and authenticate to one API server. Build it
// with a struct literal, from a kubeconfig file (package
// client/kubeconfig), or with LoadInCluster; then call New.
//
// The zero value of every field means "the default": no credentials, no
// client-side rate limit, the RetryPolicy defaults, and so on. A Config is a
// plain value: copy it freely. New does not keep a reference to it.
//
// Printing a Config (fmt's %v and %+v, or slog) never shows secrets: the
// token, password and key material are written as "[redacted]".
type Config struct {
	// Host is the API server's URL, "https://host:port". A bare
	// "host:port" means https.
	Host string

	// TLS configures server verification and client certificates.
	TLS TLSConfig

	// BearerToken is sent as "Authorization: Bearer ...".
	BearerToken string
	// BearerTokenFile is a file holding the token; it is read again when
	// older than TokenFileRefresh (default one minute) and right after a
	// 401, so a rotated service-account token is picked up without a
	// restart. It wins over BearerToken.
	BearerTokenFile string
	// TokenFileRefresh is how long a token read from BearerTokenFile is
	// used before the file is read again (default 1m).
	TokenFileRefresh time.Duration
	// CertFileRefresh is how long a client certificate read from
	// TLS.CertFile and TLS.KeyFile is used before the files are read
	// again (default 1m). When they changed, the connections made with
	// the old certificate are closed (watches on them end and are
	// resumed by their reflector), as client-go does.
	CertFileRefresh time.Duration
	// Username and Password are sent with basic authentication.
	Username, Password string
	// Exec runs a credential plugin (client.authentication.k8s.io/v1)
	// to get a token or client certificate. It wins over the other
	// credentials.
	Exec *ExecConfig

	// ProxyURL is the proxy for every request (http, https or socks5);
	// empty uses the environment (HTTPS_PROXY, NO_PROXY).
	ProxyURL string
	// DisableCompression stops asking for gzip responses (a gzip answer
	// is still decompressed).
	DisableCompression bool

	// MaxResponseBytes bounds a response body other than a watch stream,
	// as the client reads it: after gzip decompression, so a small
	// compressed body that expands without end (a gzip bomb) costs at
	// most this much memory before it is refused. Zero means
	// DefaultMaxResponseBytes (256 MiB); a negative value means no bound.
	// A larger body fails with an error matching codec.ErrTooLarge once
	// the bound is passed, at the first try: the request is not retried.
	// A body within the bound that came without a Content-Length (gzip)
	// takes up to about twice its size while it is read. Paged lists stay far below the default (a page
	// of 500 objects; kube-apiserver refuses objects over 3 MiB); raise it
	// for lists the server does not page: resourceVersion "0" reads, such
	// as the reflector's InitialListFromCache, of very large collections.
	MaxResponseBytes int64
	// MaxWatchEventBytes bounds one watch event (a protobuf frame or a
	// JSON document), so a corrupt or hostile length prefix costs at most
	// this much memory. Zero or a negative value means
	// codec.DefaultMaxEventSize (16 MiB, client-go's bound, ten times the
	// largest object etcd stores by default). A larger event ends the
	// watch with an error matching codec.ErrTooLarge. Watch streams have
	// no bound on their total size.
	MaxWatchEventBytes int

	// JSONWrites sends create and update bodies of built-in kinds as JSON
	// instead of protobuf (the default, with a JSON fallback on 415).
	// Reads are unaffected.
	JSONWrites bool

	// DisableCBOR keeps reads and writes of resources without protobuf
	// (custom resources, dynamic reads) on JSON. By default the client
	// offers CBOR before JSON (KEP-4222: kube-apiserver serves it with the
	// CBORServingAndStorage feature gate, alpha through v1.36, and answers
	// JSON otherwise), and once a resource has been served as CBOR writes
	// its create, update and apply bodies as CBOR too, falling back to
	// JSON after a 406 or a 415.
	DisableCBOR bool

	// PingAfter and PingTimeout configure the health check of HTTP/2
	// connections: one that has received no frame for PingAfter (default
	// 30s) gets a PING, and no answer within PingTimeout (default 15s)
	// closes it, failing the requests and watches on it instead of
	// leaving them hanging on a dead peer. A negative PingAfter turns
	// the check off. They apply to the transport New builds, not to
	// Config.Transport.
	PingAfter, PingTimeout time.Duration

	// ResponseHeaderTimeout bounds the wait for an answer's headers once a
	// request is sent, on the transport New builds (default
	// DefaultResponseHeaderTimeout; negative: no bound). A server or
	// proxy that accepts a request and never answers it would otherwise
	// hold it until its context ends; over HTTP/1.1 nothing else notices.
	// kube-apiserver sends a watch's headers at once, and a list's after
	// reading it from storage, well within the default. It also bounds
	// the wait while a server takes none of a request's body (on any
	// transport): the clock restarts at each piece (up to 16 KiB over
	// HTTP/2, 4 KiB over HTTP/1.1) the connection takes.
	ResponseHeaderTimeout time.Duration

	// Namespace is the default namespace of the kubeconfig context or of
	// the pod (in-cluster). Requests do not use it on their own: pass
	// Client.Namespace() where you want it.
	Namespace string

	// QPS and Burst limit the rate of requests on the client side, with
	// two token buckets of this size: one for reads (get, list, watch)
	// and one for writes, so that a controller's writes never wait behind
	// its own informers' lists. Retries take tokens too. Zero or a
	// negative QPS means no client-side limit, the default: servers since
	// Kubernetes 1.29 protect themselves with API Priority and Fairness,
	// which queues requests or answers 429 with a Retry-After the client
	// honours, and a fixed client-side rate (client-go's 5 per second)
	// mostly slows controllers down: 200 new objects of an operator took
	// minutes to converge at 5/s and two seconds without a limit. Burst
	// defaults to twice QPS.
	QPS   float32
	Burst int

	// UserAgent is sent with every request (default "kubewire").
	UserAgent string
	// Timeout bounds each non-watch request, retries included; zero means
	// no bound other than the context's.
	Timeout time.Duration
	// Retry says how requests other than watches are retried.
	Retry RetryPolicy

	// WarningHandler receives the server's Warning headers. Nil logs each
	// distinct warning once through Logger at level Warn.
	WarningHandler WarningHandler
	// Logger receives the client's log lines (the server's warnings among
	// them); nil is slog.Default(), until Client.Inherit gives it one
	// (package manager gives its own). slog.New(slog.DiscardHandler)
	// silences them.
	Logger *slog.Logger
	// Metrics is told about every request (nil: nothing is measured,
	// until Client.Inherit gives it metrics).
	Metrics Metrics

	// Transport, when set, replaces the transport New would build from
	// TLS, ProxyURL and the HTTP/2 settings (used by tests and by callers
	// with their own dialer). Authentication, compression, rate limiting,
	// warnings and retries are still layered on top.
	Transport http.RoundTripper
	// WrapTransport, when set, wraps the transport New builds from TLS,
	// ProxyURL and the HTTP/2 settings (or Transport, when that is set):
	// to log, trace or count requests without giving up those settings.
	// The wrapper sees each request as sent, its Authorization header
	// included; authentication, compression, rate limiting, warnings and
	// retries stay layered on top. New fails if it returns nil.
	WrapTransport func(http.RoundTripper) http.RoundTripper
}

// TLSConfig holds the TLS settings of a Config. CAFile is read by New;
// CertFile and KeyFile are read by New and again after
// Config.CertFileRefresh, so a certificate rotated on disk is used without
// a restart. The *Data fields hold PEM bytes and win over the files.
type TLSConfig struct {
	// Insecure skips verification of the server's certificate.
	Insecure bool
	// ServerName is the name checked in the server's certificate, when it
	// differs from Host's.
	ServerName string
	// CAFile and CAData hold the PEM certificates of the authorities that
	// sign the server's certificate; empty uses the system roots.
	CAFile string
	CAData []byte
	// CertFile/CertData and KeyFile/KeyData hold a client certificate and
	// its key, PEM encoded.
	CertFile string
	CertData []byte
	KeyFile  string
	KeyData  []byte
}

// RetryPolicy says how a request that failed in a way worth repeating is
// retried. 429 Too Many Requests is retried for every verb; 5xx answers
// and connection errors only for requests that are safe to repeat (GET,
// HEAD, and any request that never reached the server). Waits follow the
// server's Retry-After when it sends one, else grow exponentially from
// MinWait to MaxWait with jitter. Watches are never retried here (the
// reflector owns their restarts).
type RetryPolicy struct {
	// MaxAttempts is the most tries per request, the first included
	// (default 10). 1 turns retries off.
	MaxAttempts int
	// MaxElapsed bounds the time from the first try to the start of the
	// last one, waits included (default 60s): no retry starts later.
	MaxElapsed time.Duration
	// MinWait and MaxWait bound the backoff between tries when the server
	// gives no Retry-After (defaults 500ms and 10s). MaxWait also caps a
	// Retry-After.
	MinWait, MaxWait time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 10
	}
	if p.MaxElapsed <= 0 {
		p.MaxElapsed = 60 * time.Second
	}
	if p.MinWait <= 0 {
		p.MinWait = 500 * time.Millisecond
	}
	if p.MaxWait <= 0 {
		p.MaxWait = 10 * time.Second
	}
	if p.MaxWait < p.MinWait {
		p.MaxWait = p.MinWait
	}
	return p
}

const (
	defaultUserAgent        = "kubewire"
	defaultMaxResponseBytes = DefaultMaxResponseBytes
	defaultTokenFileRefresh = time.Minute
	defaultCertFileRefresh  = time.Minute
)

// DefaultResponseHeaderTimeout is Config.ResponseHeaderTimeout when it is
// zero.
const DefaultResponseHeaderTimeout = time.Minute

// DefaultMaxResponseBytes is Config.MaxResponseBytes when it is zero.
const DefaultMaxResponseBytes = 256 << 20

const redacted = "[redacted]"

// redactedCopy returns c with its secrets replaced. TLSConfig redacts
// itself when printed; Exec is copied with its environment values
// replaced, since fmt prints a pointer's target without its methods when
// the verb does not fit a pointer (%s).
func (c Config) redactedCopy() Config {
	c.Host = redactHost(c.Host)
	c.ProxyURL = redactHost(c.ProxyURL) // a kubeconfig's proxy-url may hold user:password
	if c.BearerToken != "" {
		c.BearerToken = redacted
	}
	if c.Password != "" {
		c.Password = redacted
	}
	if c.Exec != nil {
		e := c.Exec.redacted()
		c.Exec = &e
	}
	return c
}

// redactHost hides a password in a host URL (which New refuses, but a
// Config may be printed first) or a proxy URL (which may carry one).
func redactHost(host string) string {
	if !strings.Contains(host, "@") {
		return host
	}
	if u, err := url.Parse(host); err == nil && u.User != nil {
		return u.Redacted()
	}
	return redacted
}

// formatAs prints v, a copy without methods of a value being formatted,
// with the verb and flags of f.
func formatAs(f fmt.State, verb rune, v any) {
	format := "%" + string(verb)
	if f.Flag('+') {
		format = "%+" + string(verb)
	} else if f.Flag('#') {
		format = "%#" + string(verb)
	}
	fmt.Fprintf(f, format, v)
}

// configNoMethods has Config's fields without its methods, so that
// formatting it does not recurse into Format.
type configNoMethods Config

// Format prints c with its secrets redacted, for every verb.
func (c Config) Format(f fmt.State, verb rune) { formatAs(f, verb, configNoMethods(c.redactedCopy())) }

// LogValue makes slog print c with its secrets redacted.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("host", redactHost(c.Host)),
		slog.Bool("bearerToken", c.BearerToken != ""),
		slog.String("bearerTokenFile", c.BearerTokenFile),
		slog.String("username", c.Username),
		slog.Bool("password", c.Password != ""),
		slog.Bool("exec", c.Exec != nil),
		slog.String("proxyURL", redactHost(c.ProxyURL)),
		slog.Any("tls", c.TLS),
		slog.String("namespace", c.Namespace),
		slog.String("userAgent", c.UserAgent),
	)
}

// redacted returns t with its key replaced and its certificates reduced
// to their length.
// caPEM returns CAData, or else the contents of CAFile, or nil.
func (t TLSConfig) caPEM() ([]byte, error) {
	if len(t.CAData) > 0 || t.CAFile == "" {
		return t.CAData, nil
	}
	b, err := smallfile.Read(context.Background(), t.CAFile, smallfile.MaxCertificate)
	if err != nil {
		return nil, fmt.Errorf("client: certificate authority: %w", err)
	}
	if len(b) == 0 {
		// Not the system's roots in its place: the file was meant to
		// narrow trust (a FIFO nobody writes reads as empty too).
		return nil, fmt.Errorf("client: certificate authority file %s is empty", t.CAFile)
	}
	return b, nil
}

func (t TLSConfig) redacted() TLSConfig {
	if len(t.KeyData) > 0 {
		t.KeyData = []byte(redacted)
	}
	if len(t.CertData) > 0 {
		t.CertData = []byte("[" + fmt.Sprint(len(t.CertData)) + " bytes]")
	}
	if len(t.CAData) > 0 {
		t.CAData = []byte("[" + fmt.Sprint(len(t.CAData)) + " bytes]")
	}
	return t
}

type tlsNoMethods TLSConfig

// Format prints t with the client key redacted, for every verb.
func (t TLSConfig) Format(f fmt.State, verb rune) { formatAs(f, verb, tlsNoMethods(t.redacted())) }

// LogValue makes slog print t without the client key.
func (t TLSConfig) LogValue() slog.Value {
	return slog.GroupValue(
		slog.Bool("insecure", t.Insecure),
		slog.String("serverName", t.ServerName),
		slog.String("caFile", t.CAFile),
		slog.Int("caData", len(t.CAData)),
		slog.String("certFile", t.CertFile),
		slog.Int("certData", len(t.CertData)),
		slog.String("keyFile", t.KeyFile),
		slog.Bool("keyData", len(t.KeyData) > 0),
	)
}
