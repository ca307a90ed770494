package reflector_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/reflector"
)

// unreachable passes requests on until it is down, then fails each the
// way a dial to a server that is gone does.
type unreachable struct {
	next http.RoundTripper
	down atomic.Bool
}

func (u *unreachable) RoundTrip(req *http.Request) (*http.Response, error) {
	if u.down.Load() {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 443}, Err: syscall.ECONNREFUSED}
	}
	return u.next.RoundTrip(req)
}

// An API server that cannot be reached (every dial refused) is a
// persistent failure after a few tries, with a Warn line, as repeated
// 503s are: each watch asks with another random timeoutSeconds, and the
// URL in the error must not make each failure look new. Before, the
// cache said it was healthy for as long as the server was gone.
func TestUnreachableServerIsPersistent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := fake.New(fake.Options{})
		t.Cleanup(s.Close)
		cfg := fakeclient.Config(s)
		u := &unreachable{next: s.RoundTripper()}
		logs := &records{}
		cfg.Host, cfg.TLS, cfg.Transport, cfg.Logger = "http://fake", client.TLSConfig{}, u, slog.New(logs)
		seed(t, s, cfg, 3)
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := newReflector(t, client.For[*corev1.ConfigMap](c).Namespace("default"), newMapStore[*corev1.ConfigMap](), reflector.Options{Logger: slog.New(logs)})
		stop := start(t, r)
		defer stop()
		if err := r.WaitForSync(t.Context()); err != nil {
			t.Fatal(err)
		}
		u.down.Store(true)
		s.Faults().DropWatches()
		err = waitErr(t, r, "a persistent failure", func(err error) bool { return err != nil })
		var pe *reflector.PersistentError
		if !errors.As(err, &pe) || pe.Refused() || !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("Err() = %v, want a PersistentError of the refused dials", err)
		}
		warned := false
		for _, w := range logs.at(slog.LevelWarn) {
			warned = warned || strings.Contains(w, "the server keeps failing requests")
		}
		if !warned {
			t.Errorf("no Warn line while the server is unreachable: %q", logs.at(slog.LevelWarn))
		}
		u.down.Store(false)
		waitErr(t, r, "nil once the server is back", func(err error) bool { return err == nil })
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		if err := r.WaitForSync(ctx); err != nil {
			t.Errorf("WaitForSync after the server came back: %v", err)
		}
	})
}
