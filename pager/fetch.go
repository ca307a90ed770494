package pager

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/backoffpolicy"
)

// fetcher reads the pages of one list in order, following continue
// tokens and applying the expired-token policy and page retries. It is
// the whole state machine of a list:
//
//	first page ──> next page ──> ... ──> last page (no continue token)
//	                  │ 410
//	                  ├─ RestartUnpaged: first page again, no limit
//	                  ├─ RestartPaged:   first page again
//	                  ├─ ContinueInconsistent: next page with the 410's token
//	                  └─ ReturnExpired:  error
//
// A fetcher is used by one goroutine at a time.
type fetcher[T client.Object] struct {
	list ListFunc[T]
	s    settings

	cont         string // token of the next request; "" for a first page
	unpaged      bool   // the next first page is asked for without a limit
	restarted    bool   // the next first page starts over after an expiry
	expired      int    // expired tokens recovered from
	inconsistent bool   // pages since a ContinueInconsistent token, or a changed version
	index        int    // index of the next page within its snapshot
	rv           string // the snapshot's resourceVersion (its first page's)
	done         bool   // no more pages
	failed       error  // returned by the next call (after a page was returned)
	// tokens holds a hash of each continue token the server answered in
	// this snapshot: one answered twice would have the pager go round.
	tokens map[uint64]struct{}
	seed   maphash.Seed

	ahead bool            // ask for the next page while this one decodes (read-ahead)
	spec  *speculation[T] // the next page's request, in flight
}

// next returns the next page, or nil and nil after the last one. After
// an error it returns nil and nil.
func (f *fetcher[T]) next(ctx context.Context) (*Page[T], error) {
	for {
		if f.failed != nil {
			err := f.failed
			f.failed, f.done = nil, true
			return nil, err
		}
		if f.done {
			return nil, nil
		}
		if err := ctx.Err(); err != nil {
			f.done = true
			return nil, fmt.Errorf("pager: %w", err)
		}
		opts := f.s.list
		first := f.cont == ""
		if first {
			if f.unpaged {
				opts.Limit = 0
			}
		} else {
			// The token carries the snapshot's version; the API concepts
			// call a resourceVersion beside it invalid.
			opts.ResourceVersion, opts.ResourceVersionMatch = "", ""
			opts.Continue = f.cont
		}
		l, err := f.call(ctx, opts)
		if err == nil {
			return f.accept(l, first, opts)
		}
		if first || !errors.Is(err, client.ErrExpired) {
			f.done = true
			return nil, fmt.Errorf("pager: page %d: %w", f.index+1, err)
		}
		if err := f.recover(err); err != nil {
			f.done = true
			return nil, err
		}
	}
}

// recover applies the expired-token policy to the 410 err of a continue
// request, or returns the error that ends the list.
func (f *fetcher[T]) recover(err error) error {
	if f.s.onExpired == ReturnExpired {
		return fmt.Errorf("pager: page %d: %w", f.index+1, err)
	}
	if f.expired >= f.s.maxExpired {
		return fmt.Errorf("pager: page %d: continue token expired %d times: %w", f.index+1, f.expired+1, err)
	}
	f.expired++
	if f.s.onExpired == ContinueInconsistent {
		var token string
		if se, ok := client.StatusOf(err); ok {
			token = se.Status.ListMeta.Continue
		}
		if token == "" {
			return fmt.Errorf("pager: page %d: continue token expired and the server sent no fresh one: %w", f.index+1, err)
		}
		f.cont, f.inconsistent = token, true
		return nil
	}
	f.cont, f.restarted, f.inconsistent = "", true, false
	f.unpaged = f.s.onExpired == RestartUnpaged
	return nil
}

// accept turns a list answered to opts into the next page.
func (f *fetcher[T]) accept(l *client.List[T], first bool, opts client.ListOptions) (*Page[T], error) {
	if first {
		f.index, f.rv = 0, l.ResourceVersion
		clear(f.tokens)
		if want := opts.ResourceVersion; opts.ResourceVersionMatch == client.MatchExact && l.ResourceVersion != want {
			f.done = true
			return nil, fmt.Errorf("pager: an Exact list at resourceVersion %q was answered at %q (the server ignores resourceVersionMatch)", want, l.ResourceVersion)
		}
	} else if l.ResourceVersion != f.rv {
		f.inconsistent = true // not the snapshot the first page started
	}
	pg := &Page[T]{List: l, Index: f.index, Restarted: first && f.restarted, Inconsistent: f.inconsistent}
	if first {
		f.restarted = false
	}
	f.index++
	switch {
	case l.Continue == "":
		f.done = true
	case l.Continue == opts.Continue:
		// Following it would ask for the same page forever.
		f.failed = fmt.Errorf("pager: page %d: the server answered a continue token with the same token", f.index)
	case f.seen(l.Continue):
		// kube-apiserver's tokens move forward through the keys; one
		// met again would have the pager go round the same pages forever.
		f.failed = fmt.Errorf("pager: page %d: the server answered a continue token it had answered before in this list", f.index)
	default:
		f.cont = l.Continue
	}
	return pg, nil
}

// seen records token and reports whether this snapshot's pages had it.
func (f *fetcher[T]) seen(token string) bool {
	if f.tokens == nil {
		f.tokens, f.seed = map[uint64]struct{}{}, maphash.MakeSeed()
	}
	h := maphash.String(f.seed, token)
	if _, ok := f.tokens[h]; ok {
		return true
	}
	f.tokens[h] = struct{}{}
	return false
}

// The wait before asking again for a page whose response broke off:
// 100ms doubling up to 2s, jittered so that clients do not march in step.
const (
	pageRetryInitial = 100 * time.Millisecond
	pageRetryMax     = 2 * time.Second
)

// call runs the list function, asking again after a response that broke
// off (the client's error matches client.ErrConnectionLost), up to the
// configured number of retries. The server's own answers, decoding
// errors, bad options and context errors are not retried: the first are
// the client's to retry (client.Resource.List does, by its RetryPolicy).
func (f *fetcher[T]) call(ctx context.Context, opts client.ListOptions) (*client.List[T], error) {
	lost := func(err error) bool { return errors.Is(err, client.ErrConnectionLost) }
	p := backoffpolicy.Policy{Initial: pageRetryInitial, Max: pageRetryMax}
	return backoffpolicy.Retry(ctx, p, f.s.pageRetries, lost, func() (*client.List[T], error) {
		l, err := f.request(ctx, opts)
		if err == nil && l == nil {
			return nil, errors.New("the list function returned neither a list nor an error")
		}
		return l, err
	})
}
