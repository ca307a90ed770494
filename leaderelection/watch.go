package leaderelection

import (
	"context"
	"errors"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/client"
)

// watchIdleTimeout ends a watch that received nothing, bookmarks
// included, for this long (kube-apiserver sends a bookmark about every
// minute), so that a silently dead connection does not leave a candidate
// without its watch for long. Polling goes on regardless.
const watchIdleTimeout = 3 * time.Minute

// leaseEvent is one state of the Lease seen by the watch, at the moment
// it was received (lease nil: deleted).
type leaseEvent struct {
	lease *coordinationv1.Lease
	at    time.Time
}

// startWatch watches the Lease until ctx ends, delivering the latest
// state on the returned channel (an unread state is replaced by a newer
// one). done closes when the goroutine has exited. A watch that fails is
// started again after RetryPeriod; a watch the server forbids is given
// up (the candidate still polls).
func (c *candidate) startWatch(ctx context.Context) (<-chan leaseEvent, <-chan struct{}) {
	out := make(chan leaseEvent, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			err := c.watchOnce(ctx, out)
			if ctx.Err() != nil {
				return
			}
			if errors.Is(err, client.ErrForbidden) || errors.Is(err, client.ErrMethodNotAllowed) {
				c.log.Info("leaderelection: cannot watch the lease; polling only", "err", err)
				return
			}
			c.log.Debug("leaderelection: lease watch ended", "err", err)
			t := time.NewTimer(c.cfg.RetryPeriod)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
	}()
	return out, done
}

// watchOnce runs one watch until it ends and returns why.
func (c *candidate) watchOnce(ctx context.Context, out chan leaseEvent) error {
	w, err := c.leases.Watch(ctx, client.WatchOptions{
		FieldSelector:       client.FieldSelector{}.Equals("metadata.name", c.cfg.Name),
		AllowWatchBookmarks: true,
		IdleTimeout:         watchIdleTimeout,
	})
	if err != nil {
		return err
	}
	for ev, err := range w.Events() {
		if err != nil {
			return err
		}
		switch ev.Type {
		case client.Added, client.Modified:
			offer(out, leaseEvent{lease: ev.Object, at: time.Now()})
		case client.Deleted:
			offer(out, leaseEvent{at: time.Now()})
		}
	}
	return nil
}

// offer puts ev on out, replacing an unread older event. It never blocks:
// this goroutine is out's only sender.
func offer(out chan leaseEvent, ev leaseEvent) {
	select {
	case out <- ev:
		return
	default:
	}
	select {
	case <-out:
	default:
	}
	out <- ev
}
