package client

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"time"

	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/runtime/errtext"
)

// EventType is the type of a watch event.
type EventType string

// The event types of a watch. ERROR events are not events: Next returns
// them as a *StatusError (ErrExpired when the resourceVersion is too old).
const (
	Added    EventType = codec.EventAdded
	Modified EventType = codec.EventModified
	Deleted  EventType = codec.EventDeleted
	Bookmark EventType = codec.EventBookmark
)

// InitialEventsEndAnnotation marks the bookmark that ends the initial
// events of a streaming list (sendInitialEvents=true).
const InitialEventsEndAnnotation = "k8s.io/initial-events-end"

// ErrWatchIdle ends a watch that received nothing, not even a bookmark,
// for WatchOptions.IdleTimeout.
var ErrWatchIdle = errors.New("watch idle for longer than its idle timeout")

// Event is one change seen by a watch.
type Event[T Object] struct {
	Type EventType
	// Object is the object after the change (for Deleted, its last
	// state). For Bookmark it holds only metadata: resourceVersion and
	// annotations.
	Object T
	// ResourceVersion is Object's resourceVersion: the version to resume
	// a watch from after this event.
	ResourceVersion string
	// InitialEventsEnd is true for the bookmark that ends the initial
	// events of a streaming list: the state sent so far is the whole
	// collection at ResourceVersion.
	InitialEventsEnd bool
}

// Watcher reads the events of one watch. It is pull-based: nothing runs
// in the background, each Next reads from the connection in the caller's
// goroutine. It is for a single goroutine, except Close, which any
// goroutine may call to end a blocked Next.
//
// A watch ends (Next returns an error) when the server closes it (io.EOF,
// as after timeoutSeconds), on an ERROR event (*StatusError), when the
// connection fails, when ctx ends (ctx's error), on Close (ErrWatchClosed)
// or after IdleTimeout without events (ErrWatchIdle). It never restarts
// itself: resuming from the last ResourceVersion is the caller's (the
// reflector's) decision. Once ended, the connection is released; Close
// is still safe to call.
type Watcher[T Object] struct {
	*watchConn
	newObj func() T
	// checkKind is the Resource's: events hold objects of its kind.
	checkKind func(apiVersion, kind string, list bool) error
	// checkNamespace is the Resource's: events hold objects of its
	// namespace.
	checkNamespace func(T) error
}

// watchEndGrace is how long past its timeoutSeconds a watch may run
// before the client ends it: the server ends it at that time, give or
// take its own scheduling.
const watchEndGrace = 30 * time.Second

// ErrWatchClosed ends a watch after Close.
var ErrWatchClosed = errors.New("watch closed")

// Watch starts a watch of the collection and returns once the server
// accepted it (the answer's headers arrived). Read the events with Next
// or Events. The watch holds a connection until it ends: call Close (or
// end ctx) when done.
func (r *Resource[T]) Watch(ctx context.Context, opts WatchOptions) (*Watcher[T], error) {
	p, err := r.collectionPath("watch")
	if err != nil {
		return nil, err
	}
	q, err := opts.query()
	if err != nil {
		return nil, err
	}
	as := ""
	if r.info.as != "" {
		as = r.info.as // watch events carry single objects
	}
	conn, err := openWatch(ctx, p, opts, opts.Decoder, r.c.maxEvent, func(wctx context.Context) (*http.Response, error) {
		req := &request{method: "GET", path: p, query: q}
		accept, binary := r.c.acceptFor(&r.info, as)
		req.accept = accept
		resp, err := r.c.stream(wctx, req)
		if binary && errors.Is(err, ErrNotAcceptable) {
			r.c.jsonOnly.refuse(r.info.gvr)
			req.accept = codec.AcceptFor(false, as)
			resp, err = r.c.stream(wctx, req)
		}
		if err == nil {
			r.c.notedAnswer(&r.info, req.accept, resp.Header.Get("Content-Type"))
		}
		return resp, err
	})
	if err != nil {
		return nil, err
	}
	w := &Watcher[T]{watchConn: conn, newObj: r.newObj, checkKind: r.checkKind, checkNamespace: r.checkNamespace}
	return w, nil
}

// Next blocks until the next event and returns it; see Watcher for how a
// watch ends. After an error every call returns the same error.
func (w *Watcher[T]) Next() (Event[T], error) {
	if w.err != nil {
		return Event[T]{}, w.err
	}
	ev, err := w.next()
	if err != nil {
		w.fail(err)
		return Event[T]{}, w.err
	}
	w.active()
	return ev, nil
}

func (w *Watcher[T]) next() (Event[T], error) {
	obj := w.newObj()
	typ, err := w.events.NextObject(obj)
	if err != nil {
		if typ == "" || typ == codec.EventError {
			return Event[T]{}, err
		}
		return Event[T]{}, errorf("watch %s event: %w", typ, err)
	}
	ev := Event[T]{Type: EventType(typ), Object: obj, ResourceVersion: obj.GetResourceVersion()}
	switch ev.Type {
	case Added, Modified, Deleted:
		if err := w.checkKind(obj.GetAPIVersion(), obj.GetKind(), false); err != nil {
			return Event[T]{}, errorf("watch %s event: %w", typ, err)
		}
		if obj.GetName() == "" { // an empty or null object: nothing a cache could key
			return Event[T]{}, errorf("watch %s event: the object has no name: %w", typ, codec.ErrMalformed)
		}
		if err := w.checkNamespace(obj); err != nil {
			return Event[T]{}, errorf("watch %s event: %w", typ, err)
		}
	case Bookmark:
		ev.InitialEventsEnd = obj.GetAnnotations()[InitialEventsEndAnnotation] == "true"
	default:
		return Event[T]{}, errorf("watch: unknown event type %q: %w", errtext.Cut(typ), codec.ErrMalformed)
	}
	return ev, nil
}

// fail records why the watch ended and releases it. A read error caused
// by the end of ctx, Close or the idle timer is reported as that cause.
// Close ends the watch and releases its connection. A Next blocked in
// another goroutine returns ErrWatchClosed. Close always returns nil.
func (w *Watcher[T]) Close() error {
	w.release(ErrWatchClosed)
	return nil
}

// Events returns an iterator over the watch's events. The iteration
// ends after the first error, which it yields (an io.EOF from a server
// that ended the watch included), or when the loop breaks; either way
// the watch is closed.
//
//	for ev, err := range w.Events() { ... }
func (w *Watcher[T]) Events() iter.Seq2[Event[T], error] {
	return func(yield func(Event[T], error) bool) {
		defer w.Close()
		for {
			ev, err := w.Next()
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

// newEventReader reads the events of a watch response, decoding protobuf
// objects through d when it is set, and refusing events over maxEvent
// bytes (zero: codec's default).
func newEventReader(resp *http.Response, d *wire.Decoder, maxEvent int) (*codec.WatchDecoder, error) {
	opts := codec.WatchOptions{StreamOptions: codec.StreamOptions{MaxSize: maxEvent}, Decoder: d}
	return codec.NewWatchDecoder(resp.Header.Get("Content-Type"), resp.Body, opts)
}
