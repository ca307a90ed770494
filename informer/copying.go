package informer

import (
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

var _ reflector.CopyingStore = writer[client.Object]{}

// CopiesObjects reports whether the cache keeps its objects frozen (its
// own copies), so that the reflector decodes without sharing maps and
// slices between objects that are garbage once frozen.
func (w writer[T]) CopiesObjects() bool {
	_, frozen := any(w.s.objs).(*frozenShelf)
	return frozen
}
