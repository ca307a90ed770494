package leaderelection_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/leaderelection"
)

// lockedBuffer is a log sink safe for the elector's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRefusedLease: a candidate whose identity may not read or write the
// Lease (RBAC) says so through Refused and a warning, not only through
// info lines it repeats forever, and leads once the permission is there.
func TestRefusedLease(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		c, _ := memClient(t, s)
		remove := s.Faults().Add(fake.Fault{Match: fake.Match{Resource: "leases"}, Code: 403})
		var logs lockedBuffer
		el, err := leaderelection.New(c, leaderelection.Config{
			Namespace: "default", Name: "refused", Identity: "a",
			LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry,
			Logger:    slog.New(slog.NewTextHandler(&logs, nil)),
			Callbacks: leaderelection.Callbacks{OnStartedLeading: func(ctx context.Context) { <-ctx.Done() }},
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- el.Run(ctx) }()
		time.Sleep(3 * testRetry)
		if err := el.Refused(); !errors.Is(err, client.ErrForbidden) {
			t.Errorf("Refused() = %v, want an error matching client.ErrForbidden", err)
		}
		if !strings.Contains(logs.String(), "level=WARN msg=\"leaderelection: cannot read the lease: refused;") {
			t.Errorf("no warning about the refused Lease:\n%s", logs.String())
		}
		remove()
		time.Sleep(2 * testRetry)
		if !el.IsLeader() {
			t.Errorf("not leading once the Lease may be written")
		}
		if err := el.Refused(); err != nil {
			t.Errorf("Refused() = %v after the Lease was written, want nil", err)
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run = %v", err)
		}
	})
}
