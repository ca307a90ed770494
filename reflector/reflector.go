package reflector

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/backoffpolicy"
)

// Source is what a Reflector reads: a *client.Resource[T] (typed,
// dynamic or metadata-only, namespaced or not) is one. A
// *client.Resource[T] is listed through its ListStream when its answers
// are JSON, CBOR or protobuf (see Options.ListInPages); another Source, such as a type
// embedding a *client.Resource to wrap its List, is listed through its
// List, in pages, unless it is a ListStreamer that opts in.
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
	// Idle: the shard selector selects nothing; the store is synced and
	// empty, and no request is made until the selector changes.
	Idle
)

var stateNames = [...]string{"Stopped", "WatchListing", "Listing", "Watching", "BackingOff", "Idle"}

func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Reflector keeps a Store in step with a collection on the server. Make
// one with New and call Run once. State, Relists, Err and WaitForSync may
// be called from any goroutine.
type Reflector[T client.Object] struct {
	src     Source[T]
	store   Store[T] // raw behind the shard filter (shardFiltered)
	raw     Store[T] // the Store given to New
	opts    Options
	name    string
	log     *slog.Logger
	metrics Metrics

	state     atomic.Int32
	relists   atomic.Int64
	partLists atomic.Int64
	health    health
	shard     shardState
	storeMu   sync.Mutex // serializes the store calls of Run's goroutine and of a part (widen.go)

	// Owned by the goroutine running Run.
	dec       *wire.Decoder
	watchList bool   // false once streaming lists were refused or hung
	rv        string // last resourceVersion seen; "" means a relist is due
	newest    string // the newest resourceVersion the store was given, kept across relists
	why       Reason // why the next full state is read
	fed       bool   // the store has been given a stream (Begin) since Run started
	pageSize  int64  // the page size of lists, once a page was too large; 0: Options.PageSize
	inPages   bool   // list in pages from now on: the Source cannot stream lists (streamlist.go)
	bo        *backoffpolicy.Backoff
	next      State // state after BackingOff
	wait      time.Duration
	asked     time.Duration // the part of wait the server asked for
	retryNow  chan struct{} // RetryNow
	// Failures of one kind since the last watch event; see onFailure.
	expiredInRow, tooLargeInRow int
	// sameInRow counts failures in a row of the same sameKind.
	sameKind  string
	sameInRow int
	sel       client.ShardSelector // the shard selector of requests
	strays    int                  // objects outside sel since it was set or a full state began
	selector  selectorFilter       // the label and field selectors, as the client can check them
	runCtx    context.Context
	part      *part[T] // a range gained, being listed beside the watch (widen.go)
	floors    []floor  // parts of the store ahead of the watch's resourceVersion (widen.go)
}

// New returns a Reflector that feeds store from src. It fails with an
// error matching client.ErrInvalidOptions when src or store is nil or
// opts are invalid (see Options.Validate), so that Run never fails for
// its options.
func New[T client.Object](src Source[T], store Store[T], opts Options) (*Reflector[T], error) {
	if src == nil || store == nil {
		return nil, invalidf("New needs a Source and a Store (got %T and %T)", src, store)
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.WatchListTimeout <= 0 {
		opts.WatchListTimeout = DefaultWatchListTimeout
	}
	if opts.WatchTimeout <= 0 {
		opts.WatchTimeout = DefaultWatchTimeout
	}
	switch {
	case opts.IdleTimeout == 0:
		opts.IdleTimeout = DefaultIdleTimeout
	case opts.IdleTimeout < 0:
		opts.IdleTimeout = 0 // the client's "no limit"
	}
	if opts.InitialBackoff <= 0 {
		opts.InitialBackoff = DefaultInitialBackoff
	}
	if opts.MaxBackoff <= 0 {
		opts.MaxBackoff = DefaultMaxBackoff
	}
	if opts.MaxServerWait <= 0 {
		opts.MaxServerWait = DefaultMaxServerWait
	}
	if opts.HealthyPeriod <= 0 {
		opts.HealthyPeriod = DefaultHealthyPeriod
	}
	var m Metrics = noMetrics{}
	if opts.Metrics != nil {
		m = opts.Metrics
	}
	r := &Reflector[T]{raw: store, opts: opts, src: src, name: nameOf(src, opts.Name), log: loggerOf(src, opts.Logger), metrics: m,
		selector: newSelectorFilter(opts.LabelSelector, opts.FieldSelector)}
	r.store = shardFiltered[T]{lockStore[T]{store, &r.storeMu}, r}
	r.health.init()
	r.shard.latest, r.shard.wake = opts.ShardSelector, make(chan struct{}, 1)
	r.retryNow = make(chan struct{}, 1)
	return r, nil
}

// nameOf names the collection src reads, for errors and logs.
func nameOf(src any, name string) string {
	if name != "" {
		return name
	}
	if s, ok := src.(fmt.Stringer); ok {
		return s.String()
	}
	return fmt.Sprintf("the collection of %T", src)
}

// loggerOf is the Reflector's logger: the one given, else src's Client's.
func loggerOf(src any, log *slog.Logger) *slog.Logger {
	if log != nil {
		return log
	}
	if s, ok := src.(interface{ Client() *client.Client }); ok {
		if c := s.Client(); c != nil && c.Logger() != nil {
			return c.Logger()
		}
	}
	return slog.Default()
}

// State returns the state the Reflector is in.
func (r *Reflector[T]) State() State { return State(r.state.Load()) }

// Relists counts the full states (lists or streaming lists) Run started.
func (r *Reflector[T]) Relists() int64 { return r.relists.Load() }

// PartLists counts the lists of shard ranges gained (see
// SetShardSelector) Run started: lists of a part of the collection, not
// of what the store held.
func (r *Reflector[T]) PartLists() int64 { return r.partLists.Load() }

// Run keeps the store in step with the server until ctx ends, through
// dropped watches, expired resource versions and server failures, and
// then returns ctx's error, after every goroutine it started has ended.
// New checked the options, so Run does not fail for them (it would
// return early with an error matching client.ErrInvalidOptions if the
// client refused a request's options anyway). Failures the server keeps answering are
// reported by Err and WaitForSync, and logged, while Run retries. Run
// may be called once.
func (r *Reflector[T]) Run(ctx context.Context) error {
	r.dec = decoderFor(r.raw)
	r.watchList = r.opts.WatchList
	r.bo = backoffpolicy.Policy{Initial: r.opts.InitialBackoff, Max: r.opts.MaxBackoff}.New()
	defer r.health.stop()
	defer r.state.Store(int32(Stopped))
	r.runCtx = ctx
	defer r.stopPart()
	r.sel = r.ShardSelector()
	r.takeShardChange()
	r.setFiltering()
	s := r.relistState(ReasonInitial)
	if r.sel.SelectsNothing() {
		s = Idle
	}
	for ctx.Err() == nil {
		if r.partListed() {
			s = r.joinPart()
		}
		if sel, ok := r.takeShardChange(); ok {
			s = r.reshard(sel)
		}
		if r.part != nil && (s == WatchListing || s == Listing) {
			// A full state is read after all: it takes the part in.
			r.sel = union(r.sel, r.part.sel)
			r.stopPart()
		}
		r.transition(s)
		// A shard selector change ends the attempt's context; the state
		// returns Stopped and the change is taken above.
		actx, done := r.attempt(ctx)
		var err error
		switch s {
		case WatchListing:
			s, err = r.watchListing(actx)
		case Listing:
			s, err = r.listing(actx)
		case Watching:
			s, err = r.watching(actx, nil)
		case BackingOff:
			s = r.backingOff(actx)
		case Idle:
			s = r.idle(actx)
		default: // Stopped: only returned when ctx ended, or the attempt was interrupted
			s = r.relistState(ReasonRetry)
		}
		done()
		if errors.Is(err, client.ErrInvalidOptions) {
			return err
		}
	}
	return ctx.Err()
}

func (r *Reflector[T]) transition(s State) {
	if old := State(r.state.Swap(int32(s))); old != s {
		r.log.Debug("reflector: transition", "resource", r.name, "from", old, "to", s, "resourceVersion", r.rv)
	}
}

// relistState is the state that reads a new full state, for why: a
// streaming list unless streaming lists were given up, or the token may
// not watch (then a paginated list it may still be allowed).
func (r *Reflector[T]) relistState(why Reason) State {
	r.rv, r.why = "", why
	if r.watchList && !r.useListing() {
		return WatchListing
	}
	return Listing
}

// begin starts a full state stream into the store.
func (r *Reflector[T]) begin() {
	r.fed = true
	r.strays = 0
	r.floors = nil
	r.store.Begin()
}

// end completes a full state at resourceVersion rv.
func (r *Reflector[T]) end(rv string) {
	r.advance(rv)
	// The decoder's tables were sized by the full state; the watch
	// grows them again with what its events repeat (see
	// wire.Decoder.Release).
	r.dec.Release()
	r.store.End(rv)
	r.syncedShard()
	r.health.synced()
}

// advance records rv, a version the store was given, as the one to
// watch from.
func (r *Reflector[T]) advance(rv string) {
	r.rv = rv
	if older, err := before(rv, r.newest); rv != "" && !older && err == nil {
		r.newest = rv
	}
}
