package manager

import (
	"context"
	"sync"
	"time"
)

// DefaultGracefulShutdownTimeout is how long, by default, the work in
// progress when Run's ctx ends has to finish (controller-runtime's
// default too).
const DefaultGracefulShutdownTimeout = 30 * time.Second

// graceAfter returns the ctx the Runnables' work in progress keeps once
// stop ends: it ends d after stop did (at once when d is negative), or
// when hard does. end releases it and waits for its timer's goroutine.
func graceAfter(stop, hard context.Context, d time.Duration) (grace context.Context, end func()) {
	grace, cancel := context.WithCancel(hard)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-stop.Done():
		case <-grace.Done():
			return
		}
		if d < 0 {
			cancel()
			return
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-grace.Done():
		}
	}()
	return grace, func() {
		cancel()
		<-done
	}
}

// termState tells a stop of Run's ctx during a term from one between
// terms. During a term, the elector keeps its ctx: it renews the Lease
// while the Runnables drain, and releases it once lead returned. Between
// terms, the stop ends the campaign at once.
type termState struct {
	mu       sync.Mutex
	leading  bool // lead is running the Runnables
	stopping bool // Run's ctx ended
	cancel   context.CancelFunc
}

// electorContext is the ctx of the elector's Runs under ctx (Run's); the
// returned func releases it.
func (s *termState) electorContext(ctx context.Context) (context.Context, func()) {
	ectx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
	unhook := context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.stopping = true
		if !s.leading {
			cancel()
		}
	})
	return ectx, func() {
		unhook()
		cancel()
	}
}

// begin starts a term, unless Run's ctx ended: then it reports false.
func (s *termState) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopping {
		return false
	}
	s.leading = true
	return true
}

// end ends a term. When Run's ctx ended during it, the elector's ctx
// ends too, after lead returned: the elector releases the Lease and
// campaigns no more.
func (s *termState) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.leading = false
	if s.stopping {
		s.cancel()
	}
}
