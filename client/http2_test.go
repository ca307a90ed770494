package client

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// serverCert makes a self-signed certificate for host kube.test and
// returns it with a pool trusting it. Inside a synctest bubble its
// validity starts an hour before the bubble's clock.
func serverCert(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube.test"},
		DNSNames:     []string{"kube.test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}

// freezer makes the server ends of a listener's connections stop
// answering, as a peer that vanished without closing: once frozen, their
// Read and Write block until the connection is closed.
type freezer struct {
	net.Listener
	frozen   atomic.Bool
	released chan struct{} // closed by release
	once     sync.Once
}

func newFreezer(l net.Listener) *freezer { return &freezer{Listener: l, released: make(chan struct{})} }

func (f *freezer) freeze() { f.frozen.Store(true) }

// release fails the I/O of frozen connections, so that shutting the
// server down (which writes a TLS close_notify) does not block.
func (f *freezer) release() { f.once.Do(func() { close(f.released) }) }

func (f *freezer) Accept() (net.Conn, error) {
	c, err := f.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &freezeConn{Conn: c, f: f, closed: make(chan struct{})}, nil
}

type freezeConn struct {
	net.Conn
	f         *freezer
	closed    chan struct{}
	closeOnce sync.Once
}

// hold blocks a frozen connection's I/O until it is closed.
func (c *freezeConn) hold() error {
	if !c.f.frozen.Load() {
		return nil
	}
	select {
	case <-c.closed:
	case <-c.f.released:
	}
	return net.ErrClosed
}

func (c *freezeConn) Read(b []byte) (int, error) {
	if err := c.hold(); err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(b)
	if herr := c.hold(); herr != nil { // frozen while reading: drop what came
		return 0, herr
	}
	return n, err
}

func (c *freezeConn) Write(b []byte) (int, error) {
	if err := c.hold(); err != nil {
		return 0, err
	}
	return c.Conn.Write(b)
}

func (c *freezeConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// TestHTTP2HealthCheckFindsDeadConnection serves a watch over TLS and
// HTTP/2 (in memory, in fake time) and then makes the server stop
// answering without closing the connection. The client's PING goes
// unanswered and the watch fails within PingAfter + PingTimeout. While
// the server still answers, the pings keep an idle watch alive; with the
// check off, a dead connection hangs the watch until Close.
func TestHTTP2HealthCheckFindsDeadConnection(t *testing.T) {
	const after, timeout = 5 * time.Second, 2 * time.Second
	const closeAfter = 10 * (after + timeout) // the test's Close, if nothing else ends the watch
	tests := []struct {
		name       string
		freeze     bool
		pingAfter  time.Duration
		wantClosed bool // the watch lasted until the test's Close
	}{
		{"server answers pings", false, after, true},
		{"server stopped answering", true, after, false},
		{"health check off", true, -1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cert, pool := serverCert(t)
				pn := newPipeNet()
				fl := newFreezer(pn)
				var proto atomic.Int32
				srv := &http.Server{
					Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						proto.Store(int32(r.ProtoMajor))
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(http.StatusOK)
						w.(http.Flusher).Flush()
						<-r.Context().Done()
					}),
					TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}},
				}
				go srv.ServeTLS(fl, "", "")
				defer func() {
					fl.release()
					srv.Close()
					pn.Close()
				}()

				cfg := Config{Host: "https://kube.test", QPS: -1, PingAfter: tc.pingAfter, PingTimeout: timeout}
				tr, err := baseTransport(&cfg, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				tr.TLSClientConfig.RootCAs = pool
				tr.DialContext = pn.DialContext
				defer tr.CloseIdleConnections()
				cfg.Transport = tr
				c, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				w, err := For[*corev1.Pod](c).Watch(context.Background(), WatchOptions{})
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				if proto.Load() != 2 {
					t.Fatalf("request went over HTTP/%d, want HTTP/2", proto.Load())
				}
				start := time.Now()
				if tc.freeze {
					fl.freeze()
				}
				stop := time.AfterFunc(closeAfter, func() { w.Close() })
				defer stop.Stop()
				_, err = w.Next()
				took := time.Since(start)
				if tc.wantClosed {
					if !errors.Is(err, ErrWatchClosed) || took != closeAfter {
						t.Errorf("watch ended after %s with %v, want ErrWatchClosed after %s", took, err, closeAfter)
					}
					return
				}
				if err == nil || errors.Is(err, ErrWatchClosed) {
					t.Fatalf("Next = %v, want a connection error", err)
				}
				if took < after || took > after+timeout {
					t.Errorf("dead connection found after %s, want within %s-%s", took, after, after+timeout)
				}
			})
		})
	}
}

// TestHTTP2ConfigDefaults checks the health check settings New gives the
// transport.
func TestHTTP2ConfigDefaults(t *testing.T) {
	tests := []struct {
		after, timeout         time.Duration
		wantAfter, wantTimeout time.Duration
	}{
		{0, 0, 30 * time.Second, 15 * time.Second},
		{time.Second, 0, time.Second, 15 * time.Second},
		{time.Second, time.Minute, time.Second, time.Minute},
		{-1, time.Minute, 0, 0}, // off
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.after, tc.timeout), func(t *testing.T) {
			h := http2Config(&Config{PingAfter: tc.after, PingTimeout: tc.timeout})
			if h.SendPingTimeout != tc.wantAfter || h.PingTimeout != tc.wantTimeout {
				t.Errorf("got %s/%s, want %s/%s", h.SendPingTimeout, h.PingTimeout, tc.wantAfter, tc.wantTimeout)
			}
		})
	}
}

// execCertPlugin writes a credential plugin printing, on its n-th run,
// an ExecCredential with the n-th of certs (PEM certificate and key),
// and returns its path and a func reading the run count.
func execCertPlugin(t *testing.T, certs [][2][]byte) (string, func() int) {
	t.Helper()
	dir := t.TempDir()
	for i, c := range certs {
		doc, err := json.Marshal(map[string]any{
			"apiVersion": ExecAPIVersion, "kind": "ExecCredential",
			"status": map[string]string{"clientCertificateData": string(c[0]), "clientKeyData": string(c[1])},
		})
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("cred-%d.json", i+1)), string(doc), 0o600)
	}
	count := filepath.Join(dir, "count")
	writeFile(t, count, "0", 0o600)
	script := filepath.Join(dir, "plugin.sh")
	writeFile(t, script, fmt.Sprintf(`#!/bin/sh
n=$(( $(cat %[1]s) + 1 ))
echo $n > %[1]s
cat %[2]s/cred-$n.json
`, count, dir), 0o700)
	return script, func() int {
		b, _ := os.ReadFile(count)
		var n int
		fmt.Sscan(string(b), &n)
		return n
	}
}

// TestExecPluginClientCertificate authenticates with the client
// certificate an exec plugin returns to a server that requires and
// verifies one (mutual TLS, HTTP/2). The credential is cached across
// requests; when the server starts refusing it (401), the plugin runs
// again and the new certificate is used on a new connection.
func TestExecPluginClientCertificate(t *testing.T) {
	for _, h2 := range []bool{true, false} {
		t.Run(fmt.Sprintf("http2=%v", h2), func(t *testing.T) { testExecPluginClientCertificate(t, h2) })
	}
}

func testExecPluginClientCertificate(t *testing.T, h2 bool) {
	cert1, key1 := testCert(t, "exec-1")
	cert2, key2 := testCert(t, "exec-2")
	script, runs := execCertPlugin(t, [][2][]byte{{cert1, key1}, {cert2, key2}})
	clientCAs := x509.NewCertPool()
	clientCAs.AppendCertsFromPEM(cert1)
	clientCAs.AppendCertsFromPEM(cert2)

	var mu sync.Mutex
	var seen []string
	accept := "exec-1"
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cn := r.TLS.PeerCertificates[0].Subject.CommonName
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%s HTTP/%d", cn, r.ProtoMajor))
		ok := cn == accept
		mu.Unlock()
		if r.Header.Get("Authorization") != "" {
			t.Errorf("request carried an Authorization header with a certificate credential")
		}
		if !ok {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Unauthorized","code":401}`))
			return
		}
		serve(w, load(t, "objects/pods-web-1.json"))
	}))
	srv.EnableHTTP2 = h2
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: clientCAs}
	srv.StartTLS()
	defer srv.Close()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	c, err := New(Config{Host: srv.URL, QPS: -1, TLS: TLSConfig{CAData: ca}, Exec: &ExecConfig{Command: script}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()

	for range 2 {
		if err := get(c); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	accept = "exec-2" // the first certificate is revoked
	mu.Unlock()
	if err := get(c); err != nil {
		t.Fatalf("after revocation: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	p := map[bool]string{true: " HTTP/2", false: " HTTP/1"}[h2]
	want := []string{"exec-1" + p, "exec-1" + p, "exec-1" + p, "exec-2" + p}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("certificates the server saw (-want +got):\n%s", diff)
	}
	if runs() != 2 {
		t.Errorf("plugin ran %d times, want 2 (once, then once after the 401)", runs())
	}
}
