package informer

import (
	"hash/maphash"
	"iter"

	"github.com/kubewire/kubewire/client"
)

// shelf is where a Store keeps its objects, by namespace and name: the
// objects themselves (decodedShelf), or for a dynamic informer their
// compact form (frozenShelf, in frozen.go). Not safe for concurrent use:
// the Store locks; reads may run together, writes alone.
type shelf[T client.Object] interface {
	// get returns the object namespace/name. A frozenShelf builds a new
	// one on every call, the caller's to keep and modify.
	get(ns, name string) (T, bool)
	// getLater is get for an object about to be replaced by next, which
	// may never be read: a decodedShelf returns it, a frozenShelf a
	// function building it (once, however often called), read-only:
	// sharing with next what did not change.
	getLater(ns, name string, next T) (obj T, build func() T)
	// version returns the stored object's resourceVersion and uid
	// without building it.
	version(ns, name string) (rv, uid string, ok bool)
	// put stores obj under its namespace and name, replacing any object
	// stored there.
	put(obj T)
	remove(ns, name string)
	// count returns the number of objects in namespace ns.
	count(ns string) int
	// objects yields namespace ns's objects, all() every object with its
	// namespace, names() every namespace and name, namespaces() the
	// namespaces with objects. The shelf must not change while they run.
	objects(ns string) iter.Seq[T]
	all() iter.Seq2[string, T]
	names() iter.Seq2[string, string]
	namesIn(ns string) iter.Seq[string]
	namespaces() iter.Seq[string]
	// markStale marks every object stale until put writes it or unmark
	// is called; takeStale returns the keys still marked and drops the
	// marks (also when none are left).
	markStale()
	unmark(ns, name string)
	takeStale() []objKey
}

// decodedShelf keeps the objects as they are: reads share them.
type decodedShelf[T client.Object] struct {
	seed   maphash.Seed
	tables map[string]*nameTable[T]
}

func newDecodedShelf[T client.Object]() *decodedShelf[T] {
	return &decodedShelf[T]{seed: maphash.MakeSeed(), tables: map[string]*nameTable[T]{}}
}

func (d *decodedShelf[T]) get(ns, name string) (T, bool) {
	return d.tables[ns].get(d.seed, name)
}

func (d *decodedShelf[T]) getLater(ns, name string, _ T) (T, func() T) {
	obj, _ := d.tables[ns].get(d.seed, name)
	return obj, nil
}

func (d *decodedShelf[T]) version(ns, name string) (rv, uid string, ok bool) {
	obj, ok := d.tables[ns].get(d.seed, name)
	if !ok {
		return "", "", false
	}
	return obj.GetResourceVersion(), string(obj.GetUID()), true
}

func (d *decodedShelf[T]) put(obj T) {
	ns := obj.GetNamespace()
	t := d.tables[ns]
	if t == nil {
		t = &nameTable[T]{}
		d.tables[ns] = t
	}
	t.put(d.seed, obj)
}

func (d *decodedShelf[T]) remove(ns, name string) {
	t := d.tables[ns]
	if t == nil {
		return
	}
	t.remove(d.seed, name)
	if t.n == 0 {
		delete(d.tables, ns)
	}
}

func (d *decodedShelf[T]) count(ns string) int {
	if t := d.tables[ns]; t != nil {
		return t.n
	}
	return 0
}

func (d *decodedShelf[T]) objects(ns string) iter.Seq[T] {
	if t := d.tables[ns]; t != nil {
		return t.all()
	}
	return func(func(T) bool) {}
}

func (d *decodedShelf[T]) all() iter.Seq2[string, T] {
	return func(yield func(string, T) bool) {
		for ns, t := range d.tables {
			for obj := range t.all() {
				if !yield(ns, obj) {
					return
				}
			}
		}
	}
}

func (d *decodedShelf[T]) names() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for ns, t := range d.tables {
			for obj := range t.all() {
				if !yield(ns, obj.GetName()) {
					return
				}
			}
		}
	}
}

func (d *decodedShelf[T]) namesIn(ns string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for obj := range d.tables[ns].all() {
			if !yield(obj.GetName()) {
				return
			}
		}
	}
}

func (d *decodedShelf[T]) markStale() {
	for _, t := range d.tables {
		t.markStale()
	}
}

func (d *decodedShelf[T]) unmark(ns, name string) { d.tables[ns].unmark(d.seed, name) }

func (d *decodedShelf[T]) takeStale() []objKey {
	var out []objKey
	for ns, t := range d.tables {
		for _, obj := range t.takeStale() {
			out = append(out, objKey{ns, obj.GetName()})
		}
	}
	return out
}

func (d *decodedShelf[T]) namespaces() iter.Seq[string] {
	return func(yield func(string) bool) {
		for ns := range d.tables {
			if !yield(ns) {
				return
			}
		}
	}
}
