package leaderelection

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/kubewire/kubewire/client"
)

// Default timings, those of kube-controller-manager.
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
)

// minRetryFraction is the shortest candidate wait as a fraction of
// RetryPeriod: candidates wait a random time in [0.8, 1] RetryPeriods, so
// that they spread out without ever waiting longer than RetryPeriod.
const minRetryFraction = 0.8

// ErrInvalidConfig is matched by the errors New returns for a Config it
// cannot run with. They match client.ErrInvalidOptions
// too, as every constructor's errors about its options do.
var ErrInvalidConfig error = invalidConfig{}

type invalidConfig struct{}

func (invalidConfig) Error() string        { return "invalid leader election config" }
func (invalidConfig) Is(target error) bool { return target == client.ErrInvalidOptions }

// Config says which Lease to compete for, as whom, and with what timing.
// The zero value of each duration means its default.
type Config struct {
	// Namespace and Name name the coordination.k8s.io/v1 Lease. Both are
	// required. The Lease is created when it does not exist.
	Namespace, Name string
	// Identity names this candidate in the Lease's holderIdentity. It is
	// required and must be unique among the candidates for the whole
	// life of the process (a host name plus a random suffix, or a Pod
	// name): a candidate finding its own identity in the Lease takes it
	// as its own at once.
	Identity string

	// LeaseDuration is how long a candidate waits, from the moment it
	// last saw the Lease change, before it takes the Lease over (15s).
	// It is written, rounded up to whole seconds, to the Lease's
	// leaseDurationSeconds, and a candidate waits as long as the holder
	// wrote there.
	LeaseDuration time.Duration
	// RenewDeadline is how long the leader keeps leading without a
	// successful renewal, counted from the moment it sent the last
	// renewal that succeeded (10s). It must be shorter than
	// LeaseDuration: the difference is the safety margin that covers
	// different clock rates between machines and the time the leader's
	// work needs to notice that its context ended.
	RenewDeadline time.Duration
	// RetryPeriod is how often the leader renews, and about how often a
	// candidate reads the Lease (every 0.8 to 1 RetryPeriod, at random,
	// watch or no watch) (2s).
	RetryPeriod time.Duration

	// KeepOnCancel, when true, leaves the Lease held when Run's context
	// ends, so that successors wait for it to expire. By default the
	// leader releases the Lease (after OnStartedLeading has returned) and
	// a successor takes over at once.
	KeepOnCancel bool
	// NoWatch, when true, makes candidates only poll the Lease every
	// RetryPeriod (for an identity that may get and update Leases but not
	// watch them). By default candidates also watch it, so that they see
	// a release and the holder's renewals the moment they happen.
	NoWatch bool

	// Callbacks are called as leadership changes.
	Callbacks Callbacks
	// Logger gets the elector's log lines; nil is slog.Default()
	// (slog.New(slog.DiscardHandler) silences them).
	Logger *slog.Logger
}

// Callbacks are what a candidate does as leadership changes. Every field
// may be nil.
type Callbacks struct {
	// OnStartedLeading runs in its own goroutine when this candidate
	// becomes the leader. Its ctx ends when leadership ends (Run's ctx
	// ended, or renewal failed for RenewDeadline), and always before
	// another candidate can take the Lease over. It should return soon
	// after ctx ends: Run waits for it before releasing the Lease. When it
	// returns while ctx is still live, the term ends: the Lease is
	// released (unless KeepOnCancel) and Run returns nil.
	OnStartedLeading func(ctx context.Context)
	// OnStoppedLeading is called, in Run's goroutine, after a term ended
	// and OnStartedLeading returned (and, on a graceful end, after the
	// Lease was released).
	OnStoppedLeading func()
	// OnNewLeader is called with the identity of each new holder the
	// candidate sees (itself included), in order, from a goroutine of its
	// own; a slow callback sees only the latest holder. It is not called
	// for a released Lease (no holder).
	OnNewLeader func(identity string)
}

// withDefaults fills the zero durations and the logger.
func (c Config) withDefaults() Config {
	if c.LeaseDuration == 0 {
		c.LeaseDuration = DefaultLeaseDuration
	}
	if c.RenewDeadline == 0 {
		c.RenewDeadline = DefaultRenewDeadline
	}
	if c.RetryPeriod == 0 {
		c.RetryPeriod = DefaultRetryPeriod
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// validate checks a Config after withDefaults.
func (c Config) validate() error {
	switch {
	case c.Namespace == "" || c.Name == "":
		return invalid("the Lease needs a namespace and a name (got %q/%q)", c.Namespace, c.Name)
	case !dnsName(c.Namespace, false) || len(c.Namespace) > 63:
		return invalid("namespace %q is not a DNS label", c.Namespace)
	case !dnsName(c.Name, true) || len(c.Name) > 253:
		return invalid("Lease name %q is not a DNS subdomain", c.Name)
	case c.Identity == "":
		return invalid("identity is empty")
	case c.LeaseDuration < 0 || c.RenewDeadline < 0 || c.RetryPeriod < 0:
		return invalid("durations must not be negative")
	case c.LeaseDuration <= c.RenewDeadline:
		return invalid("lease duration %s must be longer than the renew deadline %s", c.LeaseDuration, c.RenewDeadline)
	case c.RenewDeadline <= c.RetryPeriod:
		return invalid("renew deadline %s must be longer than the retry period %s", c.RenewDeadline, c.RetryPeriod)
	}
	return nil
}

// dnsName reports whether s is lower case letters, digits and '-',
// starting and ending with a letter or digit, in parts of at most 63
// separated by '.' when dots is set: a DNS label, or subdomain, as the
// API server requires of namespaces and of most object names.
func dnsName(s string, dots bool) bool {
	for part := range strings.SplitSeq(s, ".") {
		if part == "" || len(part) > 63 || (!dots && part != s) {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
			if !alnum && (c != '-' || i == 0 || i == len(part)-1) {
				return false
			}
		}
	}
	return true
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("leaderelection: %s: %w", fmt.Sprintf(format, args...), ErrInvalidConfig)
}

// leaseSeconds is d in whole seconds, rounded up, at least one.
func leaseSeconds(d time.Duration) int32 {
	s := (d + time.Second - 1) / time.Second
	return int32(max(s, 1))
}
