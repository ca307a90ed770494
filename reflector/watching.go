package reflector

import (
	"context"
	"errors"
	"io"
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
		ResourceVersion:     rv,
		AllowWatchBookmarks: true,
		TimeoutSeconds:      int64((base + rand.N(base)) / time.Second),
		IdleTimeout:         r.opts.IdleTimeout,
		Decoder:             r.dec,
	}
}

// watching applies watch events from r.rv (on w when a streaming list
// already opened it): → Watching again, from the last resourceVersion
// seen, when the watch ends cleanly (timeoutSeconds, a dropped
// connection, the idle timeout) after it delivered something or stayed
// up a while; otherwise as onFailure says (a relist on 410, Watching
// again after BackingOff).
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
	events := 0
	for {
		ev, err := w.Next()
		if err != nil {
			took := time.Since(start)
			r.metrics.WatchEnded(took, events, err)
			if took >= r.opts.HealthyPeriod {
				r.bo.Reset()
			}
			clean := errors.Is(err, io.EOF) || errors.Is(err, client.ErrWatchIdle)
			if clean && (events > 0 || took >= time.Second) {
				r.log.Debug("reflector: watch ended; resuming", "resourceVersion", r.rv, "events", events, "error", err)
				return Watching, nil
			}
			return r.onFailure(ctx, Watching, err), err
		}
		switch ev.Type {
		case client.Added:
			r.store.Add(r.transform(ev.Object))
		case client.Modified:
			r.store.Update(r.transform(ev.Object))
		case client.Deleted:
			r.store.Delete(r.transform(ev.Object))
		case client.Bookmark:
			r.store.Bookmark(ev.ResourceVersion)
		}
		r.metrics.WatchEvent(ev.Type)
		r.progressed()
		events++
		if ev.ResourceVersion != "" {
			r.rv = ev.ResourceVersion
		}
	}
}
