package controller

import (
	"maps"

	"github.com/kubewire/kubewire/client"
)

// EventType says what happened to an object in an informer's cache.
type EventType int

// The event types.
const (
	Added EventType = iota
	Updated
	Deleted
)

var eventTypeNames = [...]string{"Added", "Updated", "Deleted"}

func (t EventType) String() string {
	if t >= 0 && int(t) < len(eventTypeNames) {
		return eventTypeNames[t]
	}
	return "unknown"
}

// Event is a change in a source's cache, as predicates see it. The
// objects are the cache's: do not modify them.
type Event[T client.Object] struct {
	Type EventType
	// Object is the object added, its new state, or its final state.
	Object T
	// Old is the previous state (Updated only; the zero T otherwise).
	// For a periodic resync Old and Object are the same object.
	Old T
	// Initial is set for Added events of the first full state (or of the
	// cache's contents replayed when the controller starts).
	Initial bool
}

// Resync reports whether e is a periodic resync: an Update whose old
// and new object are the same.
func (e Event[T]) Resync() bool {
	return e.Type == Updated && any(e.Old) == any(e.Object)
}

// Predicate decides whether an event is worth a reconcile. Predicates
// run on the informer's handler goroutine and must be quick. A source
// with several predicates queues a Request only if all of them agree.
type Predicate[T client.Object] func(e Event[T]) bool

// GenerationChanged lets through adds, deletes, and updates that changed
// metadata.generation: changes of spec, not of status or metadata, for
// kinds whose generation the server counts (custom resources with a
// status subresource, most built-in kinds with a spec). Resyncs pass:
// the program asked for them.
func GenerationChanged[T client.Object](e Event[T]) bool {
	return e.Type != Updated || e.Resync() || e.Old.GetGeneration() != e.Object.GetGeneration()
}

// LabelsChanged lets through adds, deletes, and updates that changed the
// labels, and resyncs.
func LabelsChanged[T client.Object](e Event[T]) bool {
	return e.Type != Updated || e.Resync() || !maps.Equal(e.Old.GetLabels(), e.Object.GetLabels())
}

// AnnotationsChanged lets through adds, deletes, and updates that changed
// the annotations, and resyncs.
func AnnotationsChanged[T client.Object](e Event[T]) bool {
	return e.Type != Updated || e.Resync() || !maps.Equal(e.Old.GetAnnotations(), e.Object.GetAnnotations())
}

// Or lets an event through when any of ps does: controller-runtime's
// predicate.Or. Go infers no type from generic functions alone, so name
// the kind once, on Or:
//
//	ctl.Filter(controller.Or[*v1.Widget](controller.GenerationChanged, controller.LabelsChanged))
func Or[T client.Object](ps ...Predicate[T]) Predicate[T] {
	return func(e Event[T]) bool {
		for _, p := range ps {
			if p(e) {
				return true
			}
		}
		return false
	}
}

// Not lets an event through when p does not.
func Not[T client.Object](p Predicate[T]) Predicate[T] {
	return func(e Event[T]) bool { return !p(e) }
}

// allow reports whether every predicate lets e through.
func allow[T client.Object](ps []Predicate[T], e Event[T]) bool {
	for _, p := range ps {
		if !p(e) {
			return false
		}
	}
	return true
}
