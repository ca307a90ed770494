package reflector

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/kubewire/kubewire/client"
)

// The Watching state.

// watchOptions are the options of every watch, from rv.
func (r *Reflector[T]) watchOptions(rv string) client.WatchOptions {
	base := r.opts.WatchTimeout
	return client.WatchOptions{
		LabelSelector:       r.opts.LabelSelector,
		FieldSelector:       r.opts.FieldSelector,
		ShardSelector:       r.sel,
		ResourceVersion:     rv,
		AllowWatchBookmarks: true,
		TimeoutSeconds:      int64((base + rand.N(base)) / time.Second),
		IdleTimeout:         r.opts.IdleTimeout,
		Decoder:             r.dec,
	}
}

// watching applies watch events from r.rv (on w when a streaming list
// already opened it): → Watching again, from the last resourceVersion
// seen, at once when the watch ends cleanly after an object event moved
// the resourceVersion on (see afterWatch); otherwise as onFailure says
// (a relist on 410 or a refusal, Watching again after BackingOff).
func (r *Reflector[T]) watching(ctx context.Context, w *client.Watcher[T]) (State, error) {
	start := time.Now()
	if w == nil {
		var err error
		w, err = r.src.Watch(ctx, r.watchOptions(r.rv))
		if err != nil {
			r.metrics.WatchEnded(time.Since(start), 0, err)
			return r.onFailure(ctx, Watching, err), err
		}
	}
	defer w.Close()
	r.following()
	stopSettle := r.settle()
	defer stopSettle()
	// changed: an object event moved the resourceVersion on. Bookmarks
	// alone do not count, or a server that sends one and closes each
	// watch would be asked again at once, in a loop.
	events, changed := 0, false
	for {
		ev, err := w.Next()
		if err != nil {
			stopSettle()
			took := time.Since(start)
			r.metrics.WatchEnded(took, events, err)
			return r.afterWatch(ctx, changed, took, err), err
		}
		if err := notBefore(ev.ResourceVersion, r.rv, "watch "+string(ev.Type)+" event"); err != nil {
			// A lagging server behind a proxy: apply nothing of it, and
			// watch again from the newest version, after a wait.
			stopSettle()
			r.metrics.WatchEnded(time.Since(start), events, err)
			return r.onFailure(ctx, Watching, err), err
		}
		switch {
		case ev.Type == client.Bookmark:
			if ev.ResourceVersion != "" { // one without names no version to record
				r.store.Bookmark(ev.ResourceVersion)
			}
		case len(r.floors) > 0 && r.applied(ev.Object, ev.ResourceVersion):
			// A part listed after this change (widen.go).
		case ev.Type == client.Added:
			r.store.Add(ev.Object)
		case ev.Type == client.Modified:
			r.store.Update(ev.Object)
		case ev.Type == client.Deleted:
			r.store.Delete(ev.Object)
		}
		r.metrics.WatchEvent(ev.Type)
		r.progressed()
		events++
		if ev.ResourceVersion != "" {
			changed = changed || ev.Type != client.Bookmark && ev.ResourceVersion != r.rv
			r.advance(ev.ResourceVersion)
		}
	}
}
