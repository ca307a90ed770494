package webhook_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubewire/kubewire/webhook"
)

// pipeListener is an in-memory network for synctest bubbles: each dial
// is a net.Pipe whose server end Accept returns, so goroutines blocked
// on a connection are durably blocked and fake time advances.
type pipeListener struct {
	conns  chan net.Conn
	closed chan struct{}
	once   sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (p *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-p.conns:
		return c, nil
	case <-p.closed:
		return nil, net.ErrClosed
	}
}

func (p *pipeListener) Close() error   { p.once.Do(func() { close(p.closed) }); return nil }
func (p *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9443} }

func (p *pipeListener) dial() net.Conn {
	client, server := net.Pipe()
	select {
	case p.conns <- server:
	case <-p.closed:
		server.Close()
	}
	return client
}

// servePiped runs a Server on a pipeListener inside a synctest bubble
// and returns dialers for it, one that completes a TLS handshake and one
// that only connects; the Server stops when the test ends.
func servePiped(t *testing.T, opts webhook.Options, hooks ...*webhook.Hook) (dialTLS func() *tls.Conn, dialRaw func() net.Conn) {
	t.Helper()
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	ln := newPipeListener()
	opts.CertDir, opts.Listener = dir, ln
	srv, err := webhook.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Register(hooks...); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certs.CAPEM)
	return func() *tls.Conn {
		c := tls.Client(ln.dial(), &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
		if err := c.Handshake(); err != nil {
			t.Fatalf("handshake: %v", err)
		}
		return c
	}, ln.dial
}

// A client that sends a review's headers and then its body a byte at a
// time, slower than any kube-apiserver (whose webhook timeout is at most
// 30 s), is cut off once ReviewReadTimeout has passed: it holds no
// handler goroutine and connection for longer.
func TestSlowBodyIsCutOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var reviewed bool
		hook := webhook.Admission("/validate", func(ctx context.Context, req *webhook.AdmissionRequest) *webhook.AdmissionResponse {
			reviewed = true
			return webhook.Allowed()
		})
		dial, _ := servePiped(t, webhook.Options{Logger: slog.New(slog.DiscardHandler)}, hook)
		conn := dial()
		defer conn.Close()
		body := review("CREATE", gadgetJSON, "")
		fmt.Fprintf(conn, "POST /validate HTTP/1.1\r\nHost: webhook\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))

		// One byte every 5 s: the body would take hours to arrive.
		answered := make(chan *http.Response, 1)
		go func() {
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				answered <- nil
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			answered <- resp
		}()
		start := time.Now()
		for i := range body {
			if _, err := conn.Write(body[i : i+1]); err != nil {
				break // the server gave up on us
			}
			time.Sleep(5 * time.Second)
		}
		resp := <-answered
		if took := time.Since(start); took > webhook.ReviewReadTimeout+5*time.Second {
			t.Fatalf("the server waited %v for a slow body, want it cut off after %v", took, webhook.ReviewReadTimeout)
		}
		if resp != nil && resp.StatusCode < 400 {
			t.Fatalf("a body cut off was answered %s", resp.Status)
		}
		if reviewed {
			t.Fatal("a body cut off was reviewed")
		}
		if resp != nil {
			t.Logf("answered %s", resp.Status)
		}
	})
}

// A client that connects and then sends nothing, or a TLS handshake's
// first bytes and nothing more, is disconnected within the server's
// header timeout (10 s, which http.Server also applies to the
// handshake) rather than holding the connection.
func TestStalledHandshakeIsCutOff(t *testing.T) {
	for name, first := range map[string][]byte{
		"nothing":             nil,
		"half a client hello": {0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				_, dialRaw := servePiped(t, webhook.Options{Logger: slog.New(slog.DiscardHandler)})
				conn := dialRaw()
				defer conn.Close()
				if len(first) > 0 {
					if _, err := conn.Write(first); err != nil {
						t.Fatal(err)
					}
				}
				start := time.Now()
				closed := make(chan error, 1)
				go func() { _, err := io.Copy(io.Discard, conn); closed <- err }()
				select {
				case <-closed:
					if took := time.Since(start); took > 10*time.Second {
						t.Fatalf("a stalled handshake was cut off after %v, want 10s", took)
					}
				case <-time.After(time.Hour):
					t.Fatal("a stalled handshake held its connection for an hour")
				}
			})
		})
	}
}
