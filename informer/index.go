package informer

import (
	"errors"
	"fmt"
	"slices"

	"github.com/kubewire/kubewire/client"
)

// IndexFunc returns the values under which obj is indexed (none, one or
// several). It must be a pure function of obj: it is called again on the
// old object to remove it from the index.
type IndexFunc[T client.Object] func(obj T) []string

// ErrUnknownIndex is returned (wrapped) by index queries naming an index
// the store does not have.
var ErrUnknownIndex = errors.New("informer: unknown index")

// objKey identifies an object without building a "namespace/name" string:
// both strings are shared with the object.
type objKey struct{ namespace, name string }

// index is one custom index: value → set of object keys.
type index[T client.Object] struct {
	fn   IndexFunc[T]
	sets map[string]map[objKey]struct{}
}

func (ix *index[T]) add(k objKey, obj T) {
	for _, v := range ix.fn(obj) {
		ix.addValue(k, v)
	}
}

func (ix *index[T]) remove(k objKey, obj T) {
	for _, v := range ix.fn(obj) {
		ix.removeValue(k, v)
	}
}

func (ix *index[T]) update(k objKey, old, obj T) {
	before, after := ix.fn(old), ix.fn(obj)
	if slices.Equal(before, after) {
		return
	}
	for _, v := range before {
		ix.removeValue(k, v)
	}
	for _, v := range after {
		ix.addValue(k, v)
	}
}

func (ix *index[T]) addValue(k objKey, v string) {
	set := ix.sets[v]
	if set == nil {
		set = map[objKey]struct{}{}
		ix.sets[v] = set
	}
	set[k] = struct{}{}
}

func (ix *index[T]) removeValue(k objKey, v string) {
	if set := ix.sets[v]; set != nil {
		delete(set, k)
		if len(set) == 0 {
			delete(ix.sets, v)
		}
	}
}

// AddIndexes adds indexes to the store and fills them from the objects
// already cached; it may be called at any time, also while an informer
// runs. Adding NamespaceIndex or a name the store already has is an
// error, and then no index is added.
func (s *Store[T]) AddIndexes(indexes map[string]IndexFunc[T]) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, fn := range indexes {
		if name == NamespaceIndex || s.indexes[name] != nil {
			return fmt.Errorf("informer: index %q already exists", name)
		}
		if fn == nil {
			return fmt.Errorf("informer: index %q has no function", name)
		}
	}
	for name, fn := range indexes {
		ix := &index[T]{fn: fn, sets: map[string]map[objKey]struct{}{}}
		for ns, obj := range s.objs.all() {
			ix.add(objKey{ns, obj.GetName()}, obj)
		}
		s.indexes[name] = ix
	}
	return nil
}

// ByIndex returns the cached objects indexed under value by the named
// index, in no particular order.
func (s *Store[T]) ByIndex(indexName, value string) ([]T, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if indexName == NamespaceIndex {
		out := make([]T, 0, s.objs.count(value))
		for obj := range s.objs.objects(value) {
			out = append(out, obj)
		}
		return out, nil
	}
	ix := s.indexes[indexName]
	if ix == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownIndex, indexName)
	}
	set := ix.sets[value]
	out := make([]T, 0, len(set))
	for k := range set {
		obj, _ := s.objs.get(k.namespace, k.name)
		out = append(out, obj)
	}
	return out, nil
}

// IndexKeys returns the Keys of the objects indexed under value by the
// named index, in no particular order.
func (s *Store[T]) IndexKeys(indexName, value string) ([]string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if indexName == NamespaceIndex {
		out := make([]string, 0, s.objs.count(value))
		for name := range s.objs.namesIn(value) {
			out = append(out, key(value, name))
		}
		return out, nil
	}
	ix := s.indexes[indexName]
	if ix == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownIndex, indexName)
	}
	out := make([]string, 0, len(ix.sets[value]))
	for k := range ix.sets[value] {
		out = append(out, key(k.namespace, k.name))
	}
	return out, nil
}

// IndexValues returns the values the named index has objects under, in
// no particular order.
func (s *Store[T]) IndexValues(indexName string) ([]string, error) {
	if indexName == NamespaceIndex {
		return s.Namespaces(), nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	ix := s.indexes[indexName]
	if ix == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownIndex, indexName)
	}
	out := make([]string, 0, len(ix.sets))
	for v := range ix.sets {
		out = append(out, v)
	}
	return out, nil
}

// IndexCount returns how many objects the named index has under value,
// without building a slice.
func (s *Store[T]) IndexCount(indexName, value string) (int, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if indexName == NamespaceIndex {
		return s.objs.count(value), nil
	}
	ix := s.indexes[indexName]
	if ix == nil {
		return 0, fmt.Errorf("%w %q", ErrUnknownIndex, indexName)
	}
	return len(ix.sets[value]), nil
}
