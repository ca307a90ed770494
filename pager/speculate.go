package pager

import (
	"context"

	"github.com/kubewire/kubewire/client"
)

// With read-ahead, the request for page k+1 leaves as soon as page k's
// answer has arrived, while page k's items decode: the list function is
// handed ListOptions.BeforeDecode, which client.Resource.List calls with
// the continue token read from the answer's bytes. The next request is
// then in flight (the server works on it) while this page decodes. Its
// answer waits, undecoded, in its own BeforeDecode until the fetcher
// asks for that page, so that pages decode one at a time and in order
// (an informer's shared wire.Decoder is not safe for concurrent use). A
// hint that the decoded page contradicts costs one request, discarded.

// speculation is a request for the next page sent ahead of its turn.
type speculation[T client.Object] struct {
	opts    client.ListOptions // as the fetcher will ask for the page
	ctx     context.Context
	cancel  context.CancelFunc
	claimed chan struct{} // closed when the fetcher asks for the page: decode
	done    chan struct{} // closed when the request has returned
	list    *client.List[T]
	err     error
}

// request is one call of the list function for opts: the speculation
// for it when one is in flight, else a new call. With read-ahead, the
// call starts the next page's request from its continue token.
func (f *fetcher[T]) request(ctx context.Context, opts client.ListOptions) (*client.List[T], error) {
	if s := f.spec; s != nil {
		f.spec = nil
		if opts.Continue != "" && s.opts.Continue == opts.Continue && s.opts.Limit == opts.Limit {
			close(s.claimed)
			<-s.done
			s.cancel()
			return s.list, s.err
		}
		s.discard()
	}
	if f.ahead {
		opts.BeforeDecode = f.beforeDecode(ctx, opts, nil)
	}
	return f.list(ctx, opts)
}

// beforeDecode is the hook of a request for opts: a speculative one
// (gate set) first waits for its turn; then the next page is asked for.
func (f *fetcher[T]) beforeDecode(ctx context.Context, opts client.ListOptions, gate *speculation[T]) func(string) error {
	caller := opts.BeforeDecode
	return func(hint string) error {
		if gate != nil {
			select {
			case <-gate.claimed:
			case <-gate.ctx.Done():
				return gate.ctx.Err()
			}
		}
		if caller != nil {
			if err := caller(hint); err != nil {
				return err
			}
		}
		// The fetcher is in this request (or waiting for it): f is ours.
		if hint != "" && hint != opts.Continue && f.spec == nil && ctx.Err() == nil {
			f.speculate(ctx, hint)
		}
		return nil
	}
}

// speculate sends the request for the page after token, as the fetcher
// would ask for it.
func (f *fetcher[T]) speculate(ctx context.Context, token string) {
	next := f.s.list
	next.ResourceVersion, next.ResourceVersionMatch = "", ""
	next.Continue = token
	sctx, cancel := context.WithCancel(ctx)
	s := &speculation[T]{opts: next, ctx: sctx, cancel: cancel, claimed: make(chan struct{}), done: make(chan struct{})}
	call := next
	call.BeforeDecode = f.beforeDecode(ctx, next, s)
	f.spec = s
	go func() {
		defer close(s.done)
		s.list, s.err = f.list(sctx, call)
	}()
}

// discard cancels a speculation that will not be used and waits for its
// request to end.
func (s *speculation[T]) discard() {
	s.cancel()
	<-s.done
}

// dropSpeculation discards the speculation in flight, if any: the list
// ended, failed or was abandoned.
func (f *fetcher[T]) dropSpeculation() {
	if s := f.spec; s != nil {
		f.spec = nil
		s.discard()
	}
}
