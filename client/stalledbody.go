package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// errBodyStalled ends a request whose body the server stopped taking;
// errNoAnswer one whose body was all read (its last bytes may still wait
// to be written) and which got no answer in time.
var (
	errBodyStalled = errors.New("the server took no more of the request body")
	errNoAnswer    = errors.New("the server sent no answer")
)

// stalledBodyTransport ends a request whose body the connection has not
// asked more of for limit (Config.ResponseHeaderTimeout). net/http's
// ResponseHeaderTimeout starts only once the body is written, so a
// server that stops reading it held the write, and the caller, forever.
// The clock restarts at each read of the body and stops when the
// answer's headers arrive; after the last read it runs out together with
// ResponseHeaderTimeout.
type stalledBodyTransport struct {
	limit time.Duration
	next  http.RoundTripper
}

func (t *stalledBodyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.limit <= 0 || req.Body == nil || req.Body == http.NoBody {
		return t.next.RoundTrip(req)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(t.limit, func() { cancel(errBodyStalled) })
	out := req.WithContext(ctx)
	ended := new(atomic.Bool)    // shared with a body GetBody makes again
	answered := new(atomic.Bool) // the answer's headers arrived
	out.Body = &progressBody{body: req.Body, timer: timer, limit: t.limit, ended: ended, answered: answered}
	if req.GetBody != nil { // net/http may send the body again on a new connection
		out.GetBody = func() (io.ReadCloser, error) {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			return &progressBody{body: body, timer: timer, limit: t.limit, ended: ended, answered: answered}, nil
		}
	}
	resp, err := t.next.RoundTrip(out)
	answered.Store(true)
	timer.Stop()
	if err != nil {
		stalled := errors.Is(context.Cause(ctx), errBodyStalled)
		cancel(nil)
		if stalled && req.Context().Err() == nil {
			if ended.Load() {
				return nil, fmt.Errorf("client: %w within %v", errNoAnswer, t.limit)
			}
			return nil, fmt.Errorf("client: %w for %v", errBodyStalled, t.limit)
		}
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

func (t *stalledBodyTransport) CloseIdleConnections() { closeIdle(t.next) }

// progressBody restarts timer at every read and notes the body's end.
type progressBody struct {
	body  io.ReadCloser
	timer *time.Timer
	limit time.Duration
	ended *atomic.Bool
	// answered stops the restarts: a server may answer before it has
	// read the whole body (a 413, say), and the transport's later reads
	// must not arm a timer that would cancel the answer being read.
	answered *atomic.Bool
}

func (b *progressBody) Read(p []byte) (int, error) {
	if !b.answered.Load() {
		b.timer.Reset(b.limit)
	}
	n, err := b.body.Read(p)
	if err == io.EOF {
		b.ended.Store(true)
	}
	return n, err
}

func (b *progressBody) Close() error { return b.body.Close() }

// cancelOnClose releases the request's context once its answer is read.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}
