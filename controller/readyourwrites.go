package controller

import (
	"context"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
)

// Read your writes
//
// A write answers with the object's new resourceVersion X. kube-apiserver's
// resourceVersions are opaque strings to clients, but they are etcd
// revisions: decimal integers that grow with every write, so that within
// one resource a larger one is later (KEP-5647, which adds the same wait
// to client-go, relies on this too). An informer has observed X once the
// last resourceVersion it applied (an event's or a bookmark's) is X or
// more, or once the object it holds is at X or later. Versions that do
// not parse as integers (other servers) are not compared: the wait ends
// at once.

// writesKey is the context key of the writes a Reconcile recorded.
type writesKey struct{}

// writes are the writes one Reconcile call recorded.
type writes struct {
	mu   sync.Mutex
	list []write
}

// write is one recorded write.
type write struct {
	typ                 reflect.Type
	untyped             bool // Unstructured or PartialObjectMetadata: match apiVersion and kind too
	apiVersion, kind    string
	namespace, name, rv string
	// labels, with namespace and name, tell sources that cache only a
	// part of the collection (Informer.Covers) whether the write is in
	// it: a write outside a source's part is not waited for, as the
	// source never sees it.
	labels map[string]string
}

// Wrote records that obj, as the server answered a write, was written by
// the Reconcile call whose ctx this is. With Options.ReadYourWrites, the
// worker waits after Reconcile until the controller's sources holding
// obj's kind have observed obj's resourceVersion (or a later one), so
// that the next Reconcile of the Request reads its own writes from the
// cache. Sources are matched by Go type, and for dynamic and
// metadata-only objects also by apiVersion and kind.
//
// Writes made with the Reconcile's ctx, through any client.Resource, are
// recorded without it (see client.OnWrite): Create, Update,
// UpdateStatus, Patch, Apply and ApplyStatus, package ctrlutil's helpers
// included. Wrote is for writes made otherwise: with another ctx, or
// through a client of another library.
//
// Outside a Reconcile, or without ReadYourWrites, Wrote does nothing. It
// is safe for concurrent use and keeps no reference to obj.
func Wrote(ctx context.Context, obj client.Object) {
	if ws, _ := ctx.Value(writesKey{}).(*writes); ws != nil {
		ws.add(obj)
	}
}

// add records obj, as the server answered a write.
func (ws *writes) add(obj client.Object) {
	if obj == nil || reflect.ValueOf(obj).IsNil() {
		return
	}
	rv := obj.GetResourceVersion()
	if rv == "" {
		return
	}
	w := write{typ: reflect.TypeOf(obj), namespace: obj.GetNamespace(), name: obj.GetName(), rv: rv,
		labels: maps.Clone(obj.GetLabels())}
	switch obj.(type) {
	case *unstructured.Unstructured, *metav1.PartialObjectMetadata:
		w.untyped, w.apiVersion, w.kind = true, obj.GetAPIVersion(), obj.GetKind()
	}
	ws.mu.Lock()
	ws.list = append(ws.list, w)
	ws.mu.Unlock()
}

// waitForWrites waits until the sources have observed every write in
// ws, or ReadYourWritesTimeout passes, or ctx ends.
func (c *Controller[T]) waitForWrites(ctx context.Context, regs []registered, ws *writes) {
	ws.mu.Lock()
	pending := ws.list
	ws.list = nil
	ws.mu.Unlock()
	if len(pending) == 0 {
		return
	}
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, c.opts.ReadYourWritesTimeout)
	defer cancel()
	// Bookmarks move an informer's resourceVersion without telling
	// handlers; look again now and then.
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		var wake <-chan struct{}
		pending = slices.DeleteFunc(pending, func(w write) bool {
			for _, r := range regs {
				if concerns, done := r.observed(w); !concerns || done {
					continue
				}
				ch := r.changed() // then look again, so that no change is missed
				if _, done := r.observed(w); !done {
					if wake == nil {
						wake = ch
					}
					return false
				}
			}
			return true // observed by every source it concerns
		})
		if len(pending) == 0 {
			c.waited(start, false)
			return
		}
		select {
		case <-wake:
		case <-tick.C:
		case <-ctx.Done():
			if context.Cause(ctx) == context.DeadlineExceeded {
				c.log.Warn("controller: caches did not observe the reconcile's writes in time",
					"timeout", c.opts.ReadYourWritesTimeout, "object", pending[0].namespace+"/"+pending[0].name, "resourceVersion", pending[0].rv)
			}
			c.waited(start, true)
			return
		}
	}
}

func (c *Controller[T]) waited(start time.Time, timedOut bool) {
	if c.opts.Metrics != nil {
		c.opts.Metrics.WaitedForWrites(c.name, time.Since(start), timedOut)
	}
}

// observed reports whether s has observed resourceVersion rv of the
// object namespace/name.
func observed[O client.Object](s *informer.Store[O], namespace, name, rv string) bool {
	want, ok := parseRV(rv)
	if !ok {
		return true // not comparable: do not wait
	}
	if have, ok := parseRV(s.ResourceVersion()); ok && have >= want {
		return true
	}
	if obj, ok := s.Get(namespace, name); ok {
		if have, ok := parseRV(obj.GetResourceVersion()); ok && have >= want {
			return true
		}
	}
	return false
}

func parseRV(rv string) (uint64, bool) {
	n, err := strconv.ParseUint(rv, 10, 64)
	return n, err == nil
}

// WaitForCache blocks until inf has observed written, an object as the
// server answered a write (its resourceVersion or a later one), or ctx
// ends (its error is returned). Use it after writes made outside a
// controller's Reconcile; inside, see Wrote and Options.ReadYourWrites.
// It looks at the cache every few milliseconds.
func WaitForCache[T client.Object](ctx context.Context, inf *informer.Informer[T], written client.Object) error {
	wait := time.Millisecond
	for !observed(inf.Store(), written.GetNamespace(), written.GetName(), written.GetResourceVersion()) {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 50*time.Millisecond)
	}
	return nil
}
