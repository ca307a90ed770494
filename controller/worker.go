package controller

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/workqueue"
)

// work reconciles the Requests q hands out until q is shut down or ctx
// ends. Reconcile calls get inFlight, which outlives ctx on a graceful
// stop (see WithShutdownGrace).
func (c *Controller[T]) work(ctx, inFlight context.Context, q *workqueue.Queue[Request], regs []registered) {
	sharded := c.Sharded()
	for {
		req, err := q.Get(ctx)
		if err != nil {
			return
		}
		if !sharded {
			c.process(ctx, inFlight, q, regs, req)
			q.Done(req)
			continue
		}
		rctx, mine := c.claim(inFlight, req)
		if !mine { // another replica's (now): never reconciled here
			q.Forget(req)
			q.Done(req)
			continue
		}
		c.process(ctx, rctx, q, regs, req)
		c.release(req)
		q.Done(req)
	}
}

// process reconciles req once, with a ctx from inFlight, and queues it
// again as the result says unless ctx (the worker's) ended.
func (c *Controller[T]) process(ctx, inFlight context.Context, q *workqueue.Queue[Request], regs []registered, req Request) {
	rctx, log := c.reconcileLogger(inFlight, req)
	if c.opts.DetectCacheMutations {
		rctx = context.WithValue(rctx, detectKey{}, true)
	}
	var ws *writes
	if c.opts.ReadYourWrites {
		ws = &writes{}
		rctx = client.OnWrite(context.WithValue(rctx, writesKey{}, ws), ws.add)
	}
	c.active.Add(1)
	start := time.Now()
	res, panicked, err := c.call(rctx, log, req)
	took := time.Since(start)
	c.active.Add(-1)

	outcome := Success
	switch {
	case panicked:
		outcome = Panic
	case errors.Is(err, ErrTerminal):
		outcome = Terminal
	case err != nil:
		outcome = Error
	case res.RequeueAfter > 0:
		outcome = Requeue
	}
	if c.opts.Metrics != nil {
		c.opts.Metrics.Reconciled(c.name, outcome, took)
	}
	if ws != nil {
		c.waitForWrites(ctx, regs, ws)
	}

	switch {
	case err != nil:
		if ctx.Err() != nil {
			return // stopping: whoever runs next reconciles everything again
		}
		if res.RequeueAfter > 0 {
			log = log.With("ignoredRequeueAfter", res.RequeueAfter) // the backoff decides
		}
		switch {
		case panicked: // logged with its stack by call
		case errors.Is(err, ErrTerminal):
			log.Error("controller: reconcile failed; not retried until a change", "error", err)
			q.Forget(req)
			return
		case errors.Is(err, client.ErrConflict):
			// A write from a cache a step behind the server: the retry
			// reads the newer object. Routine, so not an error line.
			log.Info("controller: reconcile conflicted, retrying", "error", err, "requeues", q.NumRequeues(req))
		default:
			log.Error("controller: reconcile failed", "error", err, "requeues", q.NumRequeues(req))
		}
		q.AddRateLimited(req)
	case res.RequeueAfter > 0:
		q.Forget(req)
		q.AddAfter(req, res.RequeueAfter)
	default:
		q.Forget(req)
	}
}

// call calls Reconcile, turning a panic into an error (logged with its
// stack).
func (c *Controller[T]) call(ctx context.Context, log *slog.Logger, req Request) (res Result, panicked bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			panicked = true
			err = fmt.Errorf("controller %s: reconcile %s panicked: %v", c.name, req, p)
			log.Error("controller: reconcile panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	res, err = c.r.Reconcile(ctx, req)
	return res, false, err
}
