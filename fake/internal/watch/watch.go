package watch

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/kubewire/kubewire/fake/internal/table"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/object"
	"github.com/kubewire/kubewire/fake/internal/request"
	"github.com/kubewire/kubewire/fake/internal/storage"
	"google.golang.org/protobuf/encoding/protowire"
)

// InitialEventsEnd is the annotation on the bookmark that ends a
// watch-list's initial events.
const InitialEventsEnd = "k8s.io/initial-events-end"

const WatchGoneMessage = "The resourceVersion for the provided watch is too old."

// Server serves watches.
type Server struct {
	Store               *storage.Store
	Faults              Faults
	Printer             table.Printer
	Timeout             time.Duration // of watches without timeoutSeconds
	BookmarkInterval    time.Duration
	IgnoreShardSelector bool
	Done                <-chan struct{} // closed when the server closes
	// StorageEnds, if set, returns a channel closed when a resource's
	// storage is torn down (its CRD deleted), or nil.
	StorageEnds func(*object.Resource) <-chan struct{}
}

// Faults are the injected faults watches follow.
type Faults interface {
	RefuseProtobuf() bool
	WatchListMode() ListMode
	// TakeTooLarge reports whether to answer "too large resource
	// version" (once per call that reports true).
	TakeTooLarge() bool
	// DropChan is closed to end every open watch.
	DropChan() <-chan struct{}
	// NextEvent returns the fault for an event about to be sent, and
	// whether the watch must end before it.
	NextEvent(*State) (EventFault, bool)
}

// ListMode is how watch-list requests are answered.
type ListMode int

const (
	ListSupported ListMode = iota
	ListRefused
	ListNoEndBookmark
)

// EventFault is what to do to the next watch event.
type EventFault int

const (
	EventOK EventFault = iota
	EventCutMidway
	EventCorrupt
)

// State tracks one watch's DropWatchesAfter count.
type State struct {
	Gen, Sent int
}

// watchPlan is where a watch starts: the synthetic ADDED events to send
// first, the log position to follow from, and the watch-list end bookmark.
type watchPlan struct {
	initial   []*object.Stored
	cursor    int
	startRV   uint64 // changes at or below this version are not sent
	watchList bool   // send the end bookmark once synced to endAtRV
	endAtRV   uint64
	expired   string        // the start version is compacted: send a 410 ERROR event with this message
	tooLarge  *apierr.Error // fault: the server is behind the start version
	noEnd     bool          // fault: a watch-list that never sends its end bookmark
}

func (s *Server) planWatch(r *request.Request, opts *request.ListOptions) (watchPlan, *apierr.Error) {
	var p watchPlan
	requested, _ := strconv.ParseUint(opts.RV, 10, 64)
	switch {
	case opts.SendInitialEvents != nil && *opts.SendInitialEvents:
		switch s.Faults.WatchListMode() {
		case ListRefused:
			return p, apierr.BadRequest("sendInitialEvents is forbidden for watch")
		case ListNoEndBookmark:
			p.noEnd = true
		}
		s.Store.Freshen(r.Res, requested) // (it waits for the watch cache)
		p.initial, p.startRV, p.cursor = s.Store.SnapshotAndCursor(r.Res)
		p.watchList = !p.noEnd
		p.endAtRV = max(p.startRV, requested)
	case opts.RV == "" || opts.RV == "0":
		if opts.SendInitialEvents != nil { // sendInitialEvents=false: start now, no state
			_, p.startRV, p.cursor = s.Store.SnapshotAndCursor(r.Res)
			return p, nil
		}
		p.initial, p.startRV, p.cursor = s.Store.SnapshotAndCursor(r.Res)
	default:
		if s.Faults.TakeTooLarge() {
			p.tooLarge = apierr.TooLargeRV(requested, s.Store.CurrentRV())
			return p, nil
		}
		cursor, err := s.Store.CursorAfter(r.Res, requested)
		if err != nil {
			p.expired = WatchGoneMessage
			var old *storage.TooOldError
			if errors.As(err, &old) {
				p.expired = old.Error()
			}
			return p, nil
		}
		p.cursor, p.startRV = cursor, requested
	}
	return p, nil
}

// watcher streams one watch response. It belongs to its request's
// goroutine.
type watcher struct {
	s       *Server
	r       *request.Request
	opts    *request.ListOptions
	out     request.Output
	w       http.ResponseWriter
	flusher http.Flusher
	state   State
	buf     []byte
	ended   bool            // the stream must end (fault, or write error)
	drop    <-chan struct{} // closed by Faults.DropWatches
	gone    <-chan struct{} // closed when the resource's storage is torn down
}

func (s *Server) Serve(w http.ResponseWriter, req *http.Request, r *request.Request) {
	out, aerr := request.Negotiate(req, r.Res, false, true, s.Faults.RefuseProtobuf())
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	opts, aerr := request.ParseListOptions(req.URL.Query(), r.Res, true)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	if opts.Shard, aerr = request.ParseShardParam(req.URL.Query().Get("shardSelector"), s.IgnoreShardSelector); aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	plan, aerr := s.planWatch(r, opts)
	if aerr != nil {
		request.WriteError(w, req, aerr)
		return
	}
	ct := codec.MediaTypeJSON
	switch out.Format {
	case request.FormatProtobuf:
		ct = codec.MediaTypeProtobuf + ";stream=watch"
	case request.FormatCBOR:
		ct = codec.MediaTypeCBORSequence
	}
	// Taken before the answer's headers: a DropWatches from a client
	// that has seen them ends this watch.
	drop := s.Faults.DropChan()
	var gone <-chan struct{}
	if s.StorageEnds != nil {
		gone = s.StorageEnds(r.Res)
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Cache-Control", "no-cache, private")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	wt := &watcher{s: s, r: r, opts: opts, out: out, w: w, flusher: flusher, drop: drop, gone: gone}
	wt.run(req, plan)
}

func (wt *watcher) flush() {
	if wt.flusher != nil {
		wt.flusher.Flush()
	}
}

func (wt *watcher) run(req *http.Request, p watchPlan) {
	if p.expired != "" {
		wt.sendError(apierr.Gone(p.expired))
		return
	}
	if p.tooLarge != nil {
		wt.sendError(p.tooLarge)
		return
	}
	timeout := wt.opts.Timeout
	if timeout <= 0 {
		timeout = wt.s.Timeout
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var bookmarks <-chan time.Time
	if wt.opts.AllowBookmarks {
		t := time.NewTicker(wt.s.BookmarkInterval)
		defer t.Stop()
		bookmarks = t.C
	}
	drop := wt.drop
	for _, o := range p.initial {
		if wt.visible(o) && !wt.send(storage.Added, o) {
			return
		}
	}
	lastRV := p.startRV
	endPending := p.watchList
	if endPending && p.startRV >= p.endAtRV {
		// kube-apiserver sends the end bookmark right after the initial
		// events, at their version, before anything written since.
		endPending = false
		if wt.opts.AllowBookmarks && !wt.sendBookmark(p.startRV, true) {
			return
		}
	}
	bookmarkDue := false
	cursor := p.cursor
	gone, last := wt.gone, false
	for {
		evs, next, notify, err := wt.s.Store.Since(cursor)
		if err != nil {
			wt.sendError(apierr.Gone(WatchGoneMessage))
			return
		}
		for _, ev := range evs {
			lastRV = max(lastRV, ev.RV)
			if ev.RV <= p.startRV {
				continue
			}
			if typ, o := wt.translate(ev); typ != "" && !wt.send(typ, o) {
				return
			}
		}
		cursor = next
		if endPending && lastRV >= p.endAtRV {
			endPending = false
			// Without allowWatchBookmarks kube-apiserver sends the
			// initial events and no bookmark after them.
			if wt.opts.AllowBookmarks && !wt.sendBookmark(lastRV, true) {
				return
			}
		}
		if bookmarkDue && !endPending {
			bookmarkDue = false
			if !wt.sendBookmark(lastRV, false) {
				return
			}
		}
		wt.flush()
		if last {
			return
		}
		select {
		case <-gone:
			// The changes written before the teardown (the deletes of
			// the CRD's objects) are sent first, then the stream ends.
			gone, last = nil, true
		case <-notify:
		case <-bookmarks:
			bookmarkDue = true
		case <-deadline.C:
			return
		case <-drop:
			return
		case <-req.Context().Done():
			return
		case <-wt.s.Done:
			return
		}
	}
}

// visible reports whether the watch's scope and selectors include o.
func (wt *watcher) visible(o *object.Stored) bool {
	if o == nil || o.Res.Storage != wt.r.Res.Storage {
		return false
	}
	if wt.r.Namespace != "" && o.Namespace != wt.r.Namespace {
		return false
	}
	if wt.r.Name != "" && o.Name != wt.r.Name {
		return false
	}
	return wt.opts.Matches(o)
}

// translate maps a change to what this watch sees: an object entering the
// selection is ADDED, one leaving it DELETED with its previous state.
func (wt *watcher) translate(ev storage.Change) (string, *object.Stored) {
	now := wt.visible(ev.Obj)
	before := ev.Prev != nil && wt.visible(ev.Prev)
	switch {
	case ev.Type == storage.Deleted:
		if before || now {
			return storage.Deleted, ev.Obj
		}
	case now && before:
		return storage.Modified, ev.Obj
	case now:
		return storage.Added, ev.Obj
	case before:
		// kube-apiserver sends the object as it was, at the change's
		// version: what the watcher last saw of it.
		if d, err := ev.Prev.Res.DraftOf(ev.Prev); err == nil {
			if o, err := d.Seal(ev.RV); err == nil {
				return storage.Deleted, o
			}
		}
		return storage.Deleted, ev.Obj
	}
	return "", nil
}

// send writes one event, applying injected faults. It reports whether the
// stream goes on.
func (wt *watcher) send(typ string, o *object.Stored) bool {
	if c, err := object.ConvertAll(wt.r.Res, []*object.Stored{o}); err != nil {
		wt.sendError(apierr.Internal(err)) // the conversion webhook failed
		return false
	} else {
		o = c[0]
	}
	return wt.emit(typ, func(b []byte) []byte { return wt.encodeObject(b, o) })
}

func (wt *watcher) encodeObject(b []byte, o *object.Stored) []byte {
	if wt.out.As == request.AsTable {
		// Each event is a Table of one row; only the first has the
		// column definitions, as kube-apiserver writes them.
		t, err := request.RenderTable(wt.s.Printer, wt.r.Res, []*object.Stored{o}, metav1.ListMeta{ResourceVersion: strconv.FormatUint(o.RV, 10)}, wt.out)
		wt.out.NoHeaders = true
		if err != nil {
			return append(b, "{}"...)
		}
		return append(b, t...)
	}
	if wt.out.As == request.AsPartial {
		if wt.out.Format == request.FormatProtobuf {
			return append(b, codec.EncodeEnvelope(wt.out.MetaAPIVersion(), request.AsPartial, o.PartialProto())...)
		}
		return append(b, o.PartialJSONAs(wt.out.MetaAPIVersion())...)
	}
	if wt.out.Format == request.FormatProtobuf {
		return append(b, codec.EncodeEnvelope(o.Res.Kind.APIVersion(), o.Res.Kind.Kind, o.PB)...)
	}
	if o.Res.Custom {
		return append(b, o.JSONAs(wt.r.Res)...)
	}
	return append(append(b, o.Res.JSONPrefix...), o.JSON[1:]...)
}

func (wt *watcher) sendBookmark(rv uint64, end bool) bool {
	meta := metav1.ObjectMeta{ResourceVersion: strconv.FormatUint(rv, 10)}
	if end {
		meta.Annotations = map[string]string{InitialEventsEnd: "true"}
	}
	kind, apiVersion := wt.r.Res.Kind.Kind, wt.r.Res.Kind.APIVersion()
	if wt.out.As == request.AsTable {
		// kube-apiserver converts the bookmark like any object: a
		// Table of one row printed from it.
		if o := wt.bookmarkObject(kind, apiVersion, meta, rv); o != nil {
			return wt.emit(storage.Bookmark, func(b []byte) []byte { return wt.encodeObject(b, o) })
		}
	}
	if wt.out.As == request.AsPartial {
		kind, apiVersion = request.AsPartial, wt.out.MetaAPIVersion()
	}
	return wt.emit(storage.Bookmark, func(b []byte) []byte {
		if wt.out.Format == request.FormatProtobuf {
			if kind != request.AsPartial && !wt.r.Res.Custom {
				if m, err := wt.r.Res.BookmarkTyped(meta).Marshal(); err == nil {
					return append(b, codec.EncodeEnvelope(apiVersion, kind, m)...)
				}
			}
			return append(b, codec.EncodeEnvelope(apiVersion, kind, object.PartialBookmarkProto(meta))...)
		}
		if kind != request.AsPartial {
			if j := wt.typedBookmarkJSON(meta); j != nil {
				return append(b, j...)
			}
		}
		mj, _ := json.Marshal(&meta)
		b = append(b, `{"kind":`...)
		b = strconv.AppendQuote(b, kind)
		b = append(b, `,"apiVersion":`...)
		b = strconv.AppendQuote(b, apiVersion)
		b = append(b, `,"metadata":`...)
		b = append(b, mj...)
		return append(b, '}')
	})
}

// typedBookmarkJSON is a bookmark of a built-in kind as kube-apiserver
// encodes it (object.Resource.BookmarkTyped). It is nil for a custom
// resource, whose bookmark holds metadata only.
func (wt *watcher) typedBookmarkJSON(meta metav1.ObjectMeta) []byte {
	if wt.r.Res.Custom {
		return nil
	}
	j, err := json.Marshal(wt.r.Res.BookmarkTyped(meta))
	if err != nil {
		return nil
	}
	return j
}

// bookmarkObject is a bookmark as an object of the watched resource,
// holding only meta, or nil if it does not decode.
func (wt *watcher) bookmarkObject(kind, apiVersion string, meta metav1.ObjectMeta, rv uint64) *object.Stored {
	mj, err := json.Marshal(&meta)
	if err != nil {
		return nil
	}
	body := append(append([]byte(`{"kind":`+strconv.Quote(kind)+`,"apiVersion":`+strconv.Quote(apiVersion)+`,"metadata":`), mj...), '}')
	d, _, err := wt.r.Res.DecodeJSON(body)
	if err != nil {
		return nil
	}
	o, err := d.Seal(rv)
	if err != nil {
		return nil
	}
	return o
}

// sendError writes an ERROR event carrying a Status; the stream then ends.
func (wt *watcher) sendError(e *apierr.Error) {
	wt.write(storage.Error, func(b []byte) []byte {
		if wt.out.Format == request.FormatProtobuf {
			return append(b, request.EncodeStatus(&e.Status, request.FormatProtobuf)...)
		}
		return append(b, request.EncodeStatus(&e.Status, request.FormatJSON)...)
	}, EventOK)
	wt.flush()
}

// emit writes an event unless a fault ends the stream first.
func (wt *watcher) emit(typ string, object func([]byte) []byte) bool {
	fault, stop := wt.s.Faults.NextEvent(&wt.state)
	if stop {
		return false
	}
	wt.write(typ, object, fault)
	return !wt.ended
}

// write encodes and writes one event in the stream's format.
func (wt *watcher) write(typ string, object func([]byte) []byte, fault EventFault) {
	b := wt.buf[:0]
	if wt.out.Format == request.FormatProtobuf {
		b = append(b, 0, 0, 0, 0) // frame length, filled in below
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, typ)
		obj := object(nil)
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(1+protowire.SizeBytes(len(obj))))
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendBytes(b, obj)
		n := len(b) - 4
		b[0], b[1], b[2], b[3] = byte(n>>24), byte(n>>16), byte(n>>8), byte(n)
	} else if wt.out.Format == request.FormatCBOR {
		var err error
		if b, err = request.AppendCBOREvent(b, typ, object(nil)); err != nil {
			// Stored objects are valid JSON; nothing is sent rather
			// than a broken event.
			wt.ended = true
			return
		}
	} else {
		b = append(b, `{"type":`...)
		b = strconv.AppendQuote(b, typ)
		b = append(b, `,"object":`...)
		b = object(b)
		b = append(b, "}\n"...)
	}
	wt.buf = b
	switch fault {
	case EventCutMidway:
		_, _ = wt.w.Write(b[:len(b)/2])
		wt.flush()
		wt.ended = true
		abortResponse(wt.w)
		return
	case EventCorrupt:
		for i := range b {
			if wt.out.Format != request.FormatProtobuf || i >= 4 {
				b[i] = 0xff ^ byte(i)
			}
		}
		_, _ = wt.w.Write(b)
		wt.flush()
		wt.ended = true
		return
	}
	if _, err := wt.w.Write(b); err != nil {
		wt.ended = true
	}
}

// abortResponse cuts the connection under a response, as a broken
// network does.
func abortResponse(w http.ResponseWriter) {
	if a, ok := w.(interface{ Abort() }); ok {
		a.Abort()
		return
	}
	// net/http recovers this sentinel and closes the connection without
	// logging; it is the documented way for a handler to abort.
	panic(http.ErrAbortHandler)
}
