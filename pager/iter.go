package pager

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/kubewire/kubewire/client"
)

// Pages returns an iterator over the pages of one list. Each range over
// it starts a new list; ranging blocks while a page is being fetched.
// With read-ahead (Options.ReadAhead) one goroutine fetches the next
// pages while the loop body handles the current one; it is stopped and
// waited for before the range statement ends, whether the list ended, an
// error was yielded, the loop broke out or ctx ended, so nothing is left
// running.
//
// An error is yielded once, with a nil page, and ends the iteration.
// A page with Restarted set begins a new snapshot (see Page). Pages are
// handed over in order and belong to the caller. ctx is checked between
// pages.
func (p *Pager[T]) Pages(ctx context.Context) iter.Seq2[*Page[T], error] {
	return func(yield func(*Page[T], error) bool) {
		f, err := p.begin()
		if err != nil {
			yield(nil, err)
			return
		}
		defer p.end()
		var src interface {
			next(context.Context) (*Page[T], error)
		} = f
		if n := f.s.readAhead; n > 0 {
			f.ahead = true
			ra := startReadAhead(ctx, f, n)
			defer ra.stop()
			src = ra
		}
		for {
			pg, err := src.next(ctx)
			if err != nil {
				yield(nil, err)
				return
			}
			if pg == nil {
				p.complete()
				return
			}
			p.observe(pg)
			if !yield(pg, nil) {
				return
			}
		}
	}
}

// Items returns an iterator over the items of one list, page after page:
//
//	p, err := pager.New(pods.List, pager.Options{})
//	if err != nil {
//		return err
//	}
//	for pod, err := range p.Items(ctx) {
//		if errors.Is(err, pager.ErrRestarted) {
//			continue // a new snapshot follows: forget what was counted
//		}
//		if err != nil {
//			return err
//		}
//		...
//	}
//
// It behaves as Pages does (each range starts a list; read-ahead
// goroutines end with the range statement). An error is yielded with a
// zero item and ends the iteration, except one matching ErrRestarted: it
// is yielded when a list starts over after items were handed over, and
// the items of the new snapshot follow if the loop goes on. Items belong
// to the caller. ctx is checked before each item: once it ends, its
// error is yielded and ends the iteration, even in the middle of a page
// already fetched.
func (p *Pager[T]) Items(ctx context.Context) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		seen := 0
		done := ctx.Done() // nil for a ctx that never ends: the select below costs nothing then
		for pg, err := range p.Pages(ctx) {
			if err != nil {
				yield(zero, err)
				return
			}
			if pg.Restarted && seen > 0 {
				if !yield(zero, restartedError(seen)) {
					return
				}
				seen = 0
			}
			for i, it := range pg.Items {
				select {
				case <-done:
					yield(zero, fmt.Errorf("pager: %w", ctx.Err()))
					return
				default:
				}
				// The page is not the caller's here: drop each item once
				// handed over, so that it lives only as long as the
				// caller keeps it.
				var zero T
				pg.Items[i] = zero
				seen++
				if !yield(it, nil) {
					return
				}
			}
		}
	}
}

// readAhead fetches pages on its own goroutine, up to n ahead of the
// consumer: n-1 wait in the channel and one more is held by the goroutine
// while it waits to send it.
type readAhead[T client.Object] struct {
	pages  chan fetched[T]
	cancel context.CancelFunc
	done   chan struct{} // closed when the goroutine has returned
	// ended is set, before pages is closed, when the list was read to
	// its end (rather than the goroutine stopping because ctx ended).
	ended bool
}

// fetched is one result of the read-ahead goroutine.
type fetched[T client.Object] struct {
	page *Page[T]
	err  error
}

func startReadAhead[T client.Object](ctx context.Context, f *fetcher[T], n int) *readAhead[T] {
	ctx, cancel := context.WithCancel(ctx)
	ra := &readAhead[T]{pages: make(chan fetched[T], n-1), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(ra.done)
		defer close(ra.pages)
		defer f.dropSpeculation()
		for {
			pg, err := f.next(ctx)
			if pg == nil && err == nil {
				ra.ended = true
				return
			}
			select {
			case ra.pages <- fetched[T]{pg, err}:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return ra
}

// next returns the next page, nil and nil at the end of the list, or
// ctx's error if it ends first.
func (ra *readAhead[T]) next(ctx context.Context) (*Page[T], error) {
	select {
	case r, ok := <-ra.pages:
		if !ok {
			if ra.ended {
				return nil, nil
			}
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("pager: %w", err)
			}
			return nil, errors.New("pager: read-ahead stopped")
		}
		return r.page, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("pager: %w", ctx.Err())
	}
}

// stop cancels the goroutine's requests and waits for it to return.
func (ra *readAhead[T]) stop() {
	ra.cancel()
	<-ra.done
}
