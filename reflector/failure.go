package reflector

import (
	"context"
	"errors"
	"time"

	"github.com/kubewire/kubewire/client"
)

// What a Reflector does after a failure: the transitions into
// BackingOff, and out of it.

const (
	// maxTooLargeInRow is how many "too large resource version" answers
	// in a row a watch takes, each after the wait the server asked for,
	// before the Reflector relists instead: a server that stays behind
	// for that long may never reach the version (for example after etcd
	// was restored from a backup), and a consistent list has no version
	// to be behind.
	maxTooLargeInRow = 5
	// defaultTooLargeWait is the wait after "too large resource version"
	// when the server named none.
	defaultTooLargeWait = time.Second
)

// onFailure picks the next state after err ended the work of state
// from (WatchListing, Listing or Watching):
//
//   - ctx ended: Stopped.
//   - 410 Gone: a relist at once. A second 410 with no watch event in
//     between backs off first, so that a server compacting faster than a
//     list and a watch can start is not listed in a hot loop.
//   - "too large resource version" (the server is behind the version
//     asked for): from again after exactly the wait the server asked for
//     (1 s if it named none); the exponential backoff does not grow, the
//     server is only catching up. A watch answered so maxTooLargeInRow
//     times in a row relists instead.
//   - anything else: from again after the exponential backoff, or after
//     the server's Retry-After (429) when that is longer.
//
// A failed full state read is retried as a new one (its Reason is
// ReasonRetry); a failed watch resumes from the same resourceVersion.
func (r *Reflector[T]) onFailure(ctx context.Context, from State, err error) State {
	if ctx.Err() != nil {
		return Stopped
	}
	switch {
	case errors.Is(err, client.ErrExpired):
		r.expiredInRow++
		next := r.relistState(ReasonExpired)
		if r.expiredInRow > 1 {
			return r.backOffThen(next, err)
		}
		r.log.Debug("reflector: resourceVersion expired; relisting", "error", err)
		return next
	case errors.Is(err, client.ErrTooLargeResourceVersion):
		r.tooLargeInRow++
		if from == Watching && r.tooLargeInRow > maxTooLargeInRow {
			r.tooLargeInRow = 0
			r.log.Debug("reflector: the server stays behind the resourceVersion; relisting", "error", err)
			return r.relistState(ReasonTooLarge)
		}
		wait, ok := retryAfter(err)
		if !ok {
			wait = defaultTooLargeWait
		}
		return r.waitThen(r.retry(from), wait, err)
	}
	return r.backOffThen(r.retry(from), err)
}

// retry is the state that tries from's work again.
func (r *Reflector[T]) retry(from State) State {
	if from == Watching {
		return Watching
	}
	return r.relistState(ReasonRetry)
}

// progressed notes that the server delivered what was asked for, which
// ends a run of 410s or of "too large resource version" answers.
func (r *Reflector[T]) progressed() {
	r.expiredInRow, r.tooLargeInRow = 0, 0
}

// backOffThen moves to BackingOff for the next exponential wait, or the
// server's Retry-After when that is longer, then to next.
func (r *Reflector[T]) backOffThen(next State, cause error) State {
	wait := r.bo.NextBackOff()
	if ra, ok := retryAfter(cause); ok && ra > wait {
		wait = ra
	}
	return r.waitThen(next, wait, cause)
}

// waitThen moves to BackingOff for wait, then to next.
func (r *Reflector[T]) waitThen(next State, wait time.Duration, cause error) State {
	r.next, r.wait = next, wait
	r.metrics.BackingOff(wait, cause)
	r.log.Debug("reflector: backing off", "wait", wait, "then", next, "error", cause)
	return BackingOff
}

func (r *Reflector[T]) backingOff(ctx context.Context) State {
	t := time.NewTimer(r.wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	return r.next
}

// retryAfter is the wait a Status error asks for (its
// details.retryAfterSeconds, which kube-apiserver sets with 429 and "too
// large resource version", as it sets the Retry-After header).
func retryAfter(err error) (time.Duration, bool) {
	var se *client.StatusError
	if !errors.As(err, &se) {
		return 0, false
	}
	return se.RetryAfter()
}

// refused reports whether err is a server's refusal of a streaming list:
// any 4xx but 410 and 429.
func refused(err error) bool {
	var se *client.StatusError
	if !errors.As(err, &se) {
		return false
	}
	c := se.Status.Code
	return c >= 400 && c < 500 && c != 410 && c != 429
}
