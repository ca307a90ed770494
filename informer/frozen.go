package informer

import (
	"iter"
	"sync"

	"github.com/kubewire/kubewire/api/unstructured"
)

// frozenShelf keeps a dynamic informer's objects in their compact form
// (unstructured.Frozen: one string per object, half to two thirds of
// the decoded maps' heap) and builds a new Unstructured on every read.
type frozenShelf struct {
	namespaced[frozenEntry]
	buf []byte // Freeze's scratch space; writes hold the Store's lock
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
	return &frozenShelf{namespaced: newNamespaced[frozenEntry]()}
}

func (f *frozenShelf) get(ns, name string) (*unstructured.Unstructured, bool) {
	e, ok := f.lookup(ns, name)
	if !ok {
		return nil, false
	}
	return e.thaw(), true
}

func (f *frozenShelf) getLater(ns, name string, next *unstructured.Unstructured) (*unstructured.Unstructured, func() *unstructured.Unstructured) {
	e, ok := f.lookup(ns, name)
	switch {
	case !ok:
		return nil, nil
	case e.kept != nil:
		return nil, sync.OnceValue(e.thaw)
	}
	return nil, sync.OnceValue(func() *unstructured.Unstructured { return e.frozen.ThawBeside(next) })
}

func (f *frozenShelf) version(ns, name string) (rv, uid string, ok bool) {
	e, ok := f.lookup(ns, name)
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
	f.store(obj.GetNamespace(), e)
}

func (f *frozenShelf) objects(ns string) iter.Seq[*unstructured.Unstructured] {
	return func(yield func(*unstructured.Unstructured) bool) {
		for e := range f.entries(ns) {
			if !yield(e.thaw()) {
				return
			}
		}
	}
}

func (f *frozenShelf) all() iter.Seq2[string, *unstructured.Unstructured] {
	return func(yield func(string, *unstructured.Unstructured) bool) {
		for ns, e := range f.each() {
			if !yield(ns, e.thaw()) {
				return
			}
		}
	}
}
