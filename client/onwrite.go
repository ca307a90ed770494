package client

import (
	"context"
	"net/http"
)

// writeObserverKey is the context key of OnWrite's function.
type writeObserverKey struct{}

// OnWrite returns a copy of ctx with which every write of a Resource
// that answers an object (Create, Update, UpdateStatus, Patch, Apply,
// ApplyStatus, UpdateScale) calls fn with that object, the server's
// answer, once the write succeeded. Dry runs, failed writes, reads and
// deletions are not reported. Writes through any Resource and any Client
// count, ctx being what they have in common: package controller records
// the writes of a Reconcile this way, for read-your-writes.
//
// fn runs on the writing goroutine before the write returns; it must be
// quick and must not modify obj (the caller gets the same object). With
// a ctx that carries functions of earlier OnWrite calls, fn runs first,
// then those.
func OnWrite(ctx context.Context, fn func(obj Object)) context.Context {
	if fn == nil {
		return ctx
	}
	if outer, ok := ctx.Value(writeObserverKey{}).(func(Object)); ok {
		inner := fn
		fn = func(obj Object) {
			inner(obj)
			outer(obj)
		}
	}
	return context.WithValue(ctx, writeObserverKey{}, fn)
}

// wrote tells ctx's OnWrite function about obj, the answer to req, when
// req is a write that persisted.
func wrote(ctx context.Context, req *request, obj Object) {
	switch req.method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
	default:
		return
	}
	if req.query.Get("dryRun") != "" {
		return
	}
	if fn, ok := ctx.Value(writeObserverKey{}).(func(Object)); ok {
		fn(obj)
	}
}
