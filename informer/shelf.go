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

// namespaced keeps a shelf's entries in one nameTable per namespace:
// the bookkeeping both shelves share, whatever their entries are.
type namespaced[E hasName] struct {
	seed   maphash.Seed
	tables map[string]*nameTable[E]
}

func newNamespaced[E hasName]() namespaced[E] {
	return namespaced[E]{seed: maphash.MakeSeed(), tables: map[string]*nameTable[E]{}}
}

func (n *namespaced[E]) lookup(ns, name string) (E, bool) {
	return n.tables[ns].get(n.seed, name)
}

// store puts e under namespace ns, replacing the entry of the same name.
func (n *namespaced[E]) store(ns string, e E) {
	t := n.tables[ns]
	if t == nil {
		t = &nameTable[E]{}
		n.tables[ns] = t
	}
	t.put(n.seed, e)
}

func (n *namespaced[E]) remove(ns, name string) {
	t := n.tables[ns]
	if t == nil {
		return
	}
	t.remove(n.seed, name)
	if t.n == 0 {
		delete(n.tables, ns)
	}
}

func (n *namespaced[E]) count(ns string) int {
	if t := n.tables[ns]; t != nil {
		return t.n
	}
	return 0
}

// entries yields namespace ns's entries.
func (n *namespaced[E]) entries(ns string) iter.Seq[E] {
	if t := n.tables[ns]; t != nil {
		return t.all()
	}
	return func(func(E) bool) {}
}

// each yields every entry with its namespace.
func (n *namespaced[E]) each() iter.Seq2[string, E] {
	return func(yield func(string, E) bool) {
		for ns, t := range n.tables {
			for e := range t.all() {
				if !yield(ns, e) {
					return
				}
			}
		}
	}
}

func (n *namespaced[E]) names() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for ns, e := range n.each() {
			if !yield(ns, e.GetName()) {
				return
			}
		}
	}
}

func (n *namespaced[E]) namesIn(ns string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for e := range n.entries(ns) {
			if !yield(e.GetName()) {
				return
			}
		}
	}
}

func (n *namespaced[E]) markStale() {
	for _, t := range n.tables {
		t.markStale()
	}
}

func (n *namespaced[E]) unmark(ns, name string) { n.tables[ns].unmark(n.seed, name) }

func (n *namespaced[E]) takeStale() []objKey {
	var out []objKey
	for ns, t := range n.tables {
		for _, e := range t.takeStale() {
			out = append(out, objKey{ns, e.GetName()})
		}
	}
	return out
}

func (n *namespaced[E]) namespaces() iter.Seq[string] {
	return func(yield func(string) bool) {
		for ns := range n.tables {
			if !yield(ns) {
				return
			}
		}
	}
}

// decodedShelf keeps the objects as they are: reads share them.
type decodedShelf[T client.Object] struct {
	namespaced[T]
}

func newDecodedShelf[T client.Object]() *decodedShelf[T] {
	return &decodedShelf[T]{newNamespaced[T]()}
}

func (d *decodedShelf[T]) get(ns, name string) (T, bool) { return d.lookup(ns, name) }

func (d *decodedShelf[T]) getLater(ns, name string, _ T) (T, func() T) {
	obj, _ := d.lookup(ns, name)
	return obj, nil
}

func (d *decodedShelf[T]) version(ns, name string) (rv, uid string, ok bool) {
	obj, ok := d.lookup(ns, name)
	if !ok {
		return "", "", false
	}
	return obj.GetResourceVersion(), string(obj.GetUID()), true
}

func (d *decodedShelf[T]) put(obj T) { d.store(obj.GetNamespace(), obj) }

func (d *decodedShelf[T]) objects(ns string) iter.Seq[T] { return d.entries(ns) }

func (d *decodedShelf[T]) all() iter.Seq2[string, T] { return d.each() }
