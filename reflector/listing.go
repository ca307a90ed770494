package reflector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/pager"
)

// The Listing state: a paginated list.

// listing runs a paginated list, streamed into the store page by page
// (the pager asks for each next page while the one before decodes):
// Listing → Watching from the list's resourceVersion; otherwise as
// onFailure says (a relist at once on 410, Listing again after
// BackingOff, a refusal being a persistent failure). An expired continue
// token is the pager's to recover from: it lists again from the start, in
// pages, so that no collection is ever read in one unpaged answer that
// Config.MaxResponseBytes may refuse; the store sees Abort and a new
// Begin. The one read that is not paged, InitialListFromCache's, falls
// back to a paged consistent list at once when its answer is too large;
// a page too large for Config.MaxResponseBytes (objects of a megabyte,
// 500 to a page) makes it list again at once in pages half as long.
func (r *Reflector[T]) listing(ctx context.Context) (State, error) {
	r.relists.Add(1)
	r.metrics.ListStarted(Listing, r.why)
	start := time.Now()
	lo := client.ListOptions{
		LabelSelector: r.opts.LabelSelector,
		FieldSelector: r.opts.FieldSelector,
		ShardSelector: r.sel,
		Decoder:       r.dec,
	}
	fromCache := r.opts.InitialListFromCache && !r.fed
	if fromCache {
		lo.ResourceVersion = "0" // from the watch cache, in one response
	}
	items := 0
	fail := func(err error) (State, error) {
		r.store.Abort()
		r.metrics.ListDone(Listing, items, time.Since(start), err)
		return r.onFailure(ctx, Listing, err), err
	}
	if done, st, err := r.streamListing(ctx, lo, fromCache, start); done {
		return st, err
	}
	r.begin()
	pageSize := cmp.Or(r.pageSize, r.opts.PageSize, pager.DefaultPageSize)
	p, err := pager.New(r.src.List, pager.Options{ListOptions: lo, PageSize: pageSize, OnExpired: pager.RestartPaged})
	if err != nil { // checked by New: not expected
		return fail(err)
	}
	for obj, err := range p.Items(ctx) {
		if errors.Is(err, pager.ErrRestarted) {
			r.log.Debug("reflector: list restarted", "resource", r.name, "error", err)
			r.store.Abort()
			r.store.Begin()
			r.strays = 0
			continue
		}
		if err != nil {
			if fromCache && items == 0 && errors.Is(err, codec.ErrTooLarge) {
				// begin set r.fed: the next list is a paged consistent read.
				r.log.Debug("reflector: the list from the cache is too large for one answer; listing in pages", "resource", r.name, "error", err)
				r.store.Abort()
				r.metrics.ListDone(Listing, 0, time.Since(start), err)
				return Listing, nil
			}
			if !fromCache && pageSize > 1 && errors.Is(err, codec.ErrTooLarge) {
				// Objects this large do not fit the page size in one
				// answer: list again at once, in pages half as long (for
				// the lists after too), down to one object per page.
				r.pageSize = pageSize / 2
				r.log.Debug("reflector: a page is too large for one answer; listing in smaller pages", "resource", r.name, "pageSize", r.pageSize, "error", err)
				r.store.Abort()
				r.metrics.ListDone(Listing, items, time.Since(start), err)
				return Listing, nil
			}
			return fail(err)
		}
		r.store.Item(obj)
		items++
	}
	snap := p.Snapshot()
	if !snap.Complete {
		err := ctx.Err()
		if err == nil {
			err = errors.New("reflector: list ended early")
		}
		return fail(err)
	}
	if err := r.versioned(snap.ResourceVersion, "list"); err != nil {
		return fail(err)
	}
	r.listed(items, snap.ShardInfo, snap.ResourceVersion, start)
	return Watching, nil
}

// versioned refuses a full state that names no resourceVersion to watch
// from (kube-apiserver always sends one; a watch from "" would start at
// the current state, and the objects deleted since the list would stay
// cached with no DELETED event ever to remove them), or one older than
// the store was given (a lagging server: the store would go back).
func (r *Reflector[T]) versioned(rv, what string) error {
	if rv == "" {
		return fmt.Errorf("reflector: the %s has no resourceVersion to watch from: %w", what, client.ErrMalformed)
	}
	return notBefore(rv, r.newest, "the "+what)
}

// listed ends a full state read by one list, paged or streamed: the
// store's stream ends at rv, with the server's shard selector, if any.
func (r *Reflector[T]) listed(items int, shard *metav1.ShardInfo, rv string, start time.Time) {
	shardInfo := ""
	if shard != nil {
		shardInfo = shard.Selector
	}
	r.fullStateFiltered(items, shardInfo)
	r.end(rv)
	r.tooLargeInRow = 0
	r.metrics.ListDone(Listing, items, time.Since(start), nil)
}
