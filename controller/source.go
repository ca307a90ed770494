package controller

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
	"github.com/kubewire/kubewire/workqueue"
)

// source is an informer a controller listens to: its primary informer,
// an owned kind's, or any informer with a map function.
type source interface {
	// register adds the source's handler for one Run, queueing into q.
	register(q *workqueue.Queue[Request], resync time.Duration) registered
	// synced reports whether the informer holds a full state.
	synced() bool
	// failure is the informer's persistent failure, if it reports one.
	failure() error
	// running reports whether the informer's Run is running.
	running() bool
	fmt.Stringer
}

// registered is a source's handler during one Run.
type registered interface {
	// waitForSync waits until the informer holds a full state and the
	// handler has queued it.
	waitForSync(ctx context.Context) error
	// remove unregisters the handler.
	remove()
	// observed reports whether w concerns this source and whether the
	// cache has observed it.
	observed(w write) (concerns, done bool)
	// changed returns a channel closed at the next change of the cache.
	changed() <-chan struct{}
}

// watch is one source: an informer of O, the predicates its events must
// pass and how an object maps to Requests.
type watch[O client.Object] struct {
	inf      *informer.Informer[O]
	preds    []Predicate[O]
	requests func(obj O, emit func(Request))
	primary  bool // resyncs apply
	kind     string
	deleted  func(O) // told of deletions that queue a Request (sharded primaries)

	typ reflect.Type
	gvk atomic.Pointer[string] // apiVersion and kind learned from objects, to match writes of untyped objects
}

func newWatch[O client.Object](inf *informer.Informer[O], preds []Predicate[O], requests func(O, func(Request)), kind string) *watch[O] {
	return &watch[O]{inf: inf, preds: preds, requests: requests, kind: kind, typ: reflect.TypeFor[O]()}
}

func (w *watch[O]) String() string { return w.kind }

func (w *watch[O]) register(q *workqueue.Queue[Request], resync time.Duration) registered {
	h := &handler[O]{w: w, q: q}
	opts := informer.HandlerOptions{}
	if w.primary {
		opts.ResyncPeriod = resync
	}
	h.reg = w.inf.AddHandler(h, opts)
	return h
}

// handler turns one source's events into Requests for one Run.
type handler[O client.Object] struct {
	w    *watch[O]
	q    *workqueue.Queue[Request]
	reg  *informer.Registration[O]
	ping notifier
}

func (h *handler[O]) OnAdd(obj O, initial bool) {
	h.handle(Event[O]{Type: Added, Object: obj, Initial: initial})
}

func (h *handler[O]) OnUpdate(old, obj O) {
	h.handle(Event[O]{Type: Updated, Object: obj, Old: old})
}

func (h *handler[O]) OnDelete(obj O, _ bool) {
	h.handle(Event[O]{Type: Deleted, Object: obj})
}

func (h *handler[O]) handle(e Event[O]) {
	defer h.ping.notify()
	if h.w.gvk.Load() == nil {
		av := e.Object.GetAPIVersion() + "\x00" + e.Object.GetKind()
		h.w.gvk.Store(&av)
	}
	if !allow(h.w.preds, e) {
		return
	}
	if e.Type == Deleted && h.w.deleted != nil {
		h.w.deleted(e.Object)
	}
	// Initial objects and resyncs wait behind real changes; aging keeps
	// them from starving.
	prio := 0
	if e.Initial || e.Resync() {
		prio = workqueue.LowPriority
	}
	emit := func(r Request) {
		if prio == 0 {
			h.q.Add(r)
		} else {
			h.q.AddWithOptions(r, workqueue.AddOptions{Priority: prio})
		}
	}
	h.w.requests(e.Object, emit)
	if e.Type == Updated && !e.Resync() && !h.w.primary {
		h.w.requests(e.Old, emit) // an owner or mapping that changed: tell the old one too
	}
}

func (h *handler[O]) waitForSync(ctx context.Context) error {
	if err := h.w.inf.WaitForSync(ctx); err != nil {
		return err
	}
	return h.reg.WaitForSync(ctx)
}

func (w *watch[O]) synced() bool { return w.inf.HasSynced() }

func (w *watch[O]) running() bool { return w.inf.Reflector().State() != reflector.Stopped }

// failure returns the informer's persistent failure, if any.
func (w *watch[O]) failure() error { return w.inf.Err() }

func (h *handler[O]) remove() { h.reg.Remove() }

func (h *handler[O]) changed() <-chan struct{} { return h.ping.wait() }

func (h *handler[O]) observed(w write) (bool, bool) {
	if w.typ != h.w.typ {
		return false, false
	}
	if w.untyped {
		if av := h.w.gvk.Load(); av == nil || *av != w.apiVersion+"\x00"+w.kind {
			return false, false
		}
	}
	if !h.w.inf.Covers(w.namespace, w.name, w.labels) {
		// Outside the part this source caches: it never sees the write,
		// unless it holds the object, which then leaves it.
		if _, held := h.w.inf.Store().Get(w.namespace, w.name); !held {
			return false, false
		}
	}
	return true, observed(h.w.inf.Store(), w.namespace, w.name, w.rv)
}

// notifier wakes the goroutines waiting for the next change. It costs
// nothing while nobody waits.
type notifier struct {
	mu sync.Mutex
	ch chan struct{}
}

func (n *notifier) wait() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.ch == nil {
		n.ch = make(chan struct{})
	}
	return n.ch
}

func (n *notifier) notify() {
	n.mu.Lock()
	if n.ch != nil {
		close(n.ch)
		n.ch = nil
	}
	n.mu.Unlock()
}

// ownerRequests returns the map function of an owned kind: the Request
// of the controller owner of the given group and kind, if any.
func ownerRequests[O client.Object](group, kind string, namespaced bool) func(O, func(Request)) {
	return func(obj O, emit func(Request)) {
		if ref, ok := ControllerOf(obj); ok && ref.Kind == kind && groupOf(ref.APIVersion) == group {
			r := Request{Name: ref.Name}
			if namespaced {
				r.Namespace = obj.GetNamespace()
			}
			emit(r)
		}
	}
}

// ControllerOf returns obj's owner reference with controller set, if
// any: the object that manages it.
func ControllerOf(obj client.Object) (metav1.OwnerReference, bool) {
	for _, ref := range obj.GetOwnerReferences() {
		if ref.Controller != nil && *ref.Controller {
			return ref, true
		}
	}
	return metav1.OwnerReference{}, false
}

// groupOf returns the group of an apiVersion ("" for "v1").
func groupOf(apiVersion string) string {
	if g, _, ok := strings.Cut(apiVersion, "/"); ok {
		return g
	}
	return ""
}
