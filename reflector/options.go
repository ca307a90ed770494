package reflector

import (
	"cmp"
	"fmt"
	"log/slog"
	"time"

	"github.com/kubewire/kubewire/client"
)

// Defaults of Options.
const (
	DefaultWatchListTimeout = time.Minute
	DefaultWatchTimeout     = 5 * time.Minute
	DefaultIdleTimeout      = 3 * time.Minute
	DefaultInitialBackoff   = 800 * time.Millisecond
	DefaultMaxBackoff       = 30 * time.Second
	DefaultMaxServerWait    = time.Minute
	DefaultHealthyPeriod    = 2 * time.Minute
)

// Options configure a Reflector. The zero value asks for the defaults;
// New refuses values no caller can mean (see Validate).
type Options struct {
	// LabelSelector and FieldSelector restrict the collection. They are
	// sent to the server and applied on the client as well (labels, and
	// metadata.name and metadata.namespace fields), so that a server
	// ignoring them does not fill the store: an object outside them is
	// dropped, and an update taking a stored one out is a deletion.
	LabelSelector client.Selector
	FieldSelector client.Selector
	// ShardSelector restricts it to a part of the hash space of uids or
	// namespaces (KEP-5866); SetShardSelector changes it while Run runs.
	// It is sent with every list, streaming list and watch, and applied
	// on the client as well, so that the store holds only the part on a
	// server that ignores it (see ShardFiltering). One that selects
	// nothing makes no request (the Idle state).
	ShardSelector client.ShardSelector

	// WatchList reads full states with streaming lists (a watch with
	// sendInitialEvents, KEP-3157) instead of lists; the Reflector falls
	// back to lists for good when the server refuses them or sends no
	// end bookmark in time. Off by default: kube-apiserver v1.36.3 sends
	// a collection as a streaming list more slowly than as one list
	// (5,000 custom resources: 1.5-2.1x the time of one unpaged GET; Pods
	// alike), and a list, streamed into the store as it is decoded (see
	// ListInPages), holds little more. Both modes deliver every change:
	// the watch starts at the full state's resourceVersion, and a 410
	// relists.
	WatchList bool
	// DisableWatchList asks for lists, the default.
	//
	// Deprecated: lists are the default; setting it together with
	// WatchList is an error.
	DisableWatchList bool
	// WatchListTimeout is how long a streaming list may take to send its
	// end bookmark before the Reflector gives up on streaming lists and
	// falls back to list-then-watch for good (default
	// DefaultWatchListTimeout). Used with WatchList.
	WatchListTimeout time.Duration
	// PageSize is the page size of list-then-watch when it lists in pages
	// (default: the pager's).
	PageSize int64
	// ListInPages makes list-then-watch read every full state in pages
	// of PageSize. By default a collection whose answers are JSON, CBOR
	// or protobuf (built-in kinds, custom resources and dynamic reads)
	// is read as one unpaged consistent
	// list decoded as it arrives (client.Resource.ListStream), holding
	// one object's bytes at a time: kube-apiserver v1.36 serves it from
	// its watch cache, while the pages after a paginated list's first
	// come from etcd once etcd's history was compacted past the
	// collection's last write (5,000 custom resources on a compacted
	// cluster: 3.4x the time of one unpaged GET in pages of 500).
	// Metadata views, Sources that wrap a Resource without
	// opting in (see ListStreamer), and collections over the client's
	// Config.MaxResponseBytes, are read in pages.
	ListInPages bool
	// InitialListFromCache makes the first list of list-then-watch ask
	// for resourceVersion "0": the API server answers from its watch
	// cache, in one response (the cache ignores the page size), instead
	// of a consistent read from etcd. That state may be slightly stale;
	// the watch that follows delivers every change since. It applies only
	// while the store has received nothing: later lists (after a 410, a
	// streaming list given up midway, a failure) are consistent reads, so
	// that no object goes back to an older version. An answer larger than
	// the client's Config.MaxResponseBytes is not an error: the Reflector
	// lists again at once, in pages.
	InitialListFromCache bool

	// WatchTimeout is the base of each watch's timeoutSeconds; the value
	// sent is randomized in [WatchTimeout, 2*WatchTimeout) so that many
	// clients do not reconnect at once (default DefaultWatchTimeout).
	WatchTimeout time.Duration
	// IdleTimeout restarts a watch, from the last resourceVersion seen,
	// when nothing, bookmarks included, arrived for this long, or when the
	// server did not answer the watch request at all: the connection is
	// presumed stuck. kube-apiserver (v1.36, with its watch cache) sends
	// a bookmark about once a minute to a watch that allows them (the
	// Reflector's do; the first came up to two minutes after the watch
	// started in the e2e cluster), so a quiet collection does not trip
	// it. Without the watch cache (--watch-cache=false) it sends none,
	// and a quiet watch is resumed every IdleTimeout. Default
	// DefaultIdleTimeout; negative: no limit (the client still ends a
	// watch the server keeps 30 s past its timeoutSeconds).
	IdleTimeout time.Duration

	// InitialBackoff and MaxBackoff bound the jittered exponential wait
	// after a failure (defaults DefaultInitialBackoff, DefaultMaxBackoff):
	// the first wait is within [InitialBackoff/2, InitialBackoff·1.5], each
	// next one about twice as long, and no wait is longer than MaxBackoff,
	// jitter included. The wait goes back to InitialBackoff once a watch
	// delivered an event or stayed up for HealthyPeriod (default
	// DefaultHealthyPeriod).
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
	HealthyPeriod  time.Duration
	// MaxServerWait bounds every wait the server asks for: the
	// Retry-After of a 429 (header or retryAfterSeconds), and the wait
	// after "too large resource version" (default DefaultMaxServerWait). A
	// server, or a proxy, asking for more is not obeyed past it.
	MaxServerWait time.Duration

	// Name names the collection in errors and log records. Default: the
	// source's String method when it has one, as *client.Resource does
	// ("pods (v1) in namespace shop").
	Name string

	// Metrics receives measurements of lists, watches and waits (default:
	// none).
	Metrics Metrics
	// Logger receives a Warn record when a persistent failure starts (and
	// again when its error changes), an Info record when it ends, and
	// debug records of transitions and waits. Default: the logger of the
	// source's Client (Resource.Client().Logger()) when the source has
	// one, so that one logger serves the whole program; otherwise
	// slog.Default().
	Logger *slog.Logger
}

// Validate reports options a Reflector cannot run with: a selector that
// carries an error (client.LabelSelector's builders record one), a shard
// selector the client cannot send, WatchList with DisableWatchList, a
// negative page size or duration
// (IdleTimeout excepted: negative turns it off), an InitialBackoff longer
// than MaxBackoff. The error matches client.ErrInvalidOptions. New calls
// it; an informer.Factory calls it for its base options.
func (o Options) Validate() error {
	for _, sel := range []struct {
		what string
		s    client.Selector
	}{{"LabelSelector", o.LabelSelector}, {"FieldSelector", o.FieldSelector}} {
		if e, ok := sel.s.(interface{ Err() error }); ok && e.Err() != nil {
			return fmt.Errorf("reflector: %s: %w", sel.what, invalid{e.Err()})
		}
	}
	if err := o.ShardSelector.Validate(); err != nil {
		return fmt.Errorf("reflector: ShardSelector: %w", err)
	}
	if o.WatchList && o.DisableWatchList {
		return invalidf("WatchList and DisableWatchList are both set")
	}
	if o.PageSize < 0 {
		return invalidf("PageSize %d is negative", o.PageSize)
	}
	for _, d := range []struct {
		what string
		d    time.Duration
	}{
		{"WatchListTimeout", o.WatchListTimeout}, {"WatchTimeout", o.WatchTimeout},
		{"InitialBackoff", o.InitialBackoff}, {"MaxBackoff", o.MaxBackoff},
		{"HealthyPeriod", o.HealthyPeriod}, {"MaxServerWait", o.MaxServerWait},
	} {
		if d.d < 0 {
			return invalidf("%s %v is negative", d.what, d.d)
		}
	}
	initial, maxWait := cmp.Or(o.InitialBackoff, DefaultInitialBackoff), cmp.Or(o.MaxBackoff, DefaultMaxBackoff)
	if initial > maxWait {
		return invalidf("InitialBackoff %v is longer than MaxBackoff %v", initial, maxWait)
	}
	return nil
}

// invalid is an error about options: it matches client.ErrInvalidOptions
// and wraps the cause.
type invalid struct{ error }

func (e invalid) Unwrap() error { return e.error }

func (e invalid) Is(target error) bool { return target == client.ErrInvalidOptions }

func invalidf(format string, args ...any) error {
	return fmt.Errorf("reflector: %w", invalid{fmt.Errorf(format, args...)})
}

// Metrics receives a Reflector's measurements, for a metrics library of
// the program's choice. Its methods are called on the goroutine running
// Run, one at a time, and must return quickly: the Reflector waits.
type Metrics interface {
	// ListStarted reports the start of a full state read: how (Listing
	// or WatchListing) and why; or, with ReasonShardWidened, of the list
	// of the shard ranges gained (listed on a goroutine of its own; its
	// ListStarted and ListDone are still called on Run's).
	ListStarted(how State, why Reason)
	// ListDone reports its end: the objects it delivered, how long it
	// took, and the error that ended it (nil when the state was complete).
	ListDone(how State, items int, took time.Duration, err error)
	// WatchEvent reports one event of a watch applied to the store (the
	// initial events of a streaming list count as ListDone's items).
	WatchEvent(typ client.EventType)
	// WatchEnded reports the end of a watch, or of a watch request the
	// server refused: how long it lasted (for the watch of a streaming
	// list, since its end bookmark), how many events (bookmarks
	// included) it delivered and the error that ended it (io.EOF when the
	// server closed it, client.ErrWatchIdle after IdleTimeout).
	WatchEnded(took time.Duration, events int, err error)
	// BackingOff reports a wait before the next attempt and the error
	// that caused it, the short pause before a watch that ended cleanly
	// resumes included.
	BackingOff(wait time.Duration, cause error)
}

// Reason says why a Reflector reads a full state.
type Reason string

// The reasons for a full state read.
const (
	// ReasonInitial: the first full state of Run.
	ReasonInitial Reason = "initial"
	// ReasonExpired: the server answered 410 Gone, the resourceVersion
	// the Reflector was at has been compacted away.
	ReasonExpired Reason = "expired"
	// ReasonFallback: the server refused the streaming list, or sent no
	// end bookmark in time; a paginated list follows.
	ReasonFallback Reason = "watch-list-fallback"
	// ReasonRetry: the previous full state read failed.
	ReasonRetry Reason = "retry"
	// ReasonTooLarge: the server stayed behind the resourceVersion a
	// watch asked for ("too large resource version") several times in a
	// row.
	ReasonTooLarge Reason = "too-large-resource-version"
	// ReasonRefused: the server refused a watch (400, 401, 403, 404, 405,
	// 422), or answered it with the same error several times in a row:
	// resuming from the same resourceVersion would be refused again.
	ReasonRefused Reason = "refused"
	// ReasonShardChanged: the shard selector changed to include objects
	// the store does not hold, and they could not be listed on their own
	// (see ReasonShardWidened).
	ReasonShardChanged Reason = "shard-changed"
	// ReasonShardWidened: the shard selector grew while the store was in
	// step; only the ranges gained are listed (a list of a part, not a
	// full state: Relists does not count it, PartLists does), while the
	// watch of the rest goes on.
	ReasonShardWidened Reason = "shard-widened"
)

// noMetrics is the Metrics of a Reflector without one.
type noMetrics struct{}

func (noMetrics) ListStarted(State, Reason)                 {}
func (noMetrics) ListDone(State, int, time.Duration, error) {}
func (noMetrics) WatchEvent(client.EventType)               {}
func (noMetrics) WatchEnded(time.Duration, int, error)      {}
func (noMetrics) BackingOff(time.Duration, error)           {}
