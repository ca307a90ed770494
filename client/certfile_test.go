package client

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestClientCertificateFilesRotate rotates a client certificate on disk
// under a running Client, as cert-manager or the kubelet do: the next
// request after CertFileRefresh goes out with the new certificate on a new
// connection, a half-written pair (new certificate, old key) keeps the
// last good one in use, and a connection kept alive (HTTP/2 or a
// keep-alive HTTP/1.1 one) is not left on the old certificate.
func TestClientCertificateFilesRotate(t *testing.T) {
	for _, h2 := range []bool{true, false} {
		t.Run(fmt.Sprintf("http2=%v", h2), func(t *testing.T) { testClientCertificateFilesRotate(t, h2) })
	}
}

func testClientCertificateFilesRotate(t *testing.T, h2 bool) {
	cert1, key1 := testCert(t, "file-1")
	cert2, key2 := testCert(t, "file-2")
	clientCAs := x509.NewCertPool()
	clientCAs.AppendCertsFromPEM(cert1)
	clientCAs.AppendCertsFromPEM(cert2)

	var mu sync.Mutex
	var seen []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.TLS.PeerCertificates[0].Subject.CommonName)
		mu.Unlock()
		serve(w, load(t, "objects/pods-web-1.json"))
	}))
	srv.EnableHTTP2 = h2
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: clientCAs}
	srv.StartTLS()
	defer srv.Close()

	dir := t.TempDir()
	certPath, keyPath := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.WriteFile(name, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(certPath, cert1)
	write(keyPath, key1)
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	c, err := New(Config{
		Host: srv.URL, QPS: -1,
		TLS: TLSConfig{CAData: ca, CertFile: certPath, KeyFile: keyPath},
		// Every request reads the files: the test needs no clock.
		CertFileRefresh: time.Nanosecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()

	if err := get(c); err != nil {
		t.Fatal(err)
	}
	write(certPath, cert2) // the key is not rotated yet: the pair does not parse
	if err := get(c); err != nil {
		t.Fatalf("with the certificate rotated and the key not yet: %v", err)
	}
	write(keyPath, key2)
	for range 2 {
		if err := get(c); err != nil {
			t.Fatalf("after rotation: %v", err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"file-1", "file-1", "file-2", "file-2"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("certificates the server saw (-want +got):\n%s", diff)
	}
}

// TestClientCertificateFilesErrors: a missing file fails New and names
// which one; with the default refresh the files are not read per request.
func TestClientCertificateFilesErrors(t *testing.T) {
	dir := t.TempDir()
	cert, key := testCert(t, "alice")
	certPath, keyPath := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	os.WriteFile(certPath, cert, 0o600)
	_, err := New(Config{Host: "https://kube.test", TLS: TLSConfig{CertFile: certPath, KeyFile: keyPath}})
	if err == nil || !strings.Contains(err.Error(), "client key") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing key file: %v, want an error naming the client key and matching fs.ErrNotExist", err)
	}
	os.WriteFile(keyPath, key, 0o600)
	_, err = New(Config{Host: "https://kube.test", TLS: TLSConfig{CertFile: certPath, KeyData: cert}})
	if err == nil || !strings.Contains(err.Error(), "client certificate and key") {
		t.Errorf("a key that is not a key: %v", err)
	}
	if _, err := New(Config{Host: "https://kube.test", TLS: TLSConfig{CertFile: certPath, KeyData: key}}); err != nil {
		t.Errorf("certificate file with key data: %v", err)
	}
}
