package webhook_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubewire/kubewire/webhook"
)

// syncBuffer is a bytes.Buffer for handlers written from many goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A Server made without a logger logs to the one Inherit gives it (the
// manager's), attributes and groups included; one made with a logger
// keeps it.
func TestServerInheritsLogger(t *testing.T) {
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	run := func(opts webhook.Options, inherit *slog.Logger) {
		t.Helper()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		opts.CertDir, opts.Listener = dir, ln
		srv, err := webhook.NewServer(opts)
		if err != nil {
			t.Fatal(err)
		}
		srv.Inherit(inherit)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- srv.Run(ctx) }()
		for srv.Ready() != nil {
			select {
			case err := <-done:
				t.Fatalf("Run: %v", err)
			case <-time.After(time.Millisecond):
			}
		}
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}

	var inherited syncBuffer
	run(webhook.Options{}, slog.New(slog.NewTextHandler(&inherited, nil)).With("program", "cache-operator").WithGroup("g"))
	for _, want := range []string{"webhook: certificate loaded", "webhook: serving", "program=cache-operator", "g.addr="} {
		if !strings.Contains(inherited.String(), want) {
			t.Errorf("inherited logger got %q, want %q in it", inherited.String(), want)
		}
	}

	var own, other syncBuffer
	run(webhook.Options{Logger: slog.New(slog.NewTextHandler(&own, nil))}, slog.New(slog.NewTextHandler(&other, nil)))
	if !strings.Contains(own.String(), "webhook: serving") || other.Len() != 0 {
		t.Errorf("own logger got %q, the inherited one %q; want the lines in the own one only", own.String(), other.String())
	}
	// Nothing given: Run logs through slog.Default(), so that a server
	// run on its own does not serve an old certificate in silence.
	var fallback syncBuffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&fallback, nil)))
	defer slog.SetDefault(prev)
	run(webhook.Options{}, nil)
	if !strings.Contains(fallback.String(), "webhook: serving") {
		t.Errorf("slog.Default() got %q from a server given no logger, want its lines", fallback.String())
	}
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}
