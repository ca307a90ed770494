package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// HTTP/2 health checking: a connection that has received no frame for
// Config.PingAfter gets a PING; no answer within Config.PingTimeout
// closes it, which fails the requests and watches on it instead of
// leaving them hanging on a dead peer (a load balancer that dropped the
// flow, a node that vanished). These are the defaults.
const (
	pingAfter   = 30 * time.Second
	pingTimeout = 15 * time.Second
)

// http2Config is the HTTP/2 configuration of cfg: its health check.
func http2Config(cfg *Config) *http.HTTP2Config {
	after, timeout := cfg.PingAfter, cfg.PingTimeout
	if after == 0 {
		after = pingAfter
	}
	if timeout <= 0 {
		timeout = pingTimeout
	}
	if after < 0 {
		return &http.HTTP2Config{}
	}
	return &http.HTTP2Config{SendPingTimeout: after, PingTimeout: timeout}
}

// baseTransport builds the HTTP/1.1 + HTTP/2 transport for cfg, with its
// TLS settings. certs supplies a client certificate chosen at handshake
// time (static or from an exec plugin); it may be nil. files, when not
// nil, is the client certificate read from files; the connections are
// then tracked so that it can close them when the files change.
func baseTransport(cfg *Config, certs func(context.Context) (*tls.Certificate, error), files *certFiles) (*http.Transport, error) {
	tlsConfig, err := buildTLS(cfg, certs, files)
	if err != nil {
		return nil, err
	}
	proxy := http.ProxyFromEnvironment
	if cfg.ProxyURL != "" {
		u, err := url.Parse(cfg.ProxyURL)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("client: proxy url %q is not a valid URL", redactHost(cfg.ProxyURL))
		}
		switch u.Scheme {
		case "http", "https", "socks5", "socks5h":
		default:
			return nil, fmt.Errorf("client: proxy url %q: scheme %q is not http, https or socks5", u.Redacted(), u.Scheme)
		}
		proxy = http.ProxyURL(u)
	}
	dial := (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	if files != nil {
		dial = files.dialer(dial)
	}
	t := &http.Transport{
		Proxy:                  proxy,
		OnProxyConnectResponse: checkProxyConnect,
		ResponseHeaderTimeout:  headerTimeout(cfg),
		MaxResponseHeaderBytes: maxResponseHeaderBytes,
		DialContext:            newReadBuffers().dialer(dial),
		TLSClientConfig:        tlsConfig,
		TLSHandshakeTimeout:    10 * time.Second,
		MaxIdleConnsPerHost:    25,
		IdleConnTimeout:        90 * time.Second,
		ExpectContinueTimeout:  time.Second,
		ForceAttemptHTTP2:      true,
		// Compression is handled by gzipTransport.
		DisableCompression: true,
		// An HTTP/1.1 connection reads through a buffer of the default
		// 4 KiB, over a 64 KiB one held only while it has data (see
		// readbuf.go): one read system call takes several watch events,
		// and an idle connection holds 4 KiB, not 64.
		HTTP2: http2Config(cfg),
	}
	return t, nil
}

// buildTLS returns the TLS client configuration of cfg.
func buildTLS(cfg *Config, certs func(context.Context) (*tls.Certificate, error), files *certFiles) (*tls.Config, error) {
	c := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		InsecureSkipVerify: cfg.TLS.Insecure, //nolint:gosec // the user asked for it (insecure-skip-tls-verify)
		ServerName:         cfg.TLS.ServerName,
	}
	ca, err := cfg.TLS.caPEM()
	if err != nil {
		return nil, err
	}
	if len(ca) > 0 {
		if cfg.TLS.Insecure {
			return nil, errors.New("client: a certificate authority and insecure (skip TLS verify) are both set; choose one")
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(ca) {
			where := "certificate authority data"
			if cfg.TLS.CAFile != "" && len(cfg.TLS.CAData) == 0 {
				where = "certificate authority file " + cfg.TLS.CAFile
			}
			return nil, fmt.Errorf("client: %s holds no PEM certificate", where)
		}
		c.RootCAs = pool
	}
	static, err := staticCert(cfg)
	if err != nil {
		return nil, err
	}
	if static != nil || certs != nil || files != nil {
		c.GetClientCertificate = func(info *tls.CertificateRequestInfo) (*tls.Certificate, error) {
			if certs != nil {
				cert, err := certs(info.Context())
				if err != nil {
					return nil, err
				}
				if cert != nil {
					return cert, nil
				}
			}
			if static != nil {
				return static, nil
			}
			if files != nil {
				return files.cert.Load(), nil
			}
			return &tls.Certificate{}, nil // no certificate: the server may accept another credential
		}
	}
	return c, nil
}

// staticCert returns the client certificate of cfg.TLS when both halves
// are given as data; a pair with a file is a certFiles, read again as it
// rotates.
func staticCert(cfg *Config) (*tls.Certificate, error) {
	certPEM, keyPEM := cfg.TLS.CertData, cfg.TLS.KeyData
	if (len(certPEM) == 0 && cfg.TLS.CertFile != "") || (len(keyPEM) == 0 && cfg.TLS.KeyFile != "") {
		return nil, nil
	}
	if len(certPEM) == 0 && len(keyPEM) == 0 {
		return nil, nil
	}
	return parseCertPair(certPEM, keyPEM)
}

// parseCertPair parses a PEM client certificate and its key.
func parseCertPair(certPEM, keyPEM []byte) (*tls.Certificate, error) {
	switch {
	case len(certPEM) == 0:
		return nil, errors.New("client: a client key is set without a client certificate")
	case len(keyPEM) == 0:
		return nil, errors.New("client: a client certificate is set without a client key")
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		// tls's message does not quote the key.
		return nil, fmt.Errorf("client: client certificate and key: %w", err)
	}
	return &cert, nil
}

// parseHost turns Config.Host into the server's base URL. A URL with
// user information (user:password@) is refused: credentials belong in
// Config's fields, where they are kept out of errors and logs, and the
// messages here show the host with its password redacted.
func parseHost(host string) (*url.URL, error) {
	if host == "" {
		return nil, errors.New("client: config has no host")
	}
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		if strings.Contains(host, "@") {
			return nil, errors.New("client: host is not a valid URL (not shown: it has an @ and may hold a password)")
		}
		return nil, fmt.Errorf("client: host %q: %w", host, err)
	}
	if u.User != nil {
		return nil, fmt.Errorf("client: host %q has user information; set Username and Password (or BearerToken) instead", u.Redacted())
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return nil, fmt.Errorf("client: host %q: scheme must be https or http", host)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("client: host %q has no host name", host)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// headerTimeout is cfg.ResponseHeaderTimeout with its default; 0: none.
func headerTimeout(cfg *Config) time.Duration {
	switch {
	case cfg.ResponseHeaderTimeout == 0:
		return DefaultResponseHeaderTimeout
	case cfg.ResponseHeaderTimeout < 0:
		return 0
	}
	return cfg.ResponseHeaderTimeout
}
