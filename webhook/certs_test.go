package webhook

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"
)

// The poller takes new files within one interval, keeps the pair in
// use while the files do not load, and stops with its ctx.
func TestCertificatePolling(t *testing.T) {
	dir := t.TempDir()
	first, err := SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	second, err := first.Renew([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	synctest.Test(t, func(t *testing.T) {
		c := &certFiles{certFile: filepath.Join(dir, "tls.crt"), keyFile: filepath.Join(dir, "tls.key"), log: slog.New(slog.DiscardHandler)}
		if err := c.load(); err != nil {
			t.Fatal(err)
		}
		loaded := c.cert.Load()
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() { c.poll(ctx, 10*time.Second); close(done) }()

		time.Sleep(25 * time.Second) // two polls of unchanged files
		synctest.Wait()
		if n := c.loads.Load(); n != 1 || c.cert.Load() != loaded {
			t.Fatalf("unchanged files loaded again: %d loads", n)
		}
		// Half a rotation (a new certificate, the old key) is refused.
		if err := os.WriteFile(filepath.Join(dir, "tls.crt"), second.CertPEM, 0o644); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if c.cert.Load() != loaded {
			t.Fatal("a mismatched pair replaced the one in use")
		}
		if err := os.WriteFile(filepath.Join(dir, "tls.key"), second.KeyPEM, 0o600); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if n := c.loads.Load(); n != 2 || c.cert.Load() == loaded {
			t.Fatalf("the rotated pair was not loaded within an interval: %d loads", n)
		}
		cancel()
		<-done
	})
}
