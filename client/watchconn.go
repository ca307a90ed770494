package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/codec"
)

// watchConn is one watch's connection and its bounds, shared by Watcher
// and TableWatcher: the idle timer, the timeoutSeconds overdue timer, the
// ctx that ends the body, and the first error, kept.
type watchConn struct {
	body    io.ReadCloser
	cancel  context.CancelCauseFunc
	ctx     context.Context
	events  *codec.WatchDecoder
	idle    time.Duration
	timer   *time.Timer
	overdue *time.Timer // ends a watch the server keeps past timeoutSeconds
	err     error
	close   sync.Once
}

// openWatch starts the watch at path p: start sends the request on the
// ctx it is given, which the idle and overdue bounds cancel.
func openWatch(ctx context.Context, p string, opts WatchOptions, d *wire.Decoder, maxEvent int, start func(context.Context) (*http.Response, error)) (*watchConn, error) {
	wctx, cancel := context.WithCancelCause(ctx)
	// The idle bound covers the wait for the answer too: a server (or a
	// proxy) that accepts the request and never answers ends the watch
	// just as one that stops sending events.
	var timer *time.Timer
	if opts.IdleTimeout > 0 {
		timer = time.AfterFunc(opts.IdleTimeout, func() { cancel(ErrWatchIdle) })
	}
	// A watch with timeoutSeconds is the server's to end; one it has not
	// ended well after that is stuck somewhere between the two.
	var overdue *time.Timer
	if opts.TimeoutSeconds > 0 {
		limit := time.Duration(opts.TimeoutSeconds)*time.Second + watchEndGrace
		overdue = time.AfterFunc(limit, func() {
			cancel(fmt.Errorf("watch %s: the server did not end it %s after its timeoutSeconds: %w", p, watchEndGrace, ErrWatchIdle))
		})
	}
	fail := func(err error) (*watchConn, error) {
		if timer != nil {
			timer.Stop()
		}
		if overdue != nil {
			overdue.Stop()
		}
		if cause := context.Cause(wctx); errors.Is(cause, ErrWatchIdle) {
			err = errorf("watch %s: no answer within the idle timeout of %s: %w", p, opts.IdleTimeout, ErrWatchIdle)
		}
		cancel(err)
		return nil, err
	}
	resp, err := start(wctx)
	if err != nil {
		return fail(err)
	}
	resp.Body = ctxBody{ctx: wctx, body: resp.Body}
	events, err := newEventReader(resp, d, maxEvent)
	if err != nil {
		resp.Body.Close()
		return fail(errorf("watch %s: %w", p, err))
	}
	if timer != nil {
		timer.Reset(opts.IdleTimeout) // the answer's headers count as activity
	}
	return &watchConn{body: resp.Body, cancel: cancel, ctx: wctx, events: events, idle: opts.IdleTimeout, timer: timer, overdue: overdue}, nil
}

// active restarts the idle bound after an event.
func (w *watchConn) active() {
	if w.timer != nil {
		w.timer.Reset(w.idle)
	}
}

// fail keeps err as the watch's error (the cause that ended ctx, unless
// the server's own Status) and releases the connection.
func (w *watchConn) fail(err error) {
	if cause := context.Cause(w.ctx); cause != nil {
		var se *codec.StatusError
		if !errors.As(err, &se) {
			err = cause
		}
	} else {
		err = brokenOff(err)
	}
	w.err = err
	w.release(err)
}

func (w *watchConn) release(cause error) {
	w.close.Do(func() {
		if w.timer != nil {
			w.timer.Stop()
		}
		if w.overdue != nil {
			w.overdue.Stop()
		}
		w.cancel(cause)
		w.body.Close()
	})
}
