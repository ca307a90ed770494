package reflector

import "github.com/kubewire/kubewire/client"

// TransformStore returns a Store that hands fn(obj) to store for every
// object it receives (list items, and the objects of streaming-list and
// watch events, deletions included; not bookmarks), for example to drop
// what the program never reads, such as managedFields, so that the
// store holds less. With fn nil it returns store.
//
// fn runs on the goroutine running Run. Objects come from a ReadOnly
// wire.Decoder that shares equal strings, maps and slices between
// objects: fn may set the object's own fields or return a new object,
// but must not modify the contents of a map or slice in place. It must
// return an object with the same namespace, name and resourceVersion.
func TransformStore[T client.Object](store Store[T], fn func(T) T) Store[T] {
	if fn == nil {
		return store
	}
	return transformed[T]{store, fn}
}

type transformed[T client.Object] struct {
	Store[T]
	fn func(T) T
}

func (t transformed[T]) Item(obj T)   { t.Store.Item(t.fn(obj)) }
func (t transformed[T]) Add(obj T)    { t.Store.Add(t.fn(obj)) }
func (t transformed[T]) Update(obj T) { t.Store.Update(t.fn(obj)) }
func (t transformed[T]) Delete(obj T) { t.Store.Delete(t.fn(obj)) }
