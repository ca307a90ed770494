package webhook_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubewire/kubewire/webhook"
	v1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
)

// served is a Server running on a loopback listener with fresh
// certificates.
type served struct {
	srv   *webhook.Server
	certs *webhook.Certificates
	dir   string
	url   string
	stop  func() error // cancels and waits for Run
}

func serve(t *testing.T, opts webhook.Options, hooks ...*webhook.Hook) *served {
	t.Helper()
	certs, err := webhook.SelfSigned([]string{"127.0.0.1", "localhost"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.CertDir, opts.Listener = dir, ln
	srv, err := webhook.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Register(hooks...); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	s := &served{srv: srv, certs: certs, dir: dir, url: "https://" + ln.Addr().String()}
	var stopped bool
	var runErr error
	s.stop = func() error {
		if !stopped {
			cancel()
			runErr = <-done
			stopped = true
		}
		return runErr
	}
	t.Cleanup(func() { _ = s.stop() })
	return s
}

func clientFor(caPEM []byte, mod func(*tls.Config)) *http.Client {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	cfg := &tls.Config{RootCAs: pool}
	if mod != nil {
		mod(cfg)
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: cfg, ForceAttemptHTTP2: true}}
}

func postTo(c *http.Client, url string, body []byte) (*http.Response, []byte, error) {
	resp, err := c.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func TestServerOverTLS(t *testing.T) {
	s := serve(t, webhook.Options{}, defaulter(), webhook.Validating[*v1.Gadget](validator(new([]string))), gadgetConversion())
	c := clientFor(s.certs.CAPEM, nil)
	resp, body, err := postTo(c, s.url+"/mutate-test-kubewire-dev-v1-gadget", review("CREATE", gadgetJSON, ""))
	if err != nil || resp.StatusCode != 200 || !strings.Contains(string(body), `"patchType":"JSONPatch"`) {
		t.Fatalf("%v %v %s", err, resp, body)
	}
	if resp.ProtoMajor != 1 || resp.TLS.Version < tls.VersionTLS12 {
		t.Errorf("served over %s, TLS %#x; want HTTP/1.1 without Options.HTTP2", resp.Proto, resp.TLS.Version)
	}
	resp, body, _ = postTo(c, s.url+"/convert", conversionReview("test.kubewire.dev/v2", hubJSON))
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"status":"Success"`) {
		t.Errorf("conversion %d %s", resp.StatusCode, body)
	}
	resp, body, _ = postTo(c, s.url+"/nothing-here", review("CREATE", gadgetJSON, ""))
	if resp.StatusCode != 404 || !strings.Contains(string(body), "no webhook is served at /nothing-here") {
		t.Errorf("unknown path: %d %s", resp.StatusCode, body)
	}
	for _, p := range []string{"/healthz", "/readyz"} {
		r, err := c.Get(s.url + p)
		if err != nil || r.StatusCode != 200 {
			t.Errorf("%s: %v %v", p, err, r)
		} else {
			r.Body.Close()
		}
	}
	if err := s.srv.Ready(); err != nil {
		t.Errorf("Ready: %v", err)
	}
	if err := s.stop(); err != nil {
		t.Errorf("Run: %v", err)
	}
	if err := s.srv.Ready(); err == nil {
		t.Error("Ready after Run returned")
	}
	if err := s.srv.Run(context.Background()); err == nil {
		t.Error("a second Run did not fail")
	}
}

func TestServerTLSVersionsAndHTTP2(t *testing.T) {
	s := serve(t, webhook.Options{}, defaulter())
	old := clientFor(s.certs.CAPEM, func(c *tls.Config) { c.MaxVersion = tls.VersionTLS11 })
	if _, _, err := postTo(old, s.url+"/healthz", nil); err == nil {
		t.Error("a TLS 1.1 client was served")
	}
	s13 := serve(t, webhook.Options{MinTLSVersion: tls.VersionTLS13}, defaulter())
	tls12 := clientFor(s13.certs.CAPEM, func(c *tls.Config) { c.MaxVersion = tls.VersionTLS12 })
	if _, _, err := postTo(tls12, s13.url+"/healthz", nil); err == nil {
		t.Error("a TLS 1.2 client was served with MinTLSVersion 1.3")
	}
	h2 := serve(t, webhook.Options{HTTP2: true}, defaulter())
	resp, _, err := postTo(clientFor(h2.certs.CAPEM, nil), h2.url+"/mutate-test-kubewire-dev-v1-gadget", review("CREATE", gadgetJSON, ""))
	if err != nil || resp.ProtoMajor != 2 {
		t.Errorf("with HTTP2: %v %v", err, resp)
	}
	if _, err := webhook.NewServer(webhook.Options{MinTLSVersion: tls.VersionTLS11}); !errors.Is(err, webhook.ErrInvalidOptions) {
		t.Errorf("MinTLSVersion 1.1: %v", err)
	}
}

func TestServerClientAuth(t *testing.T) {
	ca, err := webhook.SelfSigned([]string{"clients"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	s := serve(t, webhook.Options{ClientCAName: "client-ca.crt", AllowedClientNames: []string{"kube-apiserver"}}, defaulter())
	_ = s.stop()
	// The client CA goes beside the certificate; Run reads it.
	if err := os.WriteFile(filepath.Join(s.dir, "client-ca.crt"), ca.CAPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	srv, err := webhook.NewServer(webhook.Options{CertDir: s.dir, Listener: ln, ClientCAName: "client-ca.crt", AllowedClientNames: []string{"kube-apiserver"}})
	if err != nil {
		t.Fatal(err)
	}
	_ = srv.Register(defaulter())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }()
	url := "https://" + ln.Addr().String() + "/healthz"
	withCert := func(cn string) *http.Client {
		certPEM, keyPEM, err := ca.ClientCertificate(cn)
		if err != nil {
			t.Fatal(err)
		}
		pair, err := tls.X509KeyPair(certPEM, keyPEM)
		if err != nil {
			t.Fatal(err)
		}
		return clientFor(s.certs.CAPEM, func(c *tls.Config) { c.Certificates = []tls.Certificate{pair} })
	}
	if _, _, err := postTo(clientFor(s.certs.CAPEM, nil), url, nil); err == nil {
		t.Error("a client without a certificate was served")
	}
	if _, _, err := postTo(withCert("someone-else"), url, nil); err == nil {
		t.Error("a client certificate not in AllowedClientNames was accepted")
	}
	other, _ := webhook.SelfSigned([]string{"x"}, 0)
	certPEM, keyPEM, _ := other.ClientCertificate("kube-apiserver")
	pair, _ := tls.X509KeyPair(certPEM, keyPEM)
	if _, _, err := postTo(clientFor(s.certs.CAPEM, func(c *tls.Config) { c.Certificates = []tls.Certificate{pair} }), url, nil); err == nil {
		t.Error("a client certificate of another CA was accepted")
	}
	if resp, _, err := postTo(withCert("kube-apiserver"), url, nil); err != nil || resp.StatusCode != 200 {
		t.Errorf("kube-apiserver's certificate: %v %v", err, resp)
	}
	if _, err := webhook.NewServer(webhook.Options{ClientAuth: tls.RequireAndVerifyClientCert}); !errors.Is(err, webhook.ErrInvalidOptions) {
		t.Errorf("ClientAuth without ClientCAName: %v", err)
	}
	if _, err := webhook.NewServer(webhook.Options{AllowedClientNames: []string{"x"}}); !errors.Is(err, webhook.ErrInvalidOptions) {
		t.Errorf("AllowedClientNames without a client CA: %v", err)
	}
}

func TestServerReloadsCertificates(t *testing.T) {
	s := serve(t, webhook.Options{}, defaulter())
	url := s.url + "/healthz"
	if _, _, err := postTo(clientFor(s.certs.CAPEM, nil), url, nil); err != nil {
		t.Fatal(err)
	}
	// A key that does not match its certificate: the old pair serves on.
	next, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.dir, "tls.crt"), next.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.srv.ReloadCertificates(); err == nil {
		t.Error("a mismatched pair loaded")
	}
	if _, _, err := postTo(clientFor(s.certs.CAPEM, nil), url, nil); err != nil {
		t.Fatalf("after a bad reload: %v", err)
	}
	if err := next.WriteFiles(s.dir); err != nil {
		t.Fatal(err)
	}
	if err := s.srv.ReloadCertificates(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := postTo(clientFor(next.CAPEM, nil), url, nil); err != nil {
		t.Errorf("the new certificate is not served: %v", err)
	}
	if _, _, err := postTo(clientFor(s.certs.CAPEM, nil), url, nil); err == nil {
		t.Error("the old certificate is still served")
	}
}

func TestServerFailsWithoutCertificate(t *testing.T) {
	srv, err := webhook.NewServer(webhook.Options{CertDir: t.TempDir(), Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "serving certificate") {
		t.Errorf("Run without certificate files: %v", err)
	}
}

func TestServerGracefulShutdown(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	slow := webhook.Admission("/slow", func(ctx context.Context, req *webhook.AdmissionRequest) *webhook.AdmissionResponse {
		close(entered)
		<-release
		return webhook.Allowed()
	})
	s := serve(t, webhook.Options{}, slow)
	type result struct {
		resp *http.Response
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, _, err := postTo(clientFor(s.certs.CAPEM, nil), s.url+"/slow", review("CREATE", gadgetJSON, ""))
		got <- result{resp, err}
	}()
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- s.stop() }()
	select {
	case err := <-stopped:
		t.Fatalf("Run returned (%v) while a review was in progress", err)
	case r := <-got:
		t.Fatalf("the review ended before its handler: %v", r.err)
	default:
	}
	close(release)
	if r := <-got; r.err != nil || r.resp.StatusCode != 200 {
		t.Errorf("the review in progress at shutdown: %v %v", r.err, r.resp)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Run: %v", err)
	}
}

func TestServerShutdownTimeoutBoundsTheWait(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	stuck := webhook.Admission("/stuck", func(ctx context.Context, req *webhook.AdmissionRequest) *webhook.AdmissionResponse {
		close(entered)
		<-release
		return webhook.Allowed()
	})
	s := serve(t, webhook.Options{ShutdownTimeout: 10 * time.Millisecond}, stuck)
	go func() {
		_, _, _ = postTo(clientFor(s.certs.CAPEM, nil), s.url+"/stuck", review("CREATE", gadgetJSON, ""))
	}()
	<-entered
	if err := s.stop(); err != nil {
		t.Errorf("Run: %v", err)
	}
}
