package reflector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/pager"
)

// Source is what a Reflector reads: a *client.Resource[T] (typed,
// dynamic or metadata-only, namespaced or not) is one.
type Source[T client.Object] interface {
	List(ctx context.Context, opts client.ListOptions) (*client.List[T], error)
	Watch(ctx context.Context, opts client.WatchOptions) (*client.Watcher[T], error)
}

// Defaults of Options.
const (
	DefaultWatchListTimeout = time.Minute
	DefaultWatchTimeout     = 5 * time.Minute
	DefaultInitialBackoff   = 800 * time.Millisecond
	DefaultMaxBackoff       = 30 * time.Second
	DefaultHealthyPeriod    = 2 * time.Minute
)

// Options configure a Reflector. The zero value asks for the defaults.
type Options struct {
	// LabelSelector and FieldSelector restrict the collection.
	LabelSelector client.Selector
	FieldSelector client.Selector

	// DisableWatchList starts with list-then-watch instead of a streaming
	// list.
	DisableWatchList bool
	// WatchListTimeout is how long a streaming list may take to send its
	// end bookmark before the Reflector gives up on streaming lists and
	// falls back to list-then-watch for good (default
	// DefaultWatchListTimeout).
	WatchListTimeout time.Duration
	// PageSize is the page size of list-then-watch (default: the pager's).
	PageSize int64

	// WatchTimeout is the base of each watch's timeoutSeconds; the value
	// sent is randomized in [WatchTimeout, 2*WatchTimeout) so that many
	// clients do not reconnect at once (default DefaultWatchTimeout).
	WatchTimeout time.Duration
	// IdleTimeout restarts a watch, from the last resourceVersion seen,
	// when nothing, bookmarks included, arrived for this long. Zero: no
	// limit.
	IdleTimeout time.Duration

	// InitialBackoff and MaxBackoff bound the jittered exponential wait
	// after a failure (defaults DefaultInitialBackoff, DefaultMaxBackoff).
	// The wait goes back to InitialBackoff once a watch stayed up for
	// HealthyPeriod (default DefaultHealthyPeriod).
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
	HealthyPeriod  time.Duration

	// Logger receives debug records of state transitions (default: none).
	Logger *slog.Logger
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
// one with New and call Run once. State may be called from any goroutine.
type Reflector[T client.Object] struct {
	src   Source[T]
	store Store[T]
	opts  Options
	log   *slog.Logger

	state   atomic.Int32
	relists atomic.Int64

	// Owned by the goroutine running Run.
	dec       *wire.Decoder
	watchList bool   // false once streaming lists were refused or hung
	rv        string // last resourceVersion seen; "" means a relist is due
	bo        *backoff.ExponentialBackOff
	next      State // state after BackingOff
	wait      time.Duration
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
	return &Reflector[T]{src: src, store: store, opts: opts, log: log}
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
	s := r.relistState()
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
			s = r.relistState()
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

// relistState is the state that reads a new full state.
func (r *Reflector[T]) relistState() State {
	r.rv = ""
	if r.watchList {
		return WatchListing
	}
	return Listing
}

// backOffThen moves to BackingOff, then to next. A Retry-After the
// server sent lengthens the wait.
func (r *Reflector[T]) backOffThen(next State, cause error) State {
	r.next = next
	r.wait = r.bo.NextBackOff()
	var se *client.StatusError
	if errors.As(cause, &se) {
		if ra, ok := se.RetryAfter(); ok && ra > r.wait {
			r.wait = ra
		}
	}
	r.log.Debug("reflector: backing off", "wait", r.wait, "then", next, "error", cause)
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

// afterFailure picks the next state after err ended a watch: a relist
// for 410 Gone, otherwise a wait before retrying retry.
func (r *Reflector[T]) afterFailure(ctx context.Context, err error, retry State) State {
	if ctx.Err() != nil {
		return Stopped
	}
	if errors.Is(err, client.ErrExpired) {
		return r.relistState()
	}
	return r.backOffThen(retry, err)
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

func (r *Reflector[T]) watchOptions(rv string) client.WatchOptions {
	base := r.opts.WatchTimeout
	return client.WatchOptions{
		LabelSelector:       r.opts.LabelSelector,
		FieldSelector:       r.opts.FieldSelector,
		ResourceVersion:     rv,
		AllowWatchBookmarks: true,
		TimeoutSeconds:      int64((base + rand.N(base)) / time.Second),
		IdleTimeout:         r.opts.IdleTimeout,
		Decoder:             r.dec,
	}
}

// watchListing runs a streaming list: WatchListing → Watching on the
// same watch at its end bookmark; → Listing (for good) when refused or
// when the end bookmark does not come in time; → WatchListing again on
// 410 or after BackingOff on any other failure.
func (r *Reflector[T]) watchListing(ctx context.Context) (State, error) {
	opts := r.watchOptions("")
	send := true
	opts.SendInitialEvents = &send
	opts.ResourceVersionMatch = client.MatchNotOlderThan
	w, err := r.src.Watch(ctx, opts)
	if err != nil {
		if refused(err) {
			r.log.Debug("reflector: streaming list refused; using list-then-watch", "error", err)
			r.watchList = false
			return Listing, err
		}
		if ctx.Err() != nil {
			return Stopped, err
		}
		return r.backOffThen(WatchListing, err), err
	}
	var hung atomic.Bool
	fired := make(chan struct{})
	deadline := time.AfterFunc(r.opts.WatchListTimeout, func() {
		defer close(fired)
		hung.Store(true)
		w.Close()
	})
	// stopDeadline stops the timer, or waits for its callback to finish if
	// it already started, so that no goroutine outlives Run.
	stopped := false
	stopDeadline := func() {
		if !stopped && !deadline.Stop() {
			<-fired
		}
		stopped = true
	}
	r.relists.Add(1)
	r.store.Begin()
	for {
		ev, err := w.Next()
		if err != nil {
			stopDeadline()
			w.Close()
			r.store.Abort()
			if hung.Load() {
				r.log.Debug("reflector: no end bookmark in time; using list-then-watch", "timeout", r.opts.WatchListTimeout)
				r.watchList = false
				return Listing, err
			}
			if ctx.Err() != nil {
				return Stopped, err
			}
			return r.backOffThen(WatchListing, err), err
		}
		switch ev.Type {
		case client.Added, client.Modified:
			r.store.Item(ev.Object)
		case client.Deleted: // a change after the snapshot, before the end bookmark
			r.store.Delete(ev.Object)
		case client.Bookmark:
			if ev.InitialEventsEnd {
				stopDeadline()
				if hung.Load() { // the deadline fired just now: the watch is closed
					r.store.Abort()
					r.watchList = false
					return Listing, nil
				}
				r.rv = ev.ResourceVersion
				r.store.End(r.rv)
				r.transition(Watching)
				return r.watching(ctx, w)
			}
		}
	}
}

// listing runs a paginated list: Listing → Watching from the list's
// resourceVersion; → Listing after BackingOff on failure (410 included).
func (r *Reflector[T]) listing(ctx context.Context) (State, error) {
	r.relists.Add(1)
	p := pager.New(r.src.List, pager.Options{
		ListOptions: client.ListOptions{
			LabelSelector: r.opts.LabelSelector,
			FieldSelector: r.opts.FieldSelector,
			Decoder:       r.dec,
		},
		PageSize: r.opts.PageSize,
	})
	r.store.Begin()
	for obj, err := range p.Items(ctx) {
		if errors.Is(err, pager.ErrRestarted) {
			r.store.Abort()
			r.store.Begin()
			continue
		}
		if err != nil {
			r.store.Abort()
			if ctx.Err() != nil {
				return Stopped, err
			}
			return r.backOffThen(Listing, err), err
		}
		r.store.Item(obj)
	}
	snap := p.Snapshot()
	if !snap.Complete {
		r.store.Abort()
		if ctx.Err() != nil {
			return Stopped, ctx.Err()
		}
		return r.backOffThen(Listing, errors.New("reflector: list ended early")), nil
	}
	r.rv = snap.ResourceVersion
	r.store.End(r.rv)
	return Watching, nil
}

// watching applies watch events from r.rv (on w when a streaming list
// already opened it): → Watching again, from the last resourceVersion
// seen, when the watch ends (at once after a clean end, else after
// BackingOff); → a relist on 410.
func (r *Reflector[T]) watching(ctx context.Context, w *client.Watcher[T]) (State, error) {
	if w == nil {
		var err error
		w, err = r.src.Watch(ctx, r.watchOptions(r.rv))
		if err != nil {
			return r.afterFailure(ctx, err, Watching), err
		}
	}
	defer w.Close()
	start, events := time.Now(), 0
	for {
		ev, err := w.Next()
		if err != nil {
			if time.Since(start) >= r.opts.HealthyPeriod {
				r.bo.Reset()
			}
			clean := errors.Is(err, io.EOF) || errors.Is(err, client.ErrWatchIdle)
			if clean && (events > 0 || time.Since(start) >= time.Second) {
				return Watching, nil // timeoutSeconds, a dropped or a stuck watch: resume at once
			}
			return r.afterFailure(ctx, err, Watching), err
		}
		switch ev.Type {
		case client.Added:
			r.store.Add(ev.Object)
		case client.Modified:
			r.store.Update(ev.Object)
		case client.Deleted:
			r.store.Delete(ev.Object)
		case client.Bookmark:
			r.store.Bookmark(ev.ResourceVersion)
		}
		events++
		if ev.ResourceVersion != "" {
			r.rv = ev.ResourceVersion
		}
	}
}
