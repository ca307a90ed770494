package reflector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/client"
)

// Source is what a Reflector reads: a *client.Resource[T] (typed,
// dynamic or metadata-only, namespaced or not) is one.
type Source[T client.Object] interface {
	List(ctx context.Context, opts client.ListOptions) (*client.List[T], error)
	Watch(ctx context.Context, opts client.WatchOptions) (*client.Watcher[T], error)
}

// State is a state of the Reflector's state machine; see the package
// documentation for the transitions.
type State int32

// The states of a Reflector.
const (
	// Stopped: Run is not running.
	Stopped State = iota
	// WatchListing: a streaming list (watch with sendInitialEvents) is
	// feeding a new full state to the store, until its end bookmark.
	WatchListing
	// Listing: a paginated list is feeding a new full state to the store.
	Listing
	// Watching: watch events are applied to the store, from the last
	// resourceVersion seen.
	Watching
	// BackingOff: waiting after a failure before the next attempt.
	BackingOff
)

var stateNames = [...]string{"Stopped", "WatchListing", "Listing", "Watching", "BackingOff"}

func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Reflector keeps a Store in step with a collection on the server. Make
// one with New and call Run once. State and Relists may be called from
// any goroutine.
type Reflector[T client.Object] struct {
	src     Source[T]
	store   Store[T]
	opts    Options
	log     *slog.Logger
	metrics Metrics

	state   atomic.Int32
	relists atomic.Int64

	// Owned by the goroutine running Run.
	dec       *wire.Decoder
	watchList bool   // false once streaming lists were refused or hung
	rv        string // last resourceVersion seen; "" means a relist is due
	why       Reason // why the next full state is read
	fed       bool   // the store has been given a stream (Begin) since Run started
	bo        *backoff.ExponentialBackOff
	next      State // state after BackingOff
	wait      time.Duration
	// Failures of one kind since the last watch event; see onFailure.
	expiredInRow, tooLargeInRow int
}

// New returns a Reflector that feeds store from src.
func New[T client.Object](src Source[T], store Store[T], opts Options) *Reflector[T] {
	if opts.WatchListTimeout <= 0 {
		opts.WatchListTimeout = DefaultWatchListTimeout
	}
	if opts.WatchTimeout <= 0 {
		opts.WatchTimeout = DefaultWatchTimeout
	}
	if opts.InitialBackoff <= 0 {
		opts.InitialBackoff = DefaultInitialBackoff
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = DefaultMaxBackoff
	}
	if opts.HealthyPeriod <= 0 {
		opts.HealthyPeriod = DefaultHealthyPeriod
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var m Metrics = noMetrics{}
	if opts.Metrics != nil {
		m = opts.Metrics
	}
	return &Reflector[T]{src: src, store: store, opts: opts, log: log, metrics: m}
}

// State returns the state the Reflector is in.
func (r *Reflector[T]) State() State { return State(r.state.Load()) }

// Relists counts the full states (lists or streaming lists) Run started.
func (r *Reflector[T]) Relists() int64 { return r.relists.Load() }

// Run keeps the store in step with the server until ctx ends, through
// dropped watches, expired resource versions and server failures, and
// then returns ctx's error, after every goroutine it started has ended.
// It returns early only for options the client rejects
// (client.ErrInvalidOptions). Run may be called once.
func (r *Reflector[T]) Run(ctx context.Context) error {
	r.dec = &wire.Decoder{ReadOnly: true}
	r.watchList = !r.opts.DisableWatchList
	r.bo = backoff.NewExponentialBackOff(
		backoff.WithInitialInterval(r.opts.InitialBackoff),
		backoff.WithMaxInterval(r.opts.MaxBackoff),
		backoff.WithRandomizationFactor(0.5),
		backoff.WithMultiplier(2),
		backoff.WithMaxElapsedTime(0),
	)
	defer r.state.Store(int32(Stopped))
	s := r.relistState(ReasonInitial)
	var err error
	for ctx.Err() == nil {
		r.transition(s)
		switch s {
		case WatchListing:
			s, err = r.watchListing(ctx)
		case Listing:
			s, err = r.listing(ctx)
		case Watching:
			s, err = r.watching(ctx, nil)
		case BackingOff:
			s = r.backingOff(ctx)
		default: // Stopped: only returned when ctx ended
			s = r.relistState(ReasonRetry)
		}
		if errors.Is(err, client.ErrInvalidOptions) {
			return err
		}
	}
	return ctx.Err()
}

func (r *Reflector[T]) transition(s State) {
	if old := State(r.state.Swap(int32(s))); old != s {
		r.log.Debug("reflector: transition", "from", old, "to", s, "resourceVersion", r.rv)
	}
}

// relistState is the state that reads a new full state, for why.
func (r *Reflector[T]) relistState(why Reason) State {
	r.rv, r.why = "", why
	if r.watchList {
		return WatchListing
	}
	return Listing
}

// begin starts a full state stream into the store.
func (r *Reflector[T]) begin() {
	r.fed = true
	r.store.Begin()
}

// transform applies Options.Transform to obj.
func (r *Reflector[T]) transform(obj T) T {
	if r.opts.Transform == nil {
		return obj
	}
	out, ok := r.opts.Transform(obj).(T)
	if !ok {
		// A programming error: the store must only ever hold Ts.
		panic(fmt.Sprintf("reflector: Options.Transform returned %T for a %T; it must return a non-nil %T", out, obj, obj))
	}
	return out
}
