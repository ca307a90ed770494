package reflector

import (
	"log/slog"
	"time"

	"github.com/kubewire/kubewire/client"
)

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
	// InitialListFromCache makes the first list of list-then-watch ask
	// for resourceVersion "0": the API server answers from its watch
	// cache, in one response (the cache ignores the page size), instead
	// of a consistent read from etcd. That state may be slightly stale;
	// the watch that follows delivers every change since. It applies only
	// while the store has received nothing: later lists (after a 410, a
	// streaming list given up midway, a failure) are consistent reads, so
	// that no object goes back to an older version.
	InitialListFromCache bool

	// WatchTimeout is the base of each watch's timeoutSeconds; the value
	// sent is randomized in [WatchTimeout, 2*WatchTimeout) so that many
	// clients do not reconnect at once (default DefaultWatchTimeout).
	WatchTimeout time.Duration
	// IdleTimeout restarts a watch, from the last resourceVersion seen,
	// when nothing, bookmarks included, arrived for this long: the
	// connection is presumed stuck. Zero: no limit. Servers send a
	// bookmark about once a minute, so a few minutes is a safe value.
	IdleTimeout time.Duration

	// InitialBackoff and MaxBackoff bound the jittered exponential wait
	// after a failure (defaults DefaultInitialBackoff, DefaultMaxBackoff).
	// The wait goes back to InitialBackoff once a watch stayed up for
	// HealthyPeriod (default DefaultHealthyPeriod).
	InitialBackoff time.Duration
	MaxBackoff     time.Duration
	HealthyPeriod  time.Duration

	// Transform, when set, is applied to every object before the store
	// receives it: list items and the objects of streaming-list and watch
	// events (deletions included), not bookmarks. Use it to drop what the
	// program never reads, for example managedFields, so that the store
	// holds less:
	//
	//	Transform: func(o client.Object) client.Object {
	//		pod := o.(*corev1.Pod)
	//		pod.ManagedFields = nil
	//		return pod
	//	}
	//
	// It runs on Run's goroutine and receives the Reflector's object type
	// T. Objects come from a ReadOnly wire.Decoder that shares equal
	// strings, maps and slices between objects: Transform may set the
	// object's own fields or return a new object, but must not modify the
	// contents of a map or slice in place. It must return a non-nil T with
	// the same namespace, name and resourceVersion; Run panics on another
	// type, a programming error.
	Transform func(client.Object) client.Object

	// Metrics receives measurements of lists, watches and waits (default:
	// none).
	Metrics Metrics
	// Logger receives debug records of state transitions (default: none).
	Logger *slog.Logger
}

// Metrics receives a Reflector's measurements, for a metrics library of
// the program's choice. Its methods are called on the goroutine running
// Run, one at a time, and must return quickly: the Reflector waits.
type Metrics interface {
	// ListStarted reports the start of a full state read: how (Listing
	// or WatchListing) and why.
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
	// that caused it.
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
)

// noMetrics is the Metrics of a Reflector without one.
type noMetrics struct{}

func (noMetrics) ListStarted(State, Reason)                 {}
func (noMetrics) ListDone(State, int, time.Duration, error) {}
func (noMetrics) WatchEvent(client.EventType)               {}
func (noMetrics) WatchEnded(time.Duration, int, error)      {}
func (noMetrics) BackingOff(time.Duration, error)           {}
