// Package backoffpolicy is kubewire's one backoff policy: every retry
// that is not an HTTP request's own (the pager's page retries, the
// reflector's waits after a failure, RetryOnConflict, work queues) waits
// as a Policy says, through cenkalti/backoff/v4's ExponentialBackOff.
//
// A wait grows by Multiplier from Initial and is jittered by up to
// ±Jitter of its interval, and no wait is ever longer than Max: the
// interval stops growing where its jittered value would pass Max, so
// waits at the top spread over [Max·(1−Jitter)/(1+Jitter), Max] instead
// of piling up at Max (cenkalti's own MaxInterval caps the interval
// before the jitter, which lets a wait reach 1.5 times it).
//
// A Policy is a plain value, safe to share. A Backoff (from New) is the
// state of one sequence of retries, for one goroutine at a time. The
// package has no global state.
package backoffpolicy

import (
	"context"
	"fmt"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Defaults of Policy.
const (
	DefaultInitial    = time.Second
	DefaultMax        = 30 * time.Second
	DefaultMultiplier = 2
	DefaultJitter     = 0.5
)

// Policy describes a jittered exponential backoff. The zero value is
// DefaultInitial growing by DefaultMultiplier up to DefaultMax, with
// DefaultJitter.
type Policy struct {
	// Initial is the first wait's interval (before jitter).
	Initial time.Duration
	// Max bounds every wait, jitter included. A Max below Initial is
	// taken as Initial.
	Max time.Duration
	// Multiplier is the growth of the interval from one wait to the next
	// (at least 1).
	Multiplier float64
	// Jitter is the part of the interval a wait is randomized by, in
	// [0, 1): a wait is drawn from [interval·(1−Jitter),
	// interval·(1+Jitter)], then bounded by Max. Negative: no jitter.
	Jitter float64
}

// resolved is p with defaults filled in.
func (p Policy) resolved() Policy {
	if p.Initial <= 0 {
		p.Initial = DefaultInitial
	}
	if p.Max <= 0 {
		p.Max = DefaultMax
	}
	p.Max = max(p.Max, p.Initial)
	switch {
	case p.Multiplier == 0:
		p.Multiplier = DefaultMultiplier
	case p.Multiplier < 1:
		p.Multiplier = 1
	}
	switch {
	case p.Jitter == 0:
		p.Jitter = DefaultJitter
	case p.Jitter < 0:
		p.Jitter = 0
	case p.Jitter >= 1:
		p.Jitter = 0.99
	}
	return p
}

// Backoff is one sequence of waits following a Policy: a
// cenkalti/backoff BackOff whose NextBackOff never exceeds the Policy's
// Max and never returns backoff.Stop. It is for one goroutine at a time.
type Backoff struct {
	eb  *backoff.ExponentialBackOff
	max time.Duration
}

var _ backoff.BackOff = (*Backoff)(nil)

// New returns the start of a sequence of waits.
func (p Policy) New() *Backoff {
	p = p.resolved()
	// The interval may grow only as far as keeps its jittered value
	// within Max.
	top := time.Duration(float64(p.Max) / (1 + p.Jitter))
	eb := backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(min(p.Initial, top)),
		backoff.WithMaxInterval(top),
		backoff.WithMultiplier(p.Multiplier),
		backoff.WithRandomizationFactor(p.Jitter),
		backoff.WithMaxElapsedTime(0), // never Stop
	)
	return &Backoff{eb: eb, max: p.Max}
}

// NextBackOff returns the next wait.
func (b *Backoff) NextBackOff() time.Duration {
	// The bound also absorbs the float rounding of the jitter.
	return min(b.eb.NextBackOff(), b.max)
}

// Reset starts the sequence over: the next wait is the first one.
func (b *Backoff) Reset() { b.eb.Reset() }

// Wait returns the wait before retry n (0 for the first retry) of a
// fresh sequence, for callers that are handed an attempt number and keep
// no state (an HTTP client's backoff hook).
func (p Policy) Wait(n int) time.Duration {
	b := p.New()
	var d time.Duration
	for range max(n, 0) + 1 {
		d = b.NextBackOff()
	}
	return d
}

// Retry calls op until it succeeds, returns an error retryable rejects,
// has been retried retries times, or ctx ends, waiting between calls as
// p says. It returns op's last result, or, when ctx ended during a wait,
// ctx's error naming the failure it was waiting to retry. retryable nil
// retries every error; retries < 0 means no limit.
func Retry[T any](ctx context.Context, p Policy, retries int, retryable func(error) bool, op func() (T, error)) (T, error) {
	var b backoff.BackOff = p.New()
	if retries >= 0 {
		b = backoff.WithMaxRetries(b, uint64(retries))
	}
	var last error
	res, err := backoff.RetryNotifyWithData(func() (T, error) {
		res, err := op()
		if err != nil && (ctx.Err() != nil || retryable != nil && !retryable(err)) {
			return res, backoff.Permanent(err)
		}
		return res, err
	}, backoff.WithContext(b, ctx), func(err error, _ time.Duration) { last = err })
	if err != nil && err == ctx.Err() && last != nil {
		err = fmt.Errorf("%w (while waiting to retry after: %v)", err, last)
	}
	return res, err
}
