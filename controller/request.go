package controller

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
)

// Request names the primary object to reconcile. Namespace is "" for a
// cluster-scoped kind. A Request is a comparable value: the work queue
// de-duplicates equal Requests.
type Request struct {
	Namespace, Name string
}

// RequestFor returns the Request naming obj.
func RequestFor(obj client.Object) Request {
	return Request{Namespace: obj.GetNamespace(), Name: obj.GetName()}
}

// String returns "namespace/name", or "name" for a cluster-scoped object.
func (r Request) String() string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}

// Result says what to do with a Request that was reconciled without
// error. The zero value means done: the Request is queued again only
// when one of the controller's sources tells of a change.
//
// There is no Requeue field (controller-runtime deprecated its own): to
// try again with a growing delay, return an error; to try again at a
// time, set RequeueAfter. With an error, RequeueAfter is ignored (and
// the log line says so): the backoff decides. An error wrapped by
// TerminalError is not retried at all.
type Result struct {
	// RequeueAfter, when positive, queues the Request again after this
	// long (sooner if a change arrives meanwhile), for state the
	// controller must check on a clock, such as an expiry.
	RequeueAfter time.Duration
}

// ErrTerminal is matched by the errors TerminalError returns.
var ErrTerminal = errors.New("terminal error, not retried")

// TerminalError marks err as one retrying cannot fix (an invalid spec,
// say): a Reconcile returning it is logged and counted as an error, but
// its Request is not queued again until a source tells of a change.
// The result matches both ErrTerminal and err. TerminalError(nil) is
// nil. It is controller-runtime's reconcile.TerminalError.
func TerminalError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w (%w)", err, ErrTerminal)
}

// Reconciler makes the world match what the primary object named by req
// asks for.
//
// Reconcile is called by the controller's workers, never for the same
// Request twice at once. It should read from the informers' caches (the
// object may be gone: a deleted object is reconciled too, so that what
// it owned can be cleaned up) and be idempotent: it is called again after
// any change, after an error (with a growing delay), and after a panic,
// which the controller recovers and logs with its stack. ctx ends when
// the controller stops (shut down, or leadership lost); Reconcile should
// then return soon.
type Reconciler interface {
	Reconcile(ctx context.Context, req Request) (Result, error)
}

// ReconcilerFunc is a function used as a Reconciler.
type ReconcilerFunc func(ctx context.Context, req Request) (Result, error)

// Reconcile calls f(ctx, req).
func (f ReconcilerFunc) Reconcile(ctx context.Context, req Request) (Result, error) {
	return f(ctx, req)
}

// ForObject returns a Reconciler that reads the Request's object from
// the cache of inf (the controller's primary informer) and calls fn with
// it. A Request whose object the cache no longer holds (it was deleted)
// is done without calling fn: clean up what such an object owned with
// owner references, which the garbage collector follows, or with a
// finalizer (ctrlutil.Finalize), which runs while the object still
// exists. fn gets the cache's object and must not modify it: DeepCopy
// it, or use package ctrlutil's helpers, which copy
// (Options.DetectCacheMutations catches one that does, in tests).
func ForObject[T client.Object](inf *informer.Informer[T], fn func(ctx context.Context, obj T) (Result, error)) Reconciler {
	return ReconcilerFunc(func(ctx context.Context, req Request) (Result, error) {
		obj, ok := inf.Store().Get(req.Namespace, req.Name)
		if !ok {
			return Result{}, nil
		}
		if detecting(ctx) {
			return callDetecting(ctx, req, obj, fn)
		}
		return fn(ctx, obj)
	})
}
