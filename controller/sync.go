package controller

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
)

// ErrNotSynced is matched by the error Run returns when a source's cache
// could not be synced: the server refused it, or Options.SyncTimeout
// passed. It is informer.ErrNotSynced, which informer.Informer.Check
// returns for a cache with no full state.
var ErrNotSynced = informer.ErrNotSynced

// errNotSyncedYet is what Ready says of a cache still filling.
var errNotSyncedYet = errors.New("not synced yet")

// errNotRunning is what Ready and Run say of a cache whose informer
// nobody runs: a program without a manager runs its informers (or their
// Factory) itself.
var errNotRunning = errors.New("its informer is not running (run it, or its Factory, beside the controller: go factory.Run(ctx); a manager runs its own Factory's informers and those of the Factories given to its AddFactory)")

// notServedHint follows a list answered 404, most often a custom
// resource whose definition is not installed.
const notServedHint = "a resource not served: a custom resource's CustomResourceDefinition must be installed first, with crd.Install or kubectl apply -f config/crd"

// errSyncTimeout is the cause of the sync wait's deadline.
var errSyncTimeout = errors.New("sync timeout")

// waitForSync waits until every source's informer holds a full state
// and its handler has queued it. It returns at the first source that
// fails, with that source's error, or when SyncTimeout passes, with the
// sources still waiting and the failures they report.
func (c *Controller[T]) waitForSync(ctx context.Context, sources []source, regs []registered) error {
	tctx, cancel := context.WithTimeoutCause(ctx, c.opts.SyncTimeout, errSyncTimeout)
	defer cancel()
	g, gctx := errgroup.WithContext(tctx)
	done := make([]bool, len(regs))
	for i, r := range regs {
		g.Go(func() error {
			err := r.waitForSync(gctx)
			switch {
			case err == nil:
				done[i] = true
			case gctx.Err() == nil:
				if errors.Is(err, client.ErrNotFound) {
					err = fmt.Errorf("%w (%s)", err, notServedHint)
				}
				return fmt.Errorf("controller %s: %w: %s: %w", c.name, ErrNotSynced, sources[i], err)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if !slices.Contains(done, false) {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var waiting []error
	for i, s := range sources {
		if done[i] {
			continue
		}
		switch err := s.failure(); {
		case err != nil:
			waiting = append(waiting, fmt.Errorf("%s: %w", s, err))
		case s.synced():
			waiting = append(waiting, fmt.Errorf("%s: the controller's handler is still queueing the initial state", s))
		case !s.running():
			waiting = append(waiting, fmt.Errorf("%s: %w", s, errNotRunning))
		default:
			waiting = append(waiting, fmt.Errorf("%s: no full state yet", s))
		}
	}
	return fmt.Errorf("controller %s: %w after %v: %w", c.name, ErrNotSynced, c.opts.SyncTimeout, errors.Join(waiting...))
}
