package ctrlutil

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/kubewire/kubewire/client"
)

// Object is a client.Object whose DeepCopy returns its own type: every
// generated kind, users' kinds from kubewire-gen,
// *unstructured.Unstructured and *metav1.PartialObjectMetadata.
type Object[T any] interface {
	client.Object
	DeepCopy() T
}

// Reader is a cache to read objects from before writing them: an
// informer's Lister or Store. Objects it returns are shared and are
// copied before they are changed.
type Reader[T any] interface {
	Get(namespace, name string) (T, bool)
}

// Operation says what a write helper did.
type Operation string

// The operations.
const (
	// Unchanged: mutate left the object as it was; nothing was sent.
	Unchanged Operation = "unchanged"
	// Created: the object did not exist and was created.
	Created Operation = "created"
	// Updated: the object (not its status) was updated or patched.
	Updated Operation = "updated"
	// StatusUpdated: only the status subresource was patched.
	StatusUpdated Operation = "status updated"
	// UpdatedWithStatus: the object and its status were patched.
	UpdatedWithStatus Operation = "updated with status"
)

// CreateOrUpdate makes the object named by obj (its namespace and name)
// what mutate makes of it. It reads the current object from cache when
// cache holds it (cache may be nil), else from the server; mutate then
// changes a copy of it, and the copy is written with Update only if it
// differs, carrying the resourceVersion it was read at, so a write based
// on a stale read fails with client.ErrConflict instead of undoing a
// change it never saw (return the error from Reconcile: it runs again
// with a fresh cache). When the object does not exist, mutate changes
// obj itself, which is created.
//
// mutate sets the fields the caller owns and must not change the
// namespace or name. The status of kinds with a status subresource is
// not written by Update; see CreateOrPatch. The written object, as the
// server answered, is returned (read-your-writes counts it, as every
// write made with a Reconcile's ctx); for Unchanged the current object is returned (the
// cache's copy, not to be modified).
func CreateOrUpdate[T Object[T]](ctx context.Context, res *client.Resource[T], cache Reader[T], obj T, mutate func(T) error) (T, Operation, error) {
	cur, found, err := current(ctx, res, cache, obj)
	if err != nil || !found {
		return create(ctx, res, obj, mutate, err)
	}
	next := cur.DeepCopy()
	if err := callMutate(mutate, next, obj); err != nil {
		return cur, Unchanged, err
	}
	before, after, err := encodeBoth(cur, next)
	if err != nil {
		return cur, Unchanged, err
	}
	if equalJSON(before, after) {
		return cur, Unchanged, nil
	}
	got, err := res.Namespace(obj.GetNamespace()).Update(ctx, next, client.UpdateOptions{})
	if err != nil {
		return cur, Unchanged, fmt.Errorf("ctrlutil: update %s: %w", describe(obj), err)
	}
	return got, Updated, nil
}

// CreateOrPatch is CreateOrUpdate with merge patches: it sends only the
// fields mutate changed, the object's first and then, if mutate changed
// the status, the status subresource's, each with the resourceVersion it
// started from as a precondition (a stale read fails with
// client.ErrConflict). A kind whose KindInfo lists no status subresource
// gets its status in the object's one patch. It suits objects that other
// writers change too, and kinds whose status the caller sets. Lists
// (finalizers, owner references, containers) are sent whole, as merge
// patches do.
func CreateOrPatch[T Object[T]](ctx context.Context, res *client.Resource[T], cache Reader[T], obj T, mutate func(T) error) (T, Operation, error) {
	cur, found, err := current(ctx, res, cache, obj)
	if err != nil || !found {
		return create(ctx, res, obj, mutate, err)
	}
	return Patch(ctx, res, cur, mutate)
}

// Patch sends what mutate changes of a copy of cur (typically a cached
// object, which it does not modify) as merge patches, as CreateOrPatch
// does, and returns the patched object (cur when nothing changed).
func Patch[T Object[T]](ctx context.Context, res *client.Resource[T], cur T, mutate func(T) error) (T, Operation, error) {
	next := cur.DeepCopy()
	if err := callMutate(mutate, next, cur); err != nil {
		return cur, Unchanged, err
	}
	before, after, err := encodeBoth(cur, next)
	if err != nil {
		return cur, Unchanged, err
	}
	main, status := mergePatch(before, after)
	res = res.Namespace(cur.GetNamespace())
	has, known := statusSubresource(cur)
	if status != nil && !has {
		// The status is a field of the object like any other: one patch.
		op := StatusUpdated
		if main != nil {
			op = UpdatedWithStatus
		} else {
			main = map[string]any{}
		}
		main["status"] = status["status"]
		got, err := sendPatch(ctx, res, cur, main, cur.GetResourceVersion())
		if err != nil {
			return cur, Unchanged, err
		}
		return got, op, nil
	}
	got, op := cur, Unchanged
	rv := cur.GetResourceVersion()
	if main != nil {
		if got, err = sendPatch(ctx, res, cur, main, rv); err != nil {
			return cur, Unchanged, err
		}
		op, rv = Updated, got.GetResourceVersion()
	}
	if status != nil {
		patched, err := sendPatch(ctx, res.Status(), cur, status, rv)
		if errors.Is(err, client.ErrNotFound) && !known {
			// A kind known only at run time may have no status
			// subresource; a deleted object answers 404 here too.
			patched, err = sendPatch(ctx, res, cur, status, rv)
		}
		if err != nil {
			return got, op, err
		}
		got = patched
		op = map[Operation]Operation{Unchanged: StatusUpdated, Updated: UpdatedWithStatus}[op]
	}
	return got, op, nil
}

// statusSubresource reports whether obj's kind serves its status as a
// subresource, and whether that is known: a KindInfo listing its
// subresources says; for other objects (Unstructured, or a hand-written
// KindInfo that leaves Subresources nil) it is assumed, as most kinds
// with a status do, and a 404 from the status sends it with the object.
func statusSubresource(obj client.Object) (has, known bool) {
	k, ok := obj.(client.Kinded)
	if !ok {
		return true, false
	}
	sub := k.KindInfo().Subresources
	if sub == nil {
		return true, false
	}
	return slices.Contains(sub, "status"), true
}

// current returns the object obj names, from cache or the server.
func current[T Object[T]](ctx context.Context, res *client.Resource[T], cache Reader[T], obj T) (T, bool, error) {
	if cache != nil {
		if cur, ok := cache.Get(obj.GetNamespace(), obj.GetName()); ok {
			return cur, true, nil
		}
	}
	cur, err := res.Namespace(obj.GetNamespace()).Get(ctx, obj.GetName(), client.GetOptions{})
	if errors.Is(err, client.ErrNotFound) {
		return cur, false, nil
	}
	if err != nil {
		return cur, false, fmt.Errorf("ctrlutil: get %s: %w", describe(obj), err)
	}
	return cur, true, nil
}

// create mutates and creates obj, unless err (from reading it) is set.
func create[T Object[T]](ctx context.Context, res *client.Resource[T], obj T, mutate func(T) error, err error) (T, Operation, error) {
	var zero T
	if err != nil {
		return zero, Unchanged, err
	}
	if err := callMutate(mutate, obj, obj.DeepCopy()); err != nil {
		return zero, Unchanged, err
	}
	got, err := res.Namespace(obj.GetNamespace()).Create(ctx, obj, client.CreateOptions{})
	if err != nil {
		return zero, Unchanged, fmt.Errorf("ctrlutil: create %s: %w", describe(obj), err)
	}
	return got, Created, nil
}

// callMutate calls mutate on obj and checks that it kept the identity
// of want.
func callMutate[T Object[T]](mutate func(T) error, obj T, want client.Object) error {
	if err := mutate(obj); err != nil {
		return err
	}
	if obj.GetNamespace() != want.GetNamespace() || obj.GetName() != want.GetName() {
		return fmt.Errorf("ctrlutil: mutate changed the object's namespace or name from %s to %s/%s: %w",
			describe(want), obj.GetNamespace(), obj.GetName(), ErrIdentityChanged)
	}
	return nil
}

// ErrIdentityChanged is matched by the error of a write helper whose
// mutate function changed the object's namespace or name.
var ErrIdentityChanged = errors.New("identity changed")

func describe(obj client.Object) string {
	if obj.GetNamespace() == "" {
		return kindOf(obj) + " " + obj.GetName()
	}
	return kindOf(obj) + " " + obj.GetNamespace() + "/" + obj.GetName()
}
