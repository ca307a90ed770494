package events

import (
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"time"

	"github.com/kubewire/kubewire/client"
)

// The event types the API accepts.
const (
	Normal  = "Normal"
	Warning = "Warning"
)

// Limits of the API's validation of events.k8s.io/v1 Events.
const (
	MaxNoteBytes     = 1024 // a longer note is cut at a character boundary
	maxReasonBytes   = 128
	maxActionBytes   = 128
	maxInstanceBytes = 128
)

// ErrInvalidOptions is matched by the errors NewRecorder returns for
// Options it cannot run with. They match client.ErrInvalidOptions
// too, as every constructor's errors about its options do.
var ErrInvalidOptions error = invalidOptions{}

type invalidOptions struct{}

func (invalidOptions) Error() string        { return "invalid event recorder options" }
func (invalidOptions) Is(target error) bool { return target == client.ErrInvalidOptions }

// Options configure a Recorder. Component is required; every other zero
// value means its default.
type Options struct {
	// Component is the reportingController of every event, a qualified
	// name such as "example.com/my-controller" (required).
	Component string
	// Instance is the reportingInstance, at most 128 bytes: the host name
	// (in a Pod, the Pod's name) by default.
	Instance string

	// QueueSize bounds the events waiting to be written (1000). Eventf
	// never blocks: an event that finds the queue full is dropped and
	// counted in Stats.Dropped.
	QueueSize int

	// SpamBurst and SpamInterval limit the new Events written about one
	// object: a burst of SpamBurst (25), then one per SpamInterval (5
	// minutes). Repeats folded into a series are not limited (their writes
	// are bounded by SeriesInterval). Events over the limit are counted in
	// Stats.Limited. A negative SpamBurst turns the limit off.
	SpamBurst    int
	SpamInterval time.Duration

	// SeriesWindow is how soon a repeat must follow the previous
	// occurrence of the same event (same object, type, reason, action,
	// related object and note) to join its series rather than start a
	// new Event (6 minutes, as kube-apiserver's clients use).
	SeriesWindow time.Duration
	// SeriesInterval is the shortest time between two writes of one
	// series (30s): repeats in between only add to its count, written
	// with the next write.
	SeriesInterval time.Duration
	// MaxSeries bounds the events remembered for aggregation and the
	// objects remembered for the spam limit (4096 each); the least
	// recently seen are forgotten first.
	MaxSeries int

	// WriteTimeout bounds each request (10s).
	WriteTimeout time.Duration
	// FlushTimeout bounds the writes left when Run's ctx ends (5s).
	FlushTimeout time.Duration

	// Logger gets the recorder's log lines; nil is slog.Default()
	// (slog.New(slog.DiscardHandler) silences them).
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Instance == "" {
		o.Instance, _ = os.Hostname()
	}
	if len(o.Instance) > maxInstanceBytes {
		o.Instance = o.Instance[:maxInstanceBytes]
	}
	setDefault(&o.QueueSize, 1000)
	setDefault(&o.SpamBurst, 25)
	setDefault(&o.SpamInterval, 5*time.Minute)
	setDefault(&o.SeriesWindow, 6*time.Minute)
	setDefault(&o.SeriesInterval, 30*time.Second)
	setDefault(&o.MaxSeries, 4096)
	setDefault(&o.WriteTimeout, 10*time.Second)
	setDefault(&o.FlushTimeout, 5*time.Second)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

func setDefault[T int | time.Duration](v *T, def T) {
	if *v == 0 {
		*v = def
	}
}

// qualifiedName is a Kubernetes qualified name: an optional DNS subdomain
// prefix and "/", then 1-63 alphanumerics, '-', '_' or '.', starting and
// ending with an alphanumeric.
var qualifiedName = regexp.MustCompile(`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$`)

func (o Options) validate() error {
	switch {
	case !qualifiedName.MatchString(o.Component) || len(o.Component) > 253+1+63:
		return fmt.Errorf("events: component %q is not a qualified name such as example.com/my-controller: %w", o.Component, ErrInvalidOptions)
	case o.Instance == "":
		return fmt.Errorf("events: no instance and no host name: %w", ErrInvalidOptions)
	case o.QueueSize < 0 || o.SpamInterval < 0 || o.SeriesWindow < 0 || o.SeriesInterval < 0 ||
		o.MaxSeries < 0 || o.WriteTimeout < 0 || o.FlushTimeout < 0:
		return fmt.Errorf("events: sizes and durations must not be negative: %w", ErrInvalidOptions)
	}
	return nil
}
