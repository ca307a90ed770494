package leaderelection

import (
	"context"
	"errors"
	"fmt"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/client"
)

// errTermEnded is how renewLoop reports that OnStartedLeading returned.
var errTermEnded = errors.New("leaderelection: OnStartedLeading returned")

// lead runs one term, which began with a write sent at sent.
func (c *candidate) lead(ctx context.Context, sent time.Time) error {
	leadCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	c.leading.Store(true)
	go func() {
		defer close(done)
		if f := c.cfg.Callbacks.OnStartedLeading; f != nil {
			f(leadCtx)
		} else {
			<-leadCtx.Done()
		}
	}()
	err := c.renewLoop(ctx, sent, done)
	c.leading.Store(false)
	cancel()
	<-done
	if err != nil && !errors.Is(err, errTermEnded) {
		c.log.Info("leaderelection: stopped leading", "err", err)
	} else {
		if !c.cfg.KeepOnCancel {
			c.release(ctx)
		}
		err = nil
	}
	if f := c.cfg.Callbacks.OnStoppedLeading; f != nil {
		f()
	}
	return err
}

// renewLoop renews the Lease every RetryPeriod. It returns nil when ctx
// ends, errTermEnded when done closes, and ErrLeadershipLost (wrapped)
// when no renewal succeeded within RenewDeadline of the last successful
// one being sent, or a renewal found the Lease lost (see renew). Each attempt is bounded by
// that deadline, so leadership ends at the deadline at the latest.
func (c *candidate) renewLoop(ctx context.Context, sent time.Time, done <-chan struct{}) error {
	deadline := sent.Add(c.cfg.RenewDeadline)
	next := sent.Add(c.cfg.RetryPeriod)
	timer := time.NewTimer(time.Until(next))
	defer timer.Stop()
	for {
		timer.Reset(time.Until(minTime(next, deadline)))
		select {
		case <-ctx.Done():
			return nil
		case <-done:
			return errTermEnded
		case <-timer.C:
		}
		if !time.Now().Before(deadline) {
			return fmt.Errorf("leaderelection: no renewal succeeded within the renew deadline of %s: %w", c.cfg.RenewDeadline, ErrLeadershipLost)
		}
		actx, cancel := context.WithDeadline(ctx, deadline)
		start := time.Now()
		err := c.renew(actx, start)
		cancel()
		switch {
		case ctx.Err() != nil:
			return nil
		case err == nil:
			c.noteAnswer(nil, "")
			deadline = start.Add(c.cfg.RenewDeadline)
			next = start.Add(c.cfg.RetryPeriod)
		case errors.Is(err, ErrLeadershipLost):
			return err
		default:
			c.noteAnswer(err, "cannot renew the lease", "deadline_in", time.Until(deadline).Round(time.Millisecond))
			next = time.Now().Add(c.cfg.RetryPeriod)
		}
	}
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// renew writes a fresh renewTime over the Lease this candidate last
// wrote. After a conflict (someone changed the Lease) it reads the Lease
// and renews again if it still holds it. A deleted Lease is created
// again, unless another candidate did first. When the Lease is lost
// the error wraps ErrLeadershipLost and says why.
func (c *candidate) renew(ctx context.Context, now time.Time) error {
	got, err := c.write(ctx, c.obs.lease, now)
	if errors.Is(err, client.ErrConflict) || errors.Is(err, client.ErrNotFound) {
		if err := c.read(ctx); err != nil {
			return err
		}
		if c.obs.lease != nil && c.obs.record.Holder != c.cfg.Identity {
			return fmt.Errorf("leaderelection: %q holds the lease: %w", c.obs.record.Holder, ErrLeadershipLost)
		}
		first := err
		got, err = c.write(ctx, c.obs.lease, now)
		switch {
		case c.obs.lease == nil && errors.Is(err, client.ErrAlreadyExists):
			return fmt.Errorf("leaderelection: the lease was deleted and another candidate created it first: %w", ErrLeadershipLost)
		case errors.Is(err, client.ErrConflict) || errors.Is(err, client.ErrAlreadyExists):
			// Someone keeps writing the Lease; stepping down is the safe
			// answer even though the last read still names this candidate.
			return fmt.Errorf("leaderelection: both lease writes of one renewal got a conflict (%s, then %s), the lease as last read %s: %w",
				conflictKind(first), conflictKind(err), c.describeHolder(), ErrLeadershipLost)
		}
	}
	if err != nil {
		return err
	}
	c.observe(got, time.Now())
	return nil
}

// conflictKind names a write's refusal in a few words.
func conflictKind(err error) string {
	switch {
	case errors.Is(err, client.ErrNotFound):
		return "404 Not Found"
	case errors.Is(err, client.ErrAlreadyExists):
		return "409 AlreadyExists"
	default:
		return "409 Conflict"
	}
}

// describeHolder says who held the Lease as last read.
func (c *candidate) describeHolder() string {
	switch h := c.obs.record.Holder; {
	case c.obs.lease == nil:
		return "absent"
	case h == "":
		return "released"
	case h == c.cfg.Identity:
		return fmt.Sprintf("held by %q (this candidate)", h)
	default:
		return fmt.Sprintf("held by %q", h)
	}
}

// write claims cur for this candidate: an update, or a create when cur
// is nil.
func (c *candidate) write(ctx context.Context, cur *coordinationv1.Lease, now time.Time) (*coordinationv1.Lease, error) {
	want := claim(cur, c.cfg.Namespace, c.cfg.Name, c.cfg.Identity, c.cfg.LeaseDuration, now)
	if cur == nil {
		return c.leases.Create(ctx, want, client.CreateOptions{})
	}
	return c.leases.Update(ctx, want, client.UpdateOptions{})
}

// release clears the holder of the Lease this candidate last wrote, so
// that a successor takes it at once. The resourceVersion of that write
// makes it fail harmlessly when another candidate took the Lease since.
// It runs after ctx ended, so it has its own RenewDeadline bound.
func (c *candidate) release(ctx context.Context) {
	if c.obs.lease == nil || c.obs.record.Holder != c.cfg.Identity {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.RenewDeadline)
	defer cancel()
	got, err := c.leases.Update(rctx, released(c.obs.lease, time.Now()), client.UpdateOptions{})
	if errors.Is(err, client.ErrConflict) {
		// Most often a renewal the server applied as ctx ended, its answer
		// lost: release the Lease if it is still ours.
		if err = c.read(rctx); err == nil {
			if c.obs.lease == nil || c.obs.record.Holder != c.cfg.Identity {
				return
			}
			got, err = c.leases.Update(rctx, released(c.obs.lease, time.Now()), client.UpdateOptions{})
		}
	}
	if err != nil {
		c.log.Info("leaderelection: cannot release the lease", "err", err)
		return
	}
	c.observe(got, time.Now())
	c.log.Info("leaderelection: released the lease")
}
