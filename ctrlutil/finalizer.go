package ctrlutil

import (
	"context"
	"errors"
	"slices"

	"github.com/kubewire/kubewire/client"
)

// ContainsFinalizer reports whether obj has the finalizer f.
func ContainsFinalizer(obj client.Object, f string) bool {
	return slices.Contains(obj.GetFinalizers(), f)
}

// AddFinalizer adds f to obj's finalizers unless it is there, and
// reports whether it changed obj. The finalizers' slice is replaced,
// never modified in place.
func AddFinalizer(obj client.Object, f string) bool {
	fs := obj.GetFinalizers()
	if slices.Contains(fs, f) {
		return false
	}
	obj.SetFinalizers(append(fs[:len(fs):len(fs)], f))
	return true
}

// RemoveFinalizer removes f from obj's finalizers, and reports whether
// it changed obj. The finalizers' slice is replaced, never modified in
// place.
func RemoveFinalizer(obj client.Object, f string) bool {
	fs := obj.GetFinalizers()
	if !slices.Contains(fs, f) {
		return false
	}
	out := slices.DeleteFunc(slices.Clone(fs), func(s string) bool { return s == f })
	if len(out) == 0 {
		out = nil
	}
	obj.SetFinalizers(out)
	return true
}

// Finalize runs the finalizer f of obj, a cached object (not modified):
//
//   - While obj is not being deleted, Finalize makes sure it has f,
//     patching it in when missing, and returns the object as it is now
//     (patched, or obj) and deleting false: reconcile on.
//   - Once obj is being deleted (deletionTimestamp set) and still has f,
//     Finalize calls cleanup, then patches f out, after which the server
//     deletes obj if no other finalizer holds it, and returns deleting
//     true: stop reconciling. When cleanup fails, its error is returned
//     and f stays, so the Reconcile is retried and obj kept until the
//     cleanup succeeds.
//   - A deleted obj without f returns deleting true at once.
//
// The patches carry obj's resourceVersion (see Patch). One answered
// not found means obj is gone (a stale cache: an earlier Reconcile's
// patch let the server delete it): Finalize returns deleting true and no
// error, as there is nothing left to reconcile, so cleanup must be
// idempotent.
func Finalize[T Object[T]](ctx context.Context, res *client.Resource[T], obj T, f string, cleanup func(ctx context.Context, obj T) error) (cur T, deleting bool, err error) {
	if obj.GetDeletionTimestamp() == nil {
		cur, _, err = Patch(ctx, res, obj, func(o T) error {
			AddFinalizer(o, f)
			return nil
		})
		if errors.Is(err, client.ErrNotFound) {
			return obj, true, nil
		}
		return cur, false, err
	}
	if !ContainsFinalizer(obj, f) {
		return obj, true, nil
	}
	if err := cleanup(ctx, obj); err != nil {
		return obj, true, err
	}
	cur, _, err = Patch(ctx, res, obj, func(o T) error {
		RemoveFinalizer(o, f)
		return nil
	})
	if errors.Is(err, client.ErrNotFound) {
		return obj, true, nil
	}
	return cur, true, err
}

// IgnoreNotFound is client.IgnoreNotFound, kept here beside the helpers
// that use it.
func IgnoreNotFound(err error) error { return client.IgnoreNotFound(err) }
