package exampleenv

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sync"

	"github.com/kubewire/kubewire/client"
)

// Trace makes every request of the clients built from cfg write a line
// to w as it is answered: method, path and query (continue tokens
// shortened), the Accept header sent, and the status and Content-Type
// received, each prefixed by prefix. It sets cfg.Transport to one built
// from cfg's TLS settings (CA, client certificate, server name,
// insecure) and proxy; client certificates from an exec plugin are not
// supported. The client layers authentication, retries and the rest on
// top, so the trace shows what goes on the wire.
func Trace(cfg *client.Config, w io.Writer, prefix string) error {
	base := http.DefaultTransport.(*http.Transport).Clone()
	tc, err := tlsConfig(cfg.TLS)
	if err != nil {
		return fmt.Errorf("trace: %w", err)
	}
	base.TLSClientConfig = tc
	if cfg.ProxyURL != "" {
		u, err := url.Parse(cfg.ProxyURL)
		if err != nil {
			return fmt.Errorf("trace: proxy: %w", err)
		}
		base.Proxy = http.ProxyURL(u)
	}
	cfg.Transport = &tracer{base: base, w: w, prefix: prefix}
	return nil
}

type tracer struct {
	base   http.RoundTripper
	prefix string
	mu     sync.Mutex // serializes writes to w
	w      io.Writer
}

func (t *tracer) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	target := req.URL.Path
	if q := req.URL.Query(); len(q) > 0 {
		if q.Has("continue") {
			q.Set("continue", "…")
		}
		target += "?" + q.Encode()
	}
	got := ""
	if err != nil {
		got = err.Error()
	} else {
		got = fmt.Sprintf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	t.mu.Lock()
	fmt.Fprintf(t.w, "%s%s %s\n%s  Accept: %s\n%s  answer: %s\n", t.prefix, req.Method, target, t.prefix, req.Header.Get("Accept"), t.prefix, got)
	t.mu.Unlock()
	return resp, err
}

// tlsConfig is the tls.Config of a client.TLSConfig, as the client
// builds it.
func tlsConfig(c client.TLSConfig) (*tls.Config, error) {
	tc := &tls.Config{InsecureSkipVerify: c.Insecure, ServerName: c.ServerName, MinVersion: tls.VersionTLS12}
	ca := c.CAData
	if len(ca) == 0 && c.CAFile != "" {
		b, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, err
		}
		ca = b
	}
	if len(ca) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(ca) {
			return nil, errors.New("no certificate in the certificate authority data")
		}
		tc.RootCAs = pool
	}
	cert, key := c.CertData, c.KeyData
	var err error
	if len(cert) == 0 && c.CertFile != "" {
		if cert, err = os.ReadFile(c.CertFile); err != nil {
			return nil, err
		}
	}
	if len(key) == 0 && c.KeyFile != "" {
		if key, err = os.ReadFile(c.KeyFile); err != nil {
			return nil, err
		}
	}
	if len(cert) > 0 {
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return nil, err
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	return tc, nil
}
