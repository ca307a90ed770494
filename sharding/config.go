package sharding

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/kubewire/kubewire/client"
)

// Defaults of Config, those of leader election (package leaderelection).
const (
	DefaultLeaseDuration = 15 * time.Second
	DefaultRenewDeadline = 10 * time.Second
	DefaultRetryPeriod   = 2 * time.Second
	DefaultSlots         = 64
)

// maxSlots bounds Config.Slots (and what a member reads from another's
// Lease).
const maxSlots = 1024

// ErrInvalidConfig is matched by the errors New returns for a Config it
// cannot run with. They match client.ErrInvalidOptions
// too, as every constructor's errors about its options do.
var ErrInvalidConfig error = invalidConfig{}

type invalidConfig struct{}

func (invalidConfig) Error() string        { return "invalid sharding config" }
func (invalidConfig) Is(target error) bool { return target == client.ErrInvalidOptions }

// Config says which ring a member joins, as whom, how the hash space is
// cut, and with what timing. Only Namespace and Name are required; the
// zero value of every other field means its default.
type Config struct {
	// Namespace holds the ring's Leases; Name names the ring (it labels
	// them, RingLabel, and prefixes their names). Every replica of a
	// controller uses the same two.
	Namespace, Name string
	// Identity names this member: its Lease is NAME-IDENTITY. It must
	// be unique among the members for the whole life of the process (a
	// Pod name, or the default: the host name and a random suffix),
	// lower case letters, digits, '-' and '.'.
	Identity string

	// Key is the field whose hash splits the objects: client.ShardByUID
	// (the default) or client.ShardByNamespace, which keeps a namespace
	// on one member (and so the objects a controller owns in it).
	Key client.ShardKey
	// Slots is how many equal slots the hash space is cut into (default
	// DefaultSlots, at most 1024); members own whole slots. More slots
	// balance better (each member owns Slots/N or one more) and allow
	// more members, at the cost of longer selectors (a member's slots
	// merge into ranges where adjacent). Every member of a ring should
	// use the same number; claims are compared as hash ranges, so
	// members that differ stay safe but may disagree on who owns what.
	Slots int

	// LeaseDuration is how long other members wait, from the moment they
	// last saw a member's Lease change, before they take its slots over
	// (default DefaultLeaseDuration). RenewDeadline is how long a member
	// keeps working on its slots without a successful renewal, counted
	// from the moment it sent the last one (default
	// DefaultRenewDeadline); it must be shorter than LeaseDuration, the
	// margin covering different clock rates and the time the work needs
	// to stop. RetryPeriod is how often a member renews its Lease and
	// looks at the ring (default DefaultRetryPeriod).
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// DrainTimeout bounds the wait for the Reconcile calls of slots a
	// member gives up (default LeaseDuration); when it passes, their ctx
	// is cancelled and the slots are kept until a later drain succeeds.
	DrainTimeout time.Duration

	// Logger gets the member's log lines; nil is slog.Default()
	// (slog.New(slog.DiscardHandler) silences them).
	Logger *slog.Logger
}

// validName reports whether s is lower case letters, digits, '-' and
// '.', starting and ending with a letter or digit.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		alnum := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		if !alnum && (r != '-' && r != '.' || i == 0 || i == len(s)-1) {
			return false
		}
	}
	return true
}

func (c Config) withDefaults() Config {
	if c.Identity == "" {
		c.Identity = defaultIdentity()
	}
	if c.Key == "" {
		c.Key = client.ShardByUID
	}
	if c.Slots == 0 {
		c.Slots = DefaultSlots
	}
	if c.LeaseDuration == 0 {
		c.LeaseDuration = DefaultLeaseDuration
	}
	if c.RenewDeadline == 0 {
		c.RenewDeadline = DefaultRenewDeadline
	}
	if c.RetryPeriod == 0 {
		c.RetryPeriod = DefaultRetryPeriod
	}
	if c.DrainTimeout == 0 {
		c.DrainTimeout = c.LeaseDuration
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

func (c Config) validate() error {
	switch {
	case c.Namespace == "" || c.Name == "":
		return invalid("the ring needs a namespace and a name (got %q/%q)", c.Namespace, c.Name)
	case !validName(c.Namespace) || strings.Contains(c.Namespace, ".") || len(c.Namespace) > 63:
		return invalid("namespace %q is not a DNS label", c.Namespace)
	case !validName(c.Name) || len(c.Name) > 63:
		return invalid("ring name %q is not a DNS label", c.Name)
	case !validName(c.Identity) || len(leaseName(c.Name, c.Identity)) > 253:
		return invalid("identity %q: lower case letters, digits, '-' and '.' only, and the Lease name %s at most 253 characters", c.Identity, leaseName(c.Name, c.Identity))
	case c.Key != client.ShardByUID && c.Key != client.ShardByNamespace:
		return invalid("key %q is not %s or %s", c.Key, client.ShardByUID, client.ShardByNamespace)
	case c.Slots < 1 || c.Slots > maxSlots:
		return invalid("%d slots: want 1 to %d", c.Slots, maxSlots)
	case c.LeaseDuration < 0 || c.RenewDeadline < 0 || c.RetryPeriod < 0 || c.DrainTimeout < 0:
		return invalid("durations must not be negative")
	case c.LeaseDuration <= c.RenewDeadline:
		return invalid("lease duration %s must be longer than the renew deadline %s", c.LeaseDuration, c.RenewDeadline)
	case c.RenewDeadline <= c.RetryPeriod:
		return invalid("renew deadline %s must be longer than the retry period %s", c.RenewDeadline, c.RetryPeriod)
	}
	return nil
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("sharding: %s: %w", fmt.Sprintf(format, args...), ErrInvalidConfig)
}

// defaultIdentity is the host name, lower-cased and cleaned to a DNS
// label, with a random suffix.
func defaultIdentity() string {
	host, _ := os.Hostname()
	host = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, host)
	host = strings.Trim(host, "-")
	if host == "" || len(host) > 40 {
		host = "member"
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	return host + "-" + hex.EncodeToString(b[:])
}
