package manager

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// NotifyContext returns a copy of parent that ends at the first SIGINT
// or SIGTERM, the ctx to give Run: the manager then stops gracefully. A
// second signal exits the process at once with status 1, abandoning the
// work in progress (the Lease is left to expire): what an operator
// pressing Ctrl-C twice, or a kubelet sending SIGTERM then SIGKILL,
// expects. It is controller-runtime's SetupSignalHandler, without its
// once-per-process rule.
//
// stop unregisters the signals and ends ctx; call it when Run returned
// (defer stop()).
func NotifyContext(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	return notifyContext(parent, func() { os.Exit(1) })
}

// notifyContext is NotifyContext calling exit at the second signal.
func notifyContext(parent context.Context, exit func()) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		select {
		case <-signals:
			cancel()
		case <-quit:
			return
		}
		select {
		case <-signals:
			exit()
		case <-quit:
		}
	}()
	return ctx, sync.OnceFunc(func() {
		signal.Stop(signals)
		close(quit)
		<-done
		cancel()
	})
}
