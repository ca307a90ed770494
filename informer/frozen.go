package informer

import (
	"hash/maphash"
	"iter"
	"sync"

	"github.com/kubewire/kubewire/api/unstructured"
)

// frozenShelf keeps a dynamic informer's objects in their compact form
// (unstructured.Frozen: one string per object, half to two thirds of
// the decoded maps' heap) and builds a new Unstructured on every read.
type frozenShelf struct {
	seed   maphash.Seed
	tables map[string]*nameTable[frozenEntry]
	buf    []byte // Freeze's scratch space; writes hold the Store's lock
}

// frozenEntry is one cached object: its frozen form, or, for the rare
// object holding a value no decoder produces (a []string a Transform
// stored, say), the object itself.
type frozenEntry struct {
	frozen unstructured.Frozen
	kept   *unstructured.Unstructured
}

func (e frozenEntry) GetName() string {
	if e.kept != nil {
		return e.kept.GetName()
	}
	return e.frozen.Name()
}

// thaw builds the entry's object, the caller's own.
func (e frozenEntry) thaw() *unstructured.Unstructured {
	if e.kept != nil {
		return e.kept.DeepCopy()
	}
	return e.frozen.Thaw()
}

func newFrozenShelf() *frozenShelf {
	return &frozenShelf{seed: maphash.MakeSeed(), tables: map[string]*nameTable[frozenEntry]{}}
}

func (f *frozenShelf) get(ns, name string) (*unstructured.Unstructured, bool) {
	e, ok := f.tables[ns].get(f.seed, name)
	if !ok {
		return nil, false
	}
	return e.thaw(), true
}

func (f *frozenShelf) getLater(ns, name string, next *unstructured.Unstructured) (*unstructured.Unstructured, func() *unstructured.Unstructured) {
	e, ok := f.tables[ns].get(f.seed, name)
	switch {
	case !ok:
		return nil, nil
	case e.kept != nil:
		return nil, sync.OnceValue(e.thaw)
	}
	return nil, sync.OnceValue(func() *unstructured.Unstructured { return e.frozen.ThawBeside(next) })
}

func (f *frozenShelf) version(ns, name string) (rv, uid string, ok bool) {
	e, ok := f.tables[ns].get(f.seed, name)
	switch {
	case !ok:
		return "", "", false
	case e.kept != nil:
		return e.kept.GetResourceVersion(), string(e.kept.GetUID()), true
	}
	return e.frozen.ResourceVersion(), e.frozen.UID(), true
}

func (f *frozenShelf) put(obj *unstructured.Unstructured) {
	var e frozenEntry
	var ok bool
	e.frozen, f.buf, ok = unstructured.Freeze(obj, f.buf)
	if !ok {
		e.kept = obj
	}
	if cap(f.buf) > 1<<20 {
		f.buf = nil // one huge object does not pin its scratch space
	}
	ns := obj.GetNamespace()
	t := f.tables[ns]
	if t == nil {
		t = &nameTable[frozenEntry]{}
		f.tables[ns] = t
	}
	t.put(f.seed, e)
}

func (f *frozenShelf) remove(ns, name string) {
	t := f.tables[ns]
	if t == nil {
		return
	}
	t.remove(f.seed, name)
	if t.n == 0 {
		delete(f.tables, ns)
	}
}

func (f *frozenShelf) count(ns string) int {
	if t := f.tables[ns]; t != nil {
		return t.n
	}
	return 0
}

func (f *frozenShelf) objects(ns string) iter.Seq[*unstructured.Unstructured] {
	return func(yield func(*unstructured.Unstructured) bool) {
		for e := range f.tables[ns].all() {
			if !yield(e.thaw()) {
				return
			}
		}
	}
}

func (f *frozenShelf) all() iter.Seq2[string, *unstructured.Unstructured] {
	return func(yield func(string, *unstructured.Unstructured) bool) {
		for ns, t := range f.tables {
			for e := range t.all() {
				if !yield(ns, e.thaw()) {
					return
				}
			}
		}
	}
}

func (f *frozenShelf) names() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		for ns, t := range f.tables {
			for e := range t.all() {
				if !yield(ns, e.GetName()) {
					return
				}
			}
		}
	}
}

func (f *frozenShelf) namesIn(ns string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for e := range f.tables[ns].all() {
			if !yield(e.GetName()) {
				return
			}
		}
	}
}

func (f *frozenShelf) markStale() {
	for _, t := range f.tables {
		t.markStale()
	}
}

func (f *frozenShelf) unmark(ns, name string) { f.tables[ns].unmark(f.seed, name) }

func (f *frozenShelf) takeStale() []objKey {
	var out []objKey
	for ns, t := range f.tables {
		for _, e := range t.takeStale() {
			out = append(out, objKey{ns, e.GetName()})
		}
	}
	return out
}

func (f *frozenShelf) namespaces() iter.Seq[string] {
	return func(yield func(string) bool) {
		for ns := range f.tables {
			if !yield(ns) {
				return
			}
		}
	}
}
