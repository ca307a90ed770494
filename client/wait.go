package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/kubewire/kubewire/api/types"
)

// WaitFor blocks until the object name meets cond and returns that state
// of it. It lists the object (field selector metadata.name) and then
// watches it from the list's resourceVersion, calling cond on every state
// it sees, the first one included: an object that already meets cond is
// returned after one list.
//
// cond is called only while the object exists: before it is created, and
// after it is deleted until it is created again, WaitFor keeps waiting.
// To wait for the object to be gone, use WaitForDeletion.
//
// A watch the server ends, or whose connection breaks, is resumed from
// the last resourceVersion seen; a 410 Gone (history compacted, server
// restarted) relists. Failures the server may get over (429, 500, 503,
// 504, a refused connection) are waited through once the client's own
// retries give up, with a backoff capped at 10s. WaitFor ends with ctx
// (its error then also wraps the last such failure, if the outage
// lasted until then), with cond's first error, returned as is, or with
// any other error of List or Watch, at once (ErrForbidden, ErrNotFound
// for a resource the server does not serve, ...). On error it returns
// the last state seen, or the zero T when it saw none.
//
//	pod, err := pods.WaitFor(ctx, "web-0", func(p *corev1.Pod) (bool, error) {
//		return p.Status.Phase == corev1.PodRunning, nil
//	})
//
// It needs list and watch permission, not get. r must not be a
// subresource, and must have a namespace (Resource.Namespace) if the
// resource is namespaced.
func (r *Resource[T]) WaitFor(ctx context.Context, name string, cond func(T) (bool, error)) (T, error) {
	return r.wait(ctx, name, func(obj T, exists bool) (bool, error) {
		if !exists {
			return false, nil
		}
		return cond(obj)
	})
}

// WaitForDeletion blocks until the object name does not exist: it
// returns nil at once when there is no such object, and otherwise when
// that object (by UID) is deleted, even if one of the same name is
// created after it. Watches are resumed and relisted, and outages
// waited through, as in WaitFor; it ends with ctx or any other error of
// List or Watch.
//
//	if err := pods.Delete(ctx, "web-0", client.DeleteOptions{}); err != nil {
//		return err
//	}
//	if err := pods.WaitForDeletion(ctx, "web-0"); err != nil {
//		return err
//	}
//
// The object waited for is the one its first list finds: if a
// controller (a StatefulSet's, say) may create one of the same name
// between the delete and that list, it waits for the new one too.
func (r *Resource[T]) WaitForDeletion(ctx context.Context, name string) error {
	var uid types.UID
	_, err := r.wait(ctx, name, func(obj T, exists bool) (bool, error) {
		if !exists {
			return true, nil
		}
		if uid == "" {
			uid = obj.GetUID()
		}
		return obj.GetUID() != uid, nil
	})
	return err
}

// Backoff before a request that follows a failure the server may get
// over (a 503, a refused connection) or a watch that ended without an
// event (at once, or refused with 410 Gone), so that a server doing that
// every time is not asked again in a tight loop. An event resets it.
const (
	waitRetryFirst = 100 * time.Millisecond
	waitRetryMax   = 10 * time.Second
)

// wait lists and watches the object name, calling step on each of its
// states (exists false: there is no such object) until step is done or
// fails.
func (r *Resource[T]) wait(ctx context.Context, name string, step func(obj T, exists bool) (bool, error)) (T, error) {
	var last T
	if _, err := r.objectPath(r.namespace, name); err != nil { // a bad name, or no namespace for a namespaced resource
		return last, err
	}
	var transient error // the last failure being waited through
	fail := func(err error) (T, error) {
		if ctx.Err() != nil {
			err = context.Cause(ctx) // a request it ended says only "context canceled"
			if transient != nil {
				err = fmt.Errorf("%w; the last request failed: %w", err, transient)
			}
		}
		return last, fmt.Errorf("client: waiting for %s %q: %w", r, name, err)
	}
	sel := FieldSelector{}.Equals("metadata.name", name)
	var delay time.Duration
	backOff := func() error {
		err := sleepCtx(ctx, delay)
		delay = min(max(2*delay, waitRetryFirst), waitRetryMax)
		return err
	}
	// waitThrough returns nil, after a backoff, for a failure worth
	// trying again, and err otherwise.
	waitThrough := func(err error) error {
		if ctx.Err() != nil || !waitTransient(err) {
			return err
		}
		transient = err
		return backOff()
	}
	for {
		// List: the current state and the version to watch from.
		list, err := r.List(ctx, ListOptions{FieldSelector: sel})
		if err != nil {
			if err := waitThrough(err); err != nil {
				return fail(err)
			}
			continue
		}
		transient = nil
		exists := false
		for _, obj := range list.Items {
			if obj.GetName() == name { // a server ignoring the selector sends others too
				last, exists = obj, true
			}
		}
		if done, err := step(last, exists); done || err != nil {
			return last, err
		}
		rv := list.ResourceVersion
		// Watch from rv, resuming ended watches, until a 410 asks to relist.
		for {
			w, err := r.Watch(ctx, WatchOptions{FieldSelector: sel, ResourceVersion: rv, AllowWatchBookmarks: true})
			events := 0
			ended := err
			for ended == nil {
				ev, err := w.Next()
				if err != nil {
					ended = err
					break
				}
				events++
				transient = nil
				rv = ev.ResourceVersion
				if ev.Type == Bookmark || ev.Object.GetName() != name {
					continue
				}
				if ev.Type != Deleted {
					last = ev.Object
				}
				if done, err := step(ev.Object, ev.Type != Deleted); done || err != nil {
					w.Close()
					return last, err
				}
			}
			if w != nil {
				w.Close()
			}
			if events > 0 {
				delay = 0
			}
			switch {
			case ctx.Err() != nil:
				return fail(ctx.Err())
			case errors.Is(ended, ErrExpired), errors.Is(ended, io.EOF):
				// Ended by the server: a backoff only if it sent nothing.
				if events == 0 {
					if err := backOff(); err != nil {
						return fail(err)
					}
				}
			default:
				if err := waitThrough(ended); err != nil {
					return fail(err)
				}
			}
			if errors.Is(ended, ErrExpired) {
				break // relist
			}
		}
	}
}

// waitTransient reports whether err is a failure WaitFor waits through:
// the server overloaded or restarting (429, 500, 503, 504), or the
// connection refused or broken. The client's own retries of the request
// have given up by then; WaitFor goes on until its ctx ends.
func waitTransient(err error) bool {
	for _, e := range []error{ErrTooManyRequests, ErrInternal, ErrServiceUnavailable, ErrServerTimeout, ErrConnectionLost, syscall.ECONNREFUSED} {
		if errors.Is(err, e) {
			return true
		}
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// sleepCtx waits for d or until ctx ends, returning ctx's cause then.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
