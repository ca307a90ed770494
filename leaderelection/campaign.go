package leaderelection

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/client"
)

// errTooSlow is a claim whose answer came after the renew deadline it
// started: the Lease may be ours, but too late to lead on that write.
var errTooSlow = errors.New("leaderelection: the claim was answered after the renew deadline")

// campaign reads (and, with a watch, follows) the Lease until this
// candidate has written itself into it. It returns the moment the
// successful write was sent, from which the renew deadline counts, or
// ctx's error.
func (c *candidate) campaign(ctx context.Context) (time.Time, error) {
	var events <-chan leaseEvent
	if !c.cfg.NoWatch {
		wctx, stop := context.WithCancel(ctx)
		ch, done := c.startWatch(wctx)
		defer func() { stop(); <-done }()
		events = ch
	}
	timer := time.NewTimer(time.Hour) // Reset before each wait; Reset drops a stale tick (Go 1.23 timers)
	defer timer.Stop()
	needRead := true
	conflictedAtOnce := false // the last claim conflicted and was retried without a wait
	for {
		if needRead {
			if err := c.read(ctx); ctx.Err() == nil {
				c.noteAnswer(err, "cannot read the lease")
			}
		}
		wait := c.jitteredRetry()
		if c.obs.anything {
			now := time.Now()
			if c.obs.acquirable(c.cfg.Identity, c.cfg.LeaseDuration, now) {
				sent, err := c.claim(ctx)
				if err == nil {
					c.noteAnswer(nil, "")
					return sent, nil
				}
				if ctx.Err() != nil {
					return time.Time{}, ctx.Err()
				}
				if errors.Is(err, client.ErrConflict) || errors.Is(err, client.ErrAlreadyExists) {
					c.log.Debug("leaderelection: another candidate wrote the lease first")
					if !conflictedAtOnce {
						wait = 0 // read the winner's record at once
					}
					// Only once in a row: a server that answers every
					// write 409 must not get a read and a write in a
					// loop with no wait.
					conflictedAtOnce = !conflictedAtOnce
				} else {
					c.noteAnswer(err, "cannot claim the lease")
				}
			} else if exp := c.obs.expiresAt(c.cfg.LeaseDuration); exp.Sub(now) < wait {
				wait = max(exp.Sub(now), 0) // try the moment the holder's claim ends
			}
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return time.Time{}, ctx.Err()
		case <-timer.C:
			needRead = true
		case ev := <-events:
			c.observe(ev.lease, ev.at)
			needRead = false
		}
	}
}

// jitteredRetry is a random wait in [0.8, 1] RetryPeriod.
func (c *candidate) jitteredRetry() time.Duration {
	p := float64(c.cfg.RetryPeriod)
	return time.Duration(p * (minRetryFraction + (1-minRetryFraction)*rand.Float64()))
}

// read gets the Lease and observes it (absent included).
func (c *candidate) read(ctx context.Context) error {
	rctx, cancel := context.WithTimeout(ctx, c.cfg.RenewDeadline)
	defer cancel()
	l, err := c.leases.Get(rctx, c.cfg.Name, client.GetOptions{})
	switch {
	case errors.Is(err, client.ErrNotFound):
		c.observe(nil, time.Now())
		return nil
	case err != nil:
		return err
	}
	c.observe(l, time.Now())
	return nil
}

// claim writes this candidate into the Lease last observed (creating it
// when absent), with the observed resourceVersion so that a concurrent
// writer makes it fail with ErrConflict. It returns when the write was
// sent.
func (c *candidate) claim(ctx context.Context) (time.Time, error) {
	cctx, cancel := context.WithTimeout(ctx, c.cfg.RenewDeadline)
	defer cancel()
	sent := time.Now()
	want := claim(c.obs.lease, c.cfg.Namespace, c.cfg.Name, c.cfg.Identity, c.cfg.LeaseDuration, sent)
	var got *coordinationv1.Lease
	var err error
	if c.obs.lease == nil {
		got, err = c.leases.Create(cctx, want, client.CreateOptions{})
	} else {
		got, err = c.leases.Update(cctx, want, client.UpdateOptions{})
	}
	if err != nil {
		return time.Time{}, err
	}
	now := time.Now()
	c.observe(got, now)
	if now.Sub(sent) >= c.cfg.RenewDeadline {
		return time.Time{}, errTooSlow
	}
	c.log.Info("leaderelection: acquired the lease", "transitions", c.obs.record.Transitions)
	return sent, nil
}
