package fake

import (
	"crypto/tls"
	"crypto/x509"
	"net/http"
	"testing"
)

func TestCACertPEM(t *testing.T) {
	tests := []struct {
		name    string
		start   bool
		tls     bool
		wantPEM bool
	}{
		{"not started", false, true, false},
		{"plain HTTP", true, false, false},
		{"TLS", true, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var s *Server
			if tt.start {
				s = Start(Options{TLS: tt.tls})
			} else {
				s = New(Options{TLS: tt.tls})
			}
			t.Cleanup(s.Close)
			pemBytes := s.CACertPEM()
			if got := pemBytes != nil; got != tt.wantPEM {
				t.Fatalf("CACertPEM() non-nil = %v, want %v", got, tt.wantPEM)
			}
			if !tt.wantPEM {
				return
			}
			// A client trusting only this PEM, with its own transport,
			// reaches the server over HTTP/2.
			pool := x509.NewCertPool()
			if !pool.AppendCertsFromPEM(pemBytes) {
				t.Fatal("CACertPEM() holds no certificate")
			}
			tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}
			t.Cleanup(tr.CloseIdleConnections)
			c := &tclient{t: t, s: s, hc: &http.Client{Transport: tr}, url: s.URL()}
			resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps", "", "")
			if resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
				t.Errorf("status %d over %s, want 200 over HTTP/2: %s", resp.StatusCode, resp.Proto, body)
			}
		})
	}
}
