package informer

import (
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/internal/runtime/selector"
)

// Lister reads an informer's cache with label-selector queries, the way
// a controller reads the server, without a request. The objects returned
// are the cache's: do not modify them (DeepCopy first), unless the cache
// builds them on every read (a dynamic informer's, see Store). A Lister
// is a small value; copy it freely.
type Lister[T client.Object] struct {
	store *Store[T]
}

// Lister returns a Lister reading s.
func (s *Store[T]) Lister() Lister[T] { return Lister[T]{s} }

// Get returns the cached object namespace/name ("" namespace for
// cluster-scoped objects).
func (l Lister[T]) Get(namespace, name string) (T, bool) { return l.store.Get(namespace, name) }

// List returns the cached objects whose labels match sel (nil: all), in
// no particular order. The selector is read in the server's syntax
// (client.LabelSelector, client.MatchLabels or client.RawSelector); an
// invalid one is an error.
func (l Lister[T]) List(sel client.Selector) ([]T, error) {
	m, err := parseSelector(sel)
	if err != nil {
		return nil, err
	}
	return filter(l.store.List(), m), nil
}

// ByIndex returns the cached objects indexed under value by the named
// index whose labels match sel (nil: all), in no particular order.
func (l Lister[T]) ByIndex(indexName, value string, sel client.Selector) ([]T, error) {
	m, err := parseSelector(sel)
	if err != nil {
		return nil, err
	}
	objs, err := l.store.ByIndex(indexName, value)
	if err != nil {
		return nil, err
	}
	return filter(objs, m), nil
}

// Namespace returns a view of the objects in one namespace.
func (l Lister[T]) Namespace(namespace string) NamespaceLister[T] {
	return NamespaceLister[T]{l.store, namespace}
}

// NamespaceLister is a Lister limited to one namespace.
type NamespaceLister[T client.Object] struct {
	store     *Store[T]
	namespace string
}

// Get returns the cached object name in the namespace.
func (l NamespaceLister[T]) Get(name string) (T, bool) { return l.store.Get(l.namespace, name) }

// List returns the namespace's cached objects whose labels match sel
// (nil: all), in no particular order.
func (l NamespaceLister[T]) List(sel client.Selector) ([]T, error) {
	m, err := parseSelector(sel)
	if err != nil {
		return nil, err
	}
	objs, _ := l.store.ByIndex(NamespaceIndex, l.namespace)
	return filter(objs, m), nil
}

// ByIndex returns the namespace's cached objects indexed under value by
// the named index whose labels match sel (nil: all), in no particular
// order: the index needs no namespace in its keys for a query in one
// namespace (controller-runtime's namespaced field index).
func (l NamespaceLister[T]) ByIndex(indexName, value string, sel client.Selector) ([]T, error) {
	objs, err := l.store.Lister().ByIndex(indexName, value, sel)
	if err != nil {
		return nil, err
	}
	out := objs[:0]
	for _, o := range objs {
		if o.GetNamespace() == l.namespace {
			out = append(out, o)
		}
	}
	clear(objs[len(out):])
	return out, nil
}

func parseSelector(sel client.Selector) (selector.Labels, error) {
	if sel == nil {
		return selector.Labels{}, nil
	}
	if e, ok := sel.(interface{ Err() error }); ok && e.Err() != nil {
		return selector.Labels{}, e.Err()
	}
	return selector.ParseLabels(sel.String())
}

type labeled interface{ GetLabels() map[string]string }

// filter keeps, in place, the objects whose labels match m.
func filter[T client.Object](objs []T, m selector.Labels) []T {
	if m.Empty() {
		return objs
	}
	out := objs[:0]
	for _, o := range objs {
		var labels map[string]string
		if l, ok := any(o).(labeled); ok {
			labels = l.GetLabels()
		}
		if m.Matches(labels) {
			out = append(out, o)
		}
	}
	clear(objs[len(out):])
	return out
}
