package reflector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/kubewire/kubewire/client"
)

// What a Reflector does after a failure: the transitions into
// BackingOff, and out of it.

const (
	// maxTooLargeInRow is how many "too large resource version" answers
	// in a row a watch takes, each after the wait the server asked for,
	// before the Reflector relists instead: a server that stays behind
	// for that long may never reach the version (for example after etcd
	// was restored from a backup), and a consistent list has no version
	// to be behind.
	maxTooLargeInRow = 5
	// defaultTooLargeWait is the wait after "too large resource version"
	// when the server named none.
	defaultTooLargeWait = time.Second
	// maxSameInRow is how many failures in a row with the same error make
	// a persistent failure; answered by the server, they also make a
	// watch relist rather than resume.
	maxSameInRow = 3
	// minCleanWatch is how long a watch that did not move the
	// resourceVersion on must have lasted for its clean end to be
	// resumed at once: a server that ends every watch at once, or after
	// events that bring nothing new, is failing, and is asked again
	// after the exponential wait rather than in a hot loop.
	minCleanWatch = time.Second
)

// cleanEnd reports whether err ends a watch the way healthy watches end:
// the server closed it (timeoutSeconds, a graceful shutdown's GOAWAY),
// the idle timeout ended a stuck one, or its connection dropped.
func cleanEnd(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, client.ErrWatchIdle) || errors.Is(err, client.ErrConnectionLost)
}

// afterWatch picks the next state after a watch that lasted took ended
// with err, moved telling whether an object event in it moved the
// resourceVersion on:
// Watching again at once, as client-go does, when it ended cleanly after
// moving on or lasting minCleanWatch (a server's timeoutSeconds adds no
// latency to the events after it); otherwise as onFailure says, which
// backs off.
func (r *Reflector[T]) afterWatch(ctx context.Context, moved bool, took time.Duration, err error) State {
	if moved || took >= r.opts.HealthyPeriod {
		r.bo.Reset()
	}
	if ctx.Err() == nil && cleanEnd(err) && (moved || took >= minCleanWatch) {
		r.log.Debug("reflector: watch ended; resuming", "resource", r.name, "resourceVersion", r.rv, "error", err)
		return Watching
	}
	return r.onFailure(ctx, Watching, err)
}

// onFailure picks the next state after err ended the work of state
// from (WatchListing, Listing or Watching):
//
//   - ctx ended: Stopped.
//   - 410 Gone: a relist at once. A second 410 with no watch event in
//     between backs off first, so that a server compacting faster than a
//     list and a watch can start is not listed in a hot loop.
//   - "too large resource version" (the server is behind the version
//     asked for): from again after the wait the server asked for (1 s if
//     it named none, at most MaxServerWait); the exponential backoff
//     does not grow, the server is only catching up. A watch answered so
//     maxTooLargeInRow times in a row relists instead.
//   - a refusal (400, 401, 403, 404, 405, 422), or the same answer from
//     the server maxSameInRow times in a row (but 429, 503 and 504, which
//     ask to come back later): a persistent failure (see Err), and a
//     relist after the exponential backoff: a watch resumed from the same
//     resourceVersion would be refused again.
//   - 429, 503 or 504 with a Retry-After: from again after exactly that
//     wait (at most MaxServerWait); the exponential backoff does not
//     grow, the server paces its clients.
//   - anything else (5xx, a lost connection, a timeout, a corrupt
//     event): from again after the exponential backoff, or after the
//     server's Retry-After (at most MaxServerWait) when that is longer.
//     The same failure maxSameInRow times in a row is reported as a
//     persistent failure all the same.
//
// A failed full state read is retried as a new one (its Reason is
// ReasonRetry, or ReasonRefused); a failed watch resumes from the same
// resourceVersion, or relists after a refusal.
func (r *Reflector[T]) onFailure(ctx context.Context, from State, err error) State {
	if ctx.Err() != nil {
		return Stopped
	}
	switch {
	case errors.Is(err, client.ErrExpired):
		r.noteFailure(from, err, false)
		r.expiredInRow++
		next := r.relistState(ReasonExpired)
		if r.expiredInRow > 1 {
			return r.backOffThen(next, err)
		}
		r.log.Debug("reflector: resourceVersion expired; relisting", "resource", r.name, "error", err)
		return next
	case errors.Is(err, client.ErrTooLargeResourceVersion):
		r.noteFailure(from, err, false)
		r.tooLargeInRow++
		if from == Watching && r.tooLargeInRow > maxTooLargeInRow {
			r.tooLargeInRow = 0
			r.log.Debug("reflector: the server stays behind the resourceVersion; relisting", "resource", r.name, "error", err)
			return r.relistState(ReasonTooLarge)
		}
		wait, ok := r.serverWait(err)
		if !ok {
			wait = defaultTooLargeWait
		}
		return r.waitThen(r.retry(from), wait, err)
	}
	kind := sameKind(err)
	if kind == r.sameKind {
		r.sameInRow++
	} else {
		r.sameKind, r.sameInRow = kind, 1
	}
	repeated := r.sameInRow >= maxSameInRow
	refused := refusal(err) || repeated && answeredNo(err)
	r.noteFailure(from, err, refused || repeated)
	if refused {
		r.sameInRow = 0
		r.log.Debug("reflector: request refused; relisting after a wait", "resource", r.name, "op", opOf(from), "error", err)
		return r.backOffThen(r.relistState(ReasonRefused), err)
	}
	if ra, ok := r.serverWait(err); ok && ra > 0 && paced(err) {
		// The server paces its clients (kube-apiserver answers 429 with
		// a Retry-After of 1s while its watch cache initializes after a
		// restart): wait what it asked, no more, and do not grow the
		// backoff for it.
		return r.waitThen(r.retry(from), ra, err)
	}
	return r.backOffThen(r.retry(from), err)
}

// paced reports whether err is an answer asking to come back later
// (429, 503, 504), whose Retry-After sets the wait.
func paced(err error) bool {
	se, ok := client.StatusOf(err)
	if !ok {
		return false
	}
	switch se.Status.Code {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// answeredNo reports whether err is an answer of the server that is not
// one of those asking to come back later (429, 503, 504): the same one
// again and again means the request itself is refused, whatever the code
// says (some aggregated servers answer 500 for a resourceVersion they
// cannot serve).
func answeredNo(err error) bool {
	se, ok := client.StatusOf(err)
	if !ok {
		return false
	}
	switch se.Status.Code {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return false
	}
	return true
}

// sameKind tells failures apart for counting them in a row: the server's
// code and reason for its answers, else the kind of failure.
func sameKind(err error) string {
	if se, ok := client.StatusOf(err); ok {
		return fmt.Sprintf("%d %s", se.Status.Code, se.Status.Reason)
	}
	switch {
	case errors.Is(err, ErrResourceVersionWentBack):
		return "went back"
	case errors.Is(err, client.ErrConnectionLost):
		return "connection lost"
	case errors.Is(err, client.ErrWatchIdle):
		return "idle"
	case errors.Is(err, client.ErrMalformed):
		return "malformed"
	case errors.Is(err, io.EOF):
		return "eof"
	}
	// A transport failure (a refused dial, a name that does not resolve)
	// quotes the request's URL, whose timeoutSeconds differs per watch:
	// the kind is what failed, without it.
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Op + ": " + ue.Err.Error()
	}
	return err.Error()
}

// retry is the state that tries from's work again.
func (r *Reflector[T]) retry(from State) State {
	if from == Watching {
		return Watching
	}
	return r.relistState(ReasonRetry)
}

// progressed notes that the server delivered what was asked for, which
// ends a run of failures, and any persistent failure.
func (r *Reflector[T]) progressed() {
	r.expiredInRow, r.tooLargeInRow, r.sameInRow, r.sameKind = 0, 0, 0, ""
	r.recovered(0)
}

// serverWait is the wait the server asked for with err, at most
// MaxServerWait.
func (r *Reflector[T]) serverWait(err error) (time.Duration, bool) {
	ra, ok := retryAfter(err)
	return min(ra, r.opts.MaxServerWait), ok
}

// backOffThen moves to BackingOff for the next exponential wait, or the
// server's Retry-After (at most MaxServerWait) when that is longer, then
// to next. RetryNow may cut the exponential part short, not the
// server's.
func (r *Reflector[T]) backOffThen(next State, cause error) State {
	wait := r.bo.NextBackOff()
	ra, ok := r.serverWait(cause)
	if ok && ra > wait {
		wait = ra
	}
	st := r.waitThen(next, wait, cause)
	r.asked = 0
	if ok {
		r.asked = ra
	}
	return st
}

// waitThen moves to BackingOff for wait, then to next: a wait the
// server asked for, which RetryNow does not cut short.
func (r *Reflector[T]) waitThen(next State, wait time.Duration, cause error) State {
	r.next, r.wait, r.asked = next, wait, wait
	r.metrics.BackingOff(wait, cause)
	r.log.Debug("reflector: backing off", "resource", r.name, "wait", wait, "then", next, "error", cause)
	return BackingOff
}

func (r *Reflector[T]) backingOff(ctx context.Context) State {
	select {
	case <-r.retryNow: // an old hint: the failure came after it
	default:
	}
	start := time.Now()
	t := time.NewTimer(r.wait)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return r.next
		case <-t.C:
			return r.next
		case <-r.retryNow:
			// The server answers again: start the backoff over, and
			// wait only what it asked for, if anything.
			r.bo.Reset()
			left := time.Until(start.Add(r.asked))
			if left <= 0 {
				r.log.Debug("reflector: retrying now, the server answers again", "resource", r.name)
				return r.next
			}
			t.Reset(left)
		}
	}
}

// RetryNow tells the Reflector that the server answers again (a caller
// saw a request succeed after failures: package sharding calls it when
// its member's Lease write succeeds after failing). A Reflector waiting
// after a failure then starts its exponential backoff over and tries
// again at once, or once the wait the server itself asked for (a
// Retry-After) is over; otherwise RetryNow does nothing. It does not
// block and may be called from any goroutine.
func (r *Reflector[T]) RetryNow() {
	select {
	case r.retryNow <- struct{}{}:
	default:
	}
}

// retryAfter is the wait a Status error asks for (its
// details.retryAfterSeconds, or the Retry-After header, which
// kube-apiserver sets with 429 and "too large resource version").
func retryAfter(err error) (time.Duration, bool) {
	se, ok := client.StatusOf(err)
	if !ok {
		return 0, false
	}
	return se.RetryAfter()
}

// watchListUnsupported reports whether err is a server's refusal of the
// streaming list itself, as a server without them answers (400 or 422 to
// sendInitialEvents, or another 4xx than a refusal of the caller, 410 and
// 429): the Reflector falls back to list-then-watch for good. A 401, 403,
// 404 or 405 refuses the caller or the resource, not streaming lists.
func watchListUnsupported(err error) bool {
	se, ok := client.StatusOf(err)
	if !ok {
		return false
	}
	switch c := se.Status.Code; c {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed,
		http.StatusGone, http.StatusTooManyRequests:
		return false
	default:
		return c >= 400 && c < 500
	}
}
