package fake

import (
	"net/http"
	"sync"
	"time"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/watch"
)

// WatchListMode is how the server answers watch-list requests
// (sendInitialEvents=true).
type WatchListMode int

const (
	// WatchListSupported serves the initial state and ends it with the
	// k8s.io/initial-events-end bookmark, like kube-apiserver v1.36.
	WatchListSupported WatchListMode = iota
	// WatchListRefused answers 400 Bad Request, as a server without
	// watch-list support does; clients fall back to list-then-watch.
	WatchListRefused
	// WatchListNoEndBookmark serves the initial state but never sends
	// the end bookmark, like some aggregated servers: clients need a
	// deadline.
	WatchListNoEndBookmark
)

// Faults switches injected failures on and off at run time. Get it with
// Server.Faults. Its methods are safe for concurrent use and take effect
// for requests that arrive (or watch events sent) after they return.
type Faults struct {
	mu            sync.Mutex
	failN         int
	failCode      int
	retryAfter    int
	tooLargeN     int
	latency       time.Duration
	noProtobuf    bool
	noPBBodies    bool
	notAcceptN    int
	watchList     WatchListMode
	dropAfterGen  int
	dropAfterN    int
	closeMidEvent bool
	corruptFrame  bool
	drop          chan struct{} // closed to end every open watch
	rules         []*faultRule  // Add's faults, in order
}

func (f *Faults) init() { f.drop = make(chan struct{}) }

// faults is the server's fault set (an alias keeps field names short).
type faults = Faults

// Faults returns the server's fault switches.
func (s *Server) Faults() *Faults { return &s.faults }

// Clear switches every fault off.
func (f *Faults) Clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failN, f.tooLargeN, f.latency, f.notAcceptN = 0, 0, 0, 0
	f.noProtobuf, f.noPBBodies, f.watchList = false, false, WatchListSupported
	f.dropAfterN, f.closeMidEvent, f.corruptFrame = 0, false, false
	f.rules = nil
}

// FailNext answers the next n requests, whatever they are (discovery and
// the watches and lists of informers included), with code (429, 500,
// 503, 504...) and a matching Status body; Add aims a fault at some
// requests only. retryAfter, rounded up to whole seconds, is
// sent as Retry-After (and, for 429, as details.retryAfterSeconds) when
// positive.
func (f *Faults) FailNext(n, code int, retryAfter time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failN, f.failCode = n, code
	f.retryAfter = int((retryAfter + time.Second - 1) / time.Second)
}

// TooLargeResourceVersionNext answers the next n get and list requests
// that carry a resourceVersion with 504 "Too large resource version" and
// Retry-After: 1, as a server behind the requested version does. Watches
// from a resourceVersion (other than "0") count too: they get the same
// Status as an ERROR event, as kube-apiserver's watch cache sends when it
// does not catch up with the version in time.
func (f *Faults) TooLargeResourceVersionNext(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tooLargeN = n
}

// SetLatency delays the start of every request by d (watch events
// already flowing are not delayed).
func (f *Faults) SetLatency(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.latency = d
}

// RefuseProtobuf makes the server serve JSON only, as for custom
// resources: a protobuf-only Accept gets 406.
func (f *Faults) RefuseProtobuf(refuse bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.noProtobuf = refuse
}

// RefuseProtobufBodies makes creates and updates (the scale subresource
// included) with a protobuf body fail with 415 UnsupportedMediaType, as a
// server that decodes only JSON and YAML does; clients resend as JSON.
// Responses are unaffected (see RefuseProtobuf).
func (f *Faults) RefuseProtobufBodies(refuse bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.noPBBodies = refuse
}

// NotAcceptableNext answers the next n requests (after any FailNext
// ones) with 406 Not Acceptable and the Status body kube-apiserver sends,
// in the encoding the client accepts, as a proxy or aggregated server
// that refuses the request's Accept header does. With Options.CBOR on,
// the Status lists application/cbor among the served media types.
func (f *Faults) NotAcceptableNext(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notAcceptN = n
}

// SetWatchList sets how watch-list requests are answered.
func (f *Faults) SetWatchList(m WatchListMode) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.watchList = m
}

// DropWatches ends every open watch now (the response ends cleanly, as
// when kube-apiserver closes a watch).
func (f *Faults) DropWatches() {
	f.mu.Lock()
	defer f.mu.Unlock()
	close(f.drop)
	f.drop = make(chan struct{})
}

// DropWatchesAfter ends each watch after it has sent n more events
// (ADDED, MODIFIED, DELETED or BOOKMARK), from now on, until Clear or
// DropWatchesAfter(0).
func (f *Faults) DropWatchesAfter(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.dropAfterGen++
	f.dropAfterN = n
}

// CloseNextEventMidway makes the next watch event be cut off halfway and
// the connection closed, as when a connection breaks.
func (f *Faults) CloseNextEventMidway() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closeMidEvent = true
}

// CorruptNextEvent makes the next watch event's bytes garbage (a frame
// whose payload is not a WatchEvent, or a JSON document that does not
// parse); the stream ends after it.
func (f *Faults) CorruptNextEvent() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.corruptFrame = true
}

// Restart drops every connection and every open watch, keeping the data,
// as a kube-apiserver restart does. Like a restarted kube-apiserver, whose
// new watch cache starts at the version it listed, it then answers a watch
// from an older resourceVersion with 410 Gone ("too old resource version:
// 1405 (1407)"); a watch from the current version, lists and continue
// tokens are served as before.
func (s *Server) Restart() {
	s.store.RestartWatchCache()
	s.faults.DropWatches()
	if s.http != nil {
		s.http.CloseClientConnections()
	}
}

// Compact forgets the history of changes up to now: watches, continue
// tokens and Exact lists from older resource versions get 410 Gone. It
// models an etcd compaction together with an empty watch cache:
// kube-apiserver keeps serving the versions its watch cache holds after
// a compaction, so a real cluster answers 410 only for older ones (see
// the package documentation).
func (s *Server) Compact() { s.store.Compact() }

func (f *Faults) refuseProtobuf() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.noProtobuf
}

func (f *Faults) refuseProtobufBodies() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.noPBBodies
}

func (f *Faults) watchListMode() WatchListMode {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.watchList
}

func (f *Faults) dropChan() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.drop
}

// beforeRequest takes one injected failure (FailNext, then
// NotAcceptableNext), if any, and the latency. cbor says whether the
// server serves CBOR: its 406 then lists application/cbor, as
// kube-apiserver's does with the gate on.
func (f *Faults) beforeRequest(cbor bool) (*apierr.Error, time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failN > 0 {
		f.failN--
		var e *apierr.Error
		if f.failCode == http.StatusTooManyRequests {
			e = apierr.TooManyRequests(max(f.retryAfter, 1))
		} else {
			e = apierr.Server(f.failCode, registry.Kind{}, "")
			e.RetryAfter = f.retryAfter
		}
		return e, f.latency
	}
	if f.notAcceptN > 0 {
		f.notAcceptN--
		return apierr.NotAcceptableMediaTypes(cbor), f.latency
	}
	return nil, f.latency
}

// takeTooLarge reports whether to answer "too large resource version".
func (f *Faults) takeTooLarge() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tooLargeN > 0 {
		f.tooLargeN--
		return true
	}
	return false
}

// nextEvent returns the fault for an event about to be sent, and whether
// the watch must end before it (DropWatchesAfter reached).
func (f *Faults) nextEvent(ws *watch.State) (watch.EventFault, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ws.Gen != f.dropAfterGen {
		ws.Gen, ws.Sent = f.dropAfterGen, 0
	}
	if f.dropAfterN > 0 && ws.Sent >= f.dropAfterN {
		return watch.EventOK, true
	}
	ws.Sent++
	switch {
	case f.closeMidEvent:
		f.closeMidEvent = false
		return watch.EventCutMidway, false
	case f.corruptFrame:
		f.corruptFrame = false
		return watch.EventCorrupt, false
	}
	return watch.EventOK, false
}

// faultsForWatches is what watches see of the faults.
type faultsForWatches struct{ f *Faults }

func (a faultsForWatches) RefuseProtobuf() bool      { return a.f.refuseProtobuf() }
func (a faultsForWatches) TakeTooLarge() bool        { return a.f.takeTooLarge() }
func (a faultsForWatches) DropChan() <-chan struct{} { return a.f.dropChan() }
func (a faultsForWatches) NextEvent(ws *watch.State) (watch.EventFault, bool) {
	return a.f.nextEvent(ws)
}

func (a faultsForWatches) WatchListMode() watch.ListMode {
	switch a.f.watchListMode() {
	case WatchListRefused:
		return watch.ListRefused
	case WatchListNoEndBookmark:
		return watch.ListNoEndBookmark
	}
	return watch.ListSupported
}
