package reflector

import (
	"context"
	"errors"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
)

// ListStreamer is a Source that reads a collection in one unpaged answer
// decoded as it arrives, and says so with StreamsLists. A Reflector
// lists a *client.Resource[T] through its ListStream; any other Source
// only when it is a ListStreamer whose StreamsLists returns true. A type
// that embeds a *client.Resource gets ListStream but not StreamsLists,
// so its own List keeps seeing every list unless it opts in.
type ListStreamer[T client.Object] interface {
	ListStream(ctx context.Context, opts client.ListOptions, each func(T) error) (metav1.ListMeta, error)
	StreamsLists() bool
}

// streamSource is the Source's ListStream when the Reflector may use it.
func (r *Reflector[T]) streamSource() (func(context.Context, client.ListOptions, func(T) error) (metav1.ListMeta, error), bool) {
	switch src := r.src.(type) {
	case *client.Resource[T]:
		return src.ListStream, true
	case ListStreamer[T]:
		return src.ListStream, src.StreamsLists()
	}
	return nil, false
}

// streamListing reads a full state as one unpaged list, lo's consistent
// read, decoded into the store as it arrives (see Options.ListInPages).
// done is false when the list is to be read in pages instead, the store
// having been handed nothing or Abort after the items: the options ask
// for pages or for the cache's state (InitialListFromCache); the Source
// cannot stream or its answers are not JSON, CBOR or protobuf, or
// too large or too slow (Config.Timeout) for one answer (then every
// later list is paged too); or the connection was lost while the answer
// arrived: pages are read again one by one after such a loss, where a
// streamed list would start over. Error answers (after the client's
// retries, as for a page) and bad answers are the Listing state's
// failures, as a paged list's. Otherwise it returns Watching.
func (r *Reflector[T]) streamListing(ctx context.Context, lo client.ListOptions, fromCache bool, start time.Time) (done bool, st State, err error) {
	listStream, ok := r.streamSource()
	if !ok || r.opts.ListInPages || r.inPages || fromCache {
		return false, 0, nil
	}
	// The store's stream begins with the first item (or the answer's
	// end), so that a Source that cannot stream costs the store nothing.
	begun, items := false, 0
	meta, err := listStream(ctx, lo, func(obj T) error {
		if !begun {
			r.begin()
			begun = true
		}
		r.store.Item(obj)
		items++
		return nil
	})
	if err != nil {
		if begun {
			r.store.Abort()
		}
		switch {
		case errors.Is(err, codec.ErrTooLarge),
			errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil: // the client's Timeout
			r.inPages = true // the next answer would be as large, or as slow
		case errors.Is(err, client.ErrNotStreamable), errors.Is(err, client.ErrConnectionLost):
		default: // an error answer (after the client's retries), a bad answer, ctx
			r.metrics.ListDone(Listing, items, time.Since(start), err)
			return true, r.onFailure(ctx, Listing, err), err
		}
		r.log.Debug("reflector: listing in pages", "resource", r.name, "items", items, "reason", err)
		return false, 0, nil
	}
	if err := r.versioned(meta.ResourceVersion, "list"); err != nil {
		if begun {
			r.store.Abort()
		}
		r.metrics.ListDone(Listing, items, time.Since(start), err)
		return true, r.onFailure(ctx, Listing, err), err
	}
	if !begun {
		r.begin()
	}
	r.listed(items, meta.ShardInfo, meta.ResourceVersion, start)
	return true, Watching, nil
}
