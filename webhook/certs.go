package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// certFiles serves the certificate and key of two files, and the client
// CA bundle of a third, reloading them when their contents change.
//
// It polls rather than watching with inotify (fsnotify): Secrets and
// ConfigMaps are mounted as a symlink to a folder that the kubelet
// swaps atomically, which a watch on the files misses unless it also
// watches the folder and re-adds itself after each swap (the reason
// controller-runtime's certificate watcher polls besides watching);
// network and overlay file systems deliver no events at all. Reading
// three small files every few seconds costs nothing measurable, works
// the same everywhere, and needs no dependency. Reload loads at once,
// for a program that knows the files changed (on SIGHUP, say).
type certFiles struct {
	certFile, keyFile, caFile string
	log                       *slog.Logger

	mu       sync.Mutex // serialises loads
	certPEM  []byte     // the contents loaded last
	keyPEM   []byte
	caPEM    []byte
	badFiles []byte // the contents last refused, to log them once

	cert atomic.Pointer[tls.Certificate]
	pool atomic.Pointer[x509.CertPool]
	// loads counts the certificates (pairs) loaded, for tests.
	loads atomic.Int64
	// observe, when set, is told of every read and its error.
	observe func(error)
}

// load reads the files and takes them when they changed and are valid.
// A pair that does not load (a key not yet written beside its new
// certificate) leaves the one in use serving, and is an error.
func (c *certFiles) load() (err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.observe != nil {
		defer func() { c.observe(err) }()
	}
	certPEM, err := os.ReadFile(c.certFile)
	if err != nil {
		return fmt.Errorf("webhook: serving certificate: %w", err)
	}
	keyPEM, err := os.ReadFile(c.keyFile)
	if err != nil {
		return fmt.Errorf("webhook: serving key: %w", err)
	}
	var caPEM []byte
	if c.caFile != "" {
		if caPEM, err = os.ReadFile(c.caFile); err != nil {
			return fmt.Errorf("webhook: client CA: %w", err)
		}
	}
	if bytes.Equal(certPEM, c.certPEM) && bytes.Equal(keyPEM, c.keyPEM) && bytes.Equal(caPEM, c.caPEM) {
		return nil
	}
	all := bytes.Join([][]byte{certPEM, keyPEM, caPEM}, nil)
	fail := func(err error) error {
		if !bytes.Equal(all, c.badFiles) {
			c.badFiles = all
			c.log.Warn("webhook: certificate files changed but do not load; serving the previous ones", "error", err)
		}
		return err
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return fail(fmt.Errorf("webhook: serving certificate %s and key %s: %w", c.certFile, c.keyFile, err))
	}
	var pool *x509.CertPool
	if c.caFile != "" {
		pool = x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caPEM) {
			return fail(fmt.Errorf("webhook: client CA %s holds no PEM certificate", c.caFile))
		}
	}
	if leaf := cert.Leaf; leaf != nil && time.Now().After(leaf.NotAfter) {
		c.log.Warn("webhook: the serving certificate has expired", "notAfter", leaf.NotAfter)
	}
	c.cert.Store(&cert)
	c.pool.Store(pool)
	c.certPEM, c.keyPEM, c.caPEM = certPEM, keyPEM, caPEM
	c.loads.Add(1)
	c.log.Info("webhook: certificate loaded", "file", c.certFile)
	return nil
}

// poll reloads every interval until ctx ends.
func (c *certFiles) poll(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := c.load(); err != nil && !errors.Is(err, os.ErrNotExist) {
				c.log.Debug("webhook: certificate reload", "error", err)
			}
		}
	}
}

func (c *certFiles) getCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	if cert := c.cert.Load(); cert != nil {
		return cert, nil
	}
	return nil, errors.New("webhook: no serving certificate loaded")
}
