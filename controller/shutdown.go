package controller

import "context"

// graceKey is the context key of the ctx WithShutdownGrace gives.
type graceKey struct{}

// WithShutdownGrace returns a copy of ctx for Run that makes the end of
// ctx a graceful stop: Run stops handing out Requests when ctx ends, but
// the Reconcile calls then in progress keep a live ctx until grace ends
// (or they return), and Run returns once they did. Package manager runs
// its controllers so, with grace ending Options.GracefulShutdownTimeout
// after the stop, or at once when leadership is lost.
//
// Without it, the end of Run's ctx is also the end of every Reconcile's
// ctx. A grace that ends before ctx does ends the Reconcile calls' ctx
// then (the stop is no longer graceful).
func WithShutdownGrace(ctx, grace context.Context) context.Context {
	return context.WithValue(ctx, graceKey{}, grace)
}

// ShutdownGrace returns the ctx the work in progress may use once ctx
// ends: the grace WithShutdownGrace put in ctx, or ctx itself. A Runnable
// of a manager other than a controller uses it for the writes it must
// finish when it is stopped.
func ShutdownGrace(ctx context.Context) context.Context {
	if g, ok := ctx.Value(graceKey{}).(context.Context); ok {
		return g
	}
	return ctx
}

// inFlightContext is the ctx of the Reconcile calls of a Run with ctx:
// it holds ctx's values and ends when the grace ends (at once when there
// is none, with ctx). stop releases it.
func inFlightContext(ctx context.Context) (inFlight context.Context, stop func()) {
	grace, ok := ctx.Value(graceKey{}).(context.Context)
	if !ok {
		return ctx, func() {}
	}
	inFlight, cancel := context.WithCancel(context.WithoutCancel(ctx))
	unhook := context.AfterFunc(grace, cancel)
	return inFlight, func() { unhook(); cancel() }
}
