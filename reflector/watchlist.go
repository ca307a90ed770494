package reflector

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/kubewire/kubewire/client"
)

// The WatchListing state: a streaming list.

// errNoEndBookmark ends a streaming list whose end bookmark did not come
// within Options.WatchListTimeout.
var errNoEndBookmark = errors.New("reflector: no end bookmark within the watch-list timeout")

// watchListing runs a streaming list: WatchListing → Watching on the
// same watch at its end bookmark; → Listing (for good) when the server
// does not support streaming lists (watchListUnsupported) or the end
// bookmark does not come in time; otherwise as onFailure says (a relist
// on 410, a streaming list again after BackingOff; a refusal such as 403
// or 404 is a persistent failure, not a reason to give streaming lists
// up).
func (r *Reflector[T]) watchListing(ctx context.Context) (State, error) {
	opts := r.watchOptions("")
	send := true
	opts.SendInitialEvents = &send
	opts.ResourceVersionMatch = client.MatchNotOlderThan
	r.metrics.ListStarted(WatchListing, r.why)
	start := time.Now()
	w, err := r.src.Watch(ctx, opts)
	if err != nil {
		r.metrics.ListDone(WatchListing, 0, time.Since(start), err)
		if watchListUnsupported(err) {
			r.log.Debug("reflector: streaming list refused; using list-then-watch", "resource", r.name, "error", err)
			return r.fallBack(), err
		}
		return r.onFailure(ctx, WatchListing, err), err
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
	items := 0
	r.begin()
	for {
		ev, err := w.Next()
		if err != nil {
			stopDeadline()
			w.Close()
			r.store.Abort()
			if hung.Load() {
				err = errNoEndBookmark
			}
			r.metrics.ListDone(WatchListing, items, time.Since(start), err)
			if hung.Load() {
				r.log.Debug("reflector: no end bookmark in time; using list-then-watch", "resource", r.name, "timeout", r.opts.WatchListTimeout)
				return r.fallBack(), err
			}
			if items > 0 && cleanEnd(err) && ctx.Err() == nil {
				// kube-apiserver ends the watch of a streaming list that
				// falls behind the events it must send (its buffer for the
				// watcher fills: a busy client, a collection changing fast);
				// a paginated list is sent in pages the client pulls. This
				// full state is read so, at once; the next one streams again.
				r.log.Debug("reflector: the streaming list broke off; listing this full state in pages", "resource", r.name, "items", items, "error", err)
				r.noteFailure(WatchListing, err, false)
				r.rv, r.why = "", ReasonRetry
				return Listing, err
			}
			return r.onFailure(ctx, WatchListing, err), err
		}
		switch ev.Type {
		case client.Added, client.Modified:
			r.store.Item(ev.Object)
			items++
		case client.Deleted: // a change after the snapshot, before the end bookmark
			r.store.Delete(ev.Object)
			items++
		case client.Bookmark:
			if !ev.InitialEventsEnd {
				continue
			}
			stopDeadline()
			if hung.Load() { // the deadline fired just now: the watch is closed
				r.store.Abort()
				r.metrics.ListDone(WatchListing, items, time.Since(start), errNoEndBookmark)
				return r.fallBack(), nil
			}
			if err := r.versioned(ev.ResourceVersion, "streaming list's end bookmark"); err != nil {
				w.Close()
				r.store.Abort()
				r.metrics.ListDone(WatchListing, items, time.Since(start), err)
				return r.onFailure(ctx, WatchListing, err), err
			}
			r.fullStateFiltered(items, "")
			r.end(ev.ResourceVersion)
			r.metrics.ListDone(WatchListing, items, time.Since(start), nil)
			r.progressed()
			r.bo.Reset() // a watch that delivered: the server is well
			r.transition(Watching)
			return r.watching(ctx, w)
		}
	}
}

// fallBack gives up on streaming lists for good: → Listing.
func (r *Reflector[T]) fallBack() State {
	r.watchList = false
	return r.relistState(ReasonFallback)
}
