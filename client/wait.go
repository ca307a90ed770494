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

// Backoff before a watch or relist that follows a watch ended without
// an event (at once, or refused with 410 Gone), so that a server doing
// that every time is not asked again in a tight loop.
const (
	waitRetryFirst = 100 * time.Millisecond
	waitRetryMax   = 10 * time.Second
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
		if ctx.Err() != nil {
			err = context.Cause(ctx) // a request it ended says only "context canceled"
		}
		return last, fmt.Errorf("client: waiting for %s %q: %w", r, name, err)
	}
	sel := FieldSelector{}.Equals("metadata.name", name)
	var delay time.Duration // grows while watches end without an event
	idle := func() error {
		err := sleepCtx(ctx, delay)
		delay = min(max(2*delay, waitRetryFirst), waitRetryMax)
		return err
	}
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
			if err != nil && !errors.Is(err, ErrExpired) {
				return fail(err)
			}
			events := 0
			ended := err
			for ended == nil {
				ev, err := w.Next()
				if err != nil {
					ended = err
					break
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
			if w != nil {
				w.Close()
			}
			if ctx.Err() != nil {
				return fail(ctx.Err())
			}
			if !errors.Is(ended, ErrExpired) && !errors.Is(ended, io.EOF) && !errors.Is(ended, ErrConnectionLost) {
				return fail(ended)
			}
			if events > 0 {
				delay = 0
			} else if err := idle(); err != nil {
				return fail(err)
			}
			if errors.Is(ended, ErrExpired) {
				break // relist
			}
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
