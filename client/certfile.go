package client

import (
	"bytes"
	"context"
	"crypto/tls"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubewire/kubewire/internal/runtime/smallfile"
)

// certFiles is a client certificate whose certificate or key comes from a
// file (TLSConfig.CertFile, KeyFile). The files are read again when the
// copy is older than refresh, as a request goes out: certificates from
// cert-manager, the kubelet or a CSI driver are rotated on disk, and the
// old one expires. When the pair changes, every connection made with the
// old certificate is closed (a server checks the certificate at the
// handshake only), so the requests that follow, and the watches resumed
// after it, use the new one. A pair that does not parse (a cert written
// before its key) is not used: the last good one stays until the next
// read.
type certFiles struct {
	certPath, keyPath string
	certData, keyData []byte // set when that half is not a file
	refresh           time.Duration
	logger            func() *slog.Logger

	cert      atomic.Pointer[tls.Certificate]
	nextCheck atomic.Int64 // unix nanoseconds

	mu              sync.Mutex
	certPEM, keyPEM []byte
	conns           map[*trackedConn]struct{}
}

// newCertFiles reads the pair of cfg.TLS if one half is a file, or returns
// nil when the certificate does not come from files.
func newCertFiles(cfg *Config, logger func() *slog.Logger) (*certFiles, error) {
	t := cfg.TLS
	fromFile := (t.CertFile != "" && len(t.CertData) == 0) || (t.KeyFile != "" && len(t.KeyData) == 0)
	if !fromFile {
		return nil, nil
	}
	refresh := cfg.CertFileRefresh
	if refresh <= 0 {
		refresh = defaultCertFileRefresh
	}
	f := &certFiles{refresh: refresh, logger: logger, conns: make(map[*trackedConn]struct{})}
	if len(t.CertData) == 0 {
		f.certPath = t.CertFile
	} else {
		f.certData = t.CertData
	}
	if len(t.KeyData) == 0 {
		f.keyPath = t.KeyFile
	} else {
		f.keyData = t.KeyData
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.readLocked(); err != nil {
		return nil, err
	}
	return f, nil
}

// certificate is the tls.Config.GetClientCertificate source.
func (f *certFiles) certificate(context.Context) (*tls.Certificate, error) {
	return f.cert.Load(), nil
}

// check reads the files again if the copy is due, and closes the
// connections made with the old certificate if it changed.
func (f *certFiles) check() {
	if time.Now().UnixNano() < f.nextCheck.Load() {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if time.Now().UnixNano() < f.nextCheck.Load() {
		return // another request read them
	}
	changed, err := f.readLocked()
	if err != nil {
		f.logger().Warn("client: client certificate files could not be read again; the last good certificate stays in use", "error", err)
		return
	}
	if !changed {
		return
	}
	f.logger().Info("client: client certificate files changed; closing the connections made with the old certificate", "cert", f.certPath, "key", f.keyPath)
	for c := range f.conns {
		delete(f.conns, c)
		c.Conn.Close() // not c.Close, which takes f.mu
	}
}

// readLocked reads the pair and stores it if it parses; it reports
// whether the stored pair changed.
func (f *certFiles) readLocked() (bool, error) {
	f.nextCheck.Store(time.Now().Add(f.refresh).UnixNano())
	certPEM, keyPEM := f.certData, f.keyData
	if f.certPath != "" {
		b, err := smallfile.Read(context.Background(), f.certPath, smallfile.MaxCertificate)
		if err != nil {
			return false, &fileError{what: "client certificate", err: err}
		}
		certPEM = b
	}
	if f.keyPath != "" {
		b, err := smallfile.Read(context.Background(), f.keyPath, smallfile.MaxCertificate)
		if err != nil {
			return false, &fileError{what: "client key", err: err}
		}
		keyPEM = b
	}
	if f.cert.Load() != nil && bytes.Equal(certPEM, f.certPEM) && bytes.Equal(keyPEM, f.keyPEM) {
		return false, nil
	}
	cert, err := parseCertPair(certPEM, keyPEM)
	if err != nil {
		return false, err
	}
	f.certPEM, f.keyPEM = certPEM, keyPEM
	f.cert.Store(cert)
	return true, nil
}

// dialer wraps dial so that check can close the connections it made.
func (f *certFiles) dialer(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		tc := &trackedConn{Conn: c, owner: f}
		f.mu.Lock()
		f.conns[tc] = struct{}{}
		f.mu.Unlock()
		return tc, nil
	}
}

// trackedConn leaves its owner's set when closed.
type trackedConn struct {
	net.Conn
	owner *certFiles
	once  sync.Once
}

func (c *trackedConn) Close() error {
	c.once.Do(func() {
		c.owner.mu.Lock()
		delete(c.owner.conns, c)
		c.owner.mu.Unlock()
	})
	return c.Conn.Close()
}

// certCheckTransport has the certificate files checked before each
// request goes out.
type certCheckTransport struct {
	files *certFiles
	next  http.RoundTripper
}

func (t *certCheckTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.files.check()
	return t.next.RoundTrip(req)
}

func (t *certCheckTransport) CloseIdleConnections() { closeIdle(t.next) }

// fileError names which file could not be read.
type fileError struct {
	what string
	err  error
}

func (e *fileError) Error() string { return "client: " + e.what + ": " + e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }
