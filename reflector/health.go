package reflector

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/kubewire/kubewire/client"
)

// How a Reflector tells whether it follows the server: Err, WaitForSync,
// and the log records of persistent failures.

// ErrStopped is returned by WaitForSync when Run returned before the
// first full state was stored.
var ErrStopped = errors.New("reflector: stopped before the first full state")

// PersistentError is a failure the server keeps answering: a request it
// refused (400, 401, 403, 404, 405 or 422: a token not allowed to list or
// watch, a resource not served, such as a custom resource whose CRD is not
// installed), or the same error several times in a row. While it lasts
// the cache may not follow the server. The Reflector retries all the
// same, so the failure ends by itself once its cause is fixed.
//
// It wraps the error the client returned: errors.Is(err,
// client.ErrForbidden) and client.StatusOf work on it. A PersistentError
// is never modified once returned.
type PersistentError struct {
	// Resource names the collection: "pods (v1) in namespace shop".
	Resource string
	// Op is the request that failed: "list" or "watch" (streaming lists
	// are watches).
	Op string
	// Err is the last failure, as the client returned it.
	Err error
	// Since is when the failure started; Attempts counts the failed
	// requests since.
	Since    time.Time
	Attempts int
}

func (e *PersistentError) Error() string {
	cause := e.Err
	// The resource and the operation say what the request was; its
	// method and path would say it twice.
	var re *client.RequestError
	if errors.As(cause, &re) && re.Tries <= 1 {
		cause = re.Err
	}
	return fmt.Sprintf("reflector: cannot %s %s: %v", e.Op, e.Resource, cause)
}

func (e *PersistentError) Unwrap() error { return e.Err }

// Refused reports whether the server refused the request (400, 401, 403,
// 404, 405 or 422): waiting alone does not help, someone has to change
// the program's permissions, install the resource, or fix the request.
func (e *PersistentError) Refused() bool { return refusal(e.Err) }

// refusal reports whether err is the server's refusal of a request.
func refusal(err error) bool {
	se, ok := client.StatusOf(err)
	if !ok {
		return false
	}
	switch se.Status.Code {
	case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound,
		http.StatusMethodNotAllowed, http.StatusUnprocessableEntity:
		return true
	}
	return false
}

// health is what Err and WaitForSync read; the goroutine running Run
// writes it, a settle timer may clear its failure.
type health struct {
	mu        sync.Mutex
	changed   chan struct{} // closed and replaced at every change
	isSynced  bool          // a full state was stored
	following bool          // a watch from a stored full state was accepted
	stopped   bool          // Run returned
	failure   *PersistentError
	last      error  // the last failure since the Reflector last followed the server
	gen       uint64 // counts persistent failures noted, so that a late settle timer clears no newer one
	// watchForbidden: failure is a watch refused with 403.
	watchForbidden bool
}

func (h *health) init() { h.changed = make(chan struct{}) }

func (h *health) changedLocked() {
	close(h.changed)
	h.changed = make(chan struct{})
}

func (h *health) synced() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.isSynced {
		h.isSynced = true
		h.changedLocked()
	}
}

func (h *health) stop() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopped = true
	h.changedLocked()
}

// Err returns the persistent failure going on, a *PersistentError, or
// nil when there is none: the Reflector follows the server, or retries
// after failures that did not repeat. It is cleared once a watch from a
// stored full state delivers an event or a bookmark, or stays up for a
// few seconds.
func (r *Reflector[T]) Err() error {
	r.health.mu.Lock()
	defer r.health.mu.Unlock()
	if r.health.failure == nil {
		return nil
	}
	return r.health.failure
}

// WaitForSync blocks until the Reflector follows the server: a full
// state was stored and a watch from it accepted, with no persistent
// failure going on. It returns early
//
//   - with the *PersistentError when the server refuses a request while
//     it waits (PersistentError.Refused): waiting longer would be waiting
//     for someone to fix the cause (install the CRD, grant the
//     permission), so the program is told at once. Run retries meanwhile;
//     a WaitForSync called after the cause was fixed waits for the next
//     attempt (at most MaxBackoff away) and returns nil once synced, so
//     a loop calling it again after an error is paced by the backoff;
//   - when ctx ends, with ctx's error, joined with the persistent failure
//     or the last failure, if any, so that a timeout says what kept the
//     Reflector from syncing (errors.Is matches both);
//   - when Run returned: nil if a full state was stored, else ErrStopped.
func (r *Reflector[T]) WaitForSync(ctx context.Context) error {
	h := &r.health
	h.mu.Lock()
	seen := h.gen
	h.mu.Unlock()
	for {
		h.mu.Lock()
		failure, last, ch, fresh := h.failure, h.last, h.changed, h.gen != seen
		ready := h.isSynced && h.following && failure == nil
		stopped, synced := h.stopped, h.isSynced
		h.mu.Unlock()
		if failure != nil {
			last = failure
		}
		switch {
		case fresh && failure != nil && failure.Refused():
			return failure
		case ready:
			return nil
		case stopped && synced:
			return nil
		case stopped:
			return withCause(ErrStopped, last)
		}
		select {
		case <-ctx.Done():
			return withCause(ctx.Err(), last)
		case <-ch:
		}
	}
}

// withCause joins err with the failure behind it, if any, on one line.
func withCause(err, cause error) error {
	if cause == nil {
		return err
	}
	return fmt.Errorf("%w; last failure: %w", err, cause)
}

// opOf names the request of state s.
func opOf(s State) string {
	if s == Listing {
		return "list"
	}
	return "watch"
}

// noteFailure records err, which ended the work of state from, as the
// last failure, and as a persistent failure when persistent. A Warn
// record tells when a persistent failure starts, or its error changes.
func (r *Reflector[T]) noteFailure(from State, err error, persistent bool) {
	h := &r.health
	op := opOf(from)
	h.mu.Lock()
	h.last = fmt.Errorf("reflector: cannot %s %s: %w", op, r.name, err)
	old := h.failure
	if persistent {
		pe := &PersistentError{Resource: r.name, Op: op, Err: err, Since: time.Now(), Attempts: 1}
		if old != nil {
			pe.Since, pe.Attempts = old.Since, old.Attempts+1
		}
		h.failure = pe
		h.gen++
		h.watchForbidden = from != Listing && errors.Is(err, client.ErrForbidden)
	}
	h.changedLocked()
	h.mu.Unlock()
	if persistent && (old == nil || old.Op != op || sameKind(old.Err) != sameKind(err)) {
		r.log.Warn("reflector: the server keeps failing requests; the cache may be stale, retrying",
			"resource", r.name, "op", op, "error", err.Error())
	}
}

// following notes that a watch from a stored full state was accepted.
func (r *Reflector[T]) following() {
	h := &r.health
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.following {
		h.following = true
		h.changedLocked()
	}
}

// failing reports the persistent failure going on, if any, and its
// generation.
func (r *Reflector[T]) failing() (bool, uint64) {
	r.health.mu.Lock()
	defer r.health.mu.Unlock()
	return r.health.failure != nil, r.health.gen
}

// useListing reports whether full states must be read with a paginated
// list: the token may not watch.
func (r *Reflector[T]) useListing() bool {
	r.health.mu.Lock()
	defer r.health.mu.Unlock()
	return r.health.watchForbidden
}

// recovered ends the failure going on, if it is of generation gen (any
// when gen is 0), with an Info record: the Reflector follows the server.
func (r *Reflector[T]) recovered(gen uint64) {
	h := &r.health
	h.mu.Lock()
	old := h.failure
	if old == nil && h.last == nil || gen != 0 && gen != h.gen {
		h.mu.Unlock()
		return
	}
	h.failure, h.last, h.watchForbidden = nil, nil, false
	h.changedLocked()
	h.mu.Unlock()
	if old != nil {
		r.log.Info("reflector: the server answers again; the cache follows it",
			"resource", r.name, "failedFor", time.Since(old.Since).Round(time.Millisecond), "attempts", old.Attempts)
	}
}

// settleTime is how long a watch that delivers nothing must stay up to
// end a persistent failure (one that delivers something ends it at once).
const settleTime = 2 * time.Second

// settle ends the persistent failure going on, if any, once a watch
// accepted now stayed up for settleTime. Call its stop function when the
// watch ends: it returns once the timer can no longer fire.
func (r *Reflector[T]) settle() (stop func()) {
	failing, gen := r.failing()
	if !failing {
		return func() {}
	}
	fired := make(chan struct{})
	t := time.AfterFunc(settleTime, func() {
		defer close(fired)
		r.recovered(gen)
	})
	stopped := false
	return func() {
		if !stopped && !t.Stop() {
			<-fired
		}
		stopped = true
	}
}
