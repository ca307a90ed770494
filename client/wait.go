package client

import (
	"context"
	"errors"
	"fmt"
	"io"
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
// restarted) relists. WaitFor ends with ctx, with cond's first error, or
// with an error of List or Watch (ErrForbidden, ErrNotFound for a
// resource the server does not serve, ...). On error it returns the last
// state seen, or the zero T when it saw none.
//
//	pod, err := pods.WaitFor(ctx, "web-0", func(p *corev1.Pod) (bool, error) {
//		return p.Status.Phase == corev1.PodRunning, nil
//	})
//
// It needs list and watch permission, not get. r must not be a
// subresource.
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
// created after it. Watches are resumed and relisted as in WaitFor; it
// ends with ctx or an error of List or Watch.
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

// Backoff between watches that end without an event, so a server that
// ends every watch at once is not asked again in a tight loop.
const (
	waitRewatchFirst = 100 * time.Millisecond
	waitRewatchMax   = 10 * time.Second
)

// wait lists and watches the object name, calling step on each of its
// states (exists false: there is no such object) until step is done or
// fails.
func (r *Resource[T]) wait(ctx context.Context, name string, step func(obj T, exists bool) (bool, error)) (T, error) {
	var last T
	if err := checkName("name", name); err != nil {
		return last, err
	}
	fail := func(err error) (T, error) {
		return last, fmt.Errorf("client: waiting for %s %q: %w", r, name, err)
	}
	sel := FieldSelector{}.Equals("metadata.name", name)
	var delay time.Duration
	for {
		// List: the current state and the version to watch from.
		list, err := r.List(ctx, ListOptions{FieldSelector: sel})
		if err != nil {
			return fail(err)
		}
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
			if errors.Is(err, ErrExpired) {
				break
			}
			if err != nil {
				return fail(err)
			}
			events := 0
			var ended error
			for ended == nil {
				ev, err := w.Next()
				if err != nil {
					ended = err
					continue
				}
				events++
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
			w.Close()
			switch {
			case ctx.Err() != nil:
				return fail(context.Cause(ctx))
			case errors.Is(ended, ErrExpired):
			case errors.Is(ended, io.EOF), errors.Is(ended, ErrConnectionLost):
				if events == 0 {
					if err := sleepCtx(ctx, delay); err != nil {
						return fail(err)
					}
					delay = min(max(2*delay, waitRewatchFirst), waitRewatchMax)
				} else {
					delay = 0
				}
				continue
			default:
				return fail(ended)
			}
			break // relist
		}
	}
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
