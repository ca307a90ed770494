package workqueue

import (
	"errors"
	"fmt"
	"time"
)

// Defaults of Options, the same as client-go's default controller rate
// limiter (per key 5 ms doubling up to 1000 s, overall 10 per second with
// a burst of 100).
const (
	DefaultBaseDelay  = 5 * time.Millisecond
	DefaultMaxDelay   = 1000 * time.Second
	DefaultMultiplier = 2
	DefaultQPS        = 10
	DefaultBurst      = 100
	DefaultAging      = 100 * time.Millisecond
)

// LowPriority is the priority controllers conventionally give to keys
// that need no prompt attention: objects of an informer's initial list
// and periodic resyncs (controller-runtime uses the same value). With the
// default Aging, such a key is handed out at the latest as if it had been
// added 10 s later at priority 0.
const LowPriority = -100

// Options configure a Queue. The zero value is the default for every
// field.
type Options struct {
	// BaseDelay is the delay of a key's first AddRateLimited after a
	// Forget (or ever). Zero means DefaultBaseDelay.
	BaseDelay time.Duration
	// MaxDelay caps the per-key delay of AddRateLimited, jitter included.
	// Zero means DefaultMaxDelay.
	MaxDelay time.Duration
	// Multiplier is how much each further AddRateLimited of a key
	// lengthens its delay (at least 1). Zero means DefaultMultiplier.
	Multiplier float64
	// Jitter spreads per-key delays: each is drawn from [d-Jitter*d,
	// d+Jitter*d] around the exponential value d, then capped at
	// MaxDelay. Between 0 and 1; zero means no jitter, so delays are
	// exactly client-go's.
	Jitter float64

	// QPS and Burst size the token bucket every AddRateLimited takes a
	// token from, whatever its key: a key waits for the later of its
	// own delay and its token. Zero means DefaultQPS and DefaultBurst;
	// QPS math.Inf(1) turns the bucket off.
	QPS   float64
	Burst int

	// Aging is how long a waiting key takes to gain one priority level
	// (see AddOptions.Priority): a key of priority p that has waited w is
	// ranked as p + w/Aging, so nothing starves. Zero means DefaultAging;
	// a negative value turns aging off (strict priorities: a steady
	// stream of higher-priority keys can hold lower ones back forever).
	// Without Metrics, w is read from a clock refreshed at most every
	// Aging/16 while keys are added: it may be overstated by that much
	// (about 6 ms by default), never understated.
	Aging time.Duration

	// Metrics, if set, is told about the queue's activity; nil turns
	// metrics off and the queue then reads no clock on its hot path. Only
	// a ConcurrentMetrics is called without the queue's lock, which lets
	// workers take keys through the hand-off (see Metrics).
	Metrics Metrics
}

// ErrInvalidOptions is matched by the error New returns for Options no
// caller can mean.
var ErrInvalidOptions = errors.New("invalid workqueue options")

// Validate reports Options no caller can mean: a negative delay, a
// Multiplier below 1, a Jitter outside [0, 1), a negative or NaN rate.
// The error matches ErrInvalidOptions. New calls it; a controller calls
// it when it is made, long before its first queue.
func (o Options) Validate() error {
	switch {
	case o.BaseDelay < 0, o.MaxDelay < 0:
		return invalid("negative delay (BaseDelay %v, MaxDelay %v)", o.BaseDelay, o.MaxDelay)
	case o.Multiplier != 0 && !(o.Multiplier >= 1):
		return invalid("Multiplier %v is below 1: delays would shrink", o.Multiplier)
	case !(o.Jitter >= 0 && o.Jitter < 1):
		return invalid("Jitter %v is outside [0, 1)", o.Jitter)
	case !(o.QPS >= 0), o.Burst < 0:
		return invalid("negative rate (QPS %v, Burst %d)", o.QPS, o.Burst)
	}
	return nil
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("workqueue: %s: %w", fmt.Sprintf(format, args...), ErrInvalidOptions)
}

// withDefaults fills in the defaults of valid Options.
func (o Options) withDefaults() Options {
	if o.BaseDelay == 0 {
		o.BaseDelay = DefaultBaseDelay
	}
	if o.MaxDelay == 0 {
		o.MaxDelay = DefaultMaxDelay
	}
	o.MaxDelay = max(o.MaxDelay, o.BaseDelay)
	if o.Multiplier == 0 {
		o.Multiplier = DefaultMultiplier
	}
	if o.QPS == 0 {
		o.QPS = DefaultQPS
	}
	if o.Burst == 0 {
		o.Burst = DefaultBurst
	}
	if o.Aging == 0 {
		o.Aging = DefaultAging
	}
	return o
}
