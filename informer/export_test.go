package informer

import (
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// NewStore and Writer let tests fill a Store by hand, as the reflector
// does.
func NewStore[T client.Object](indexes map[string]IndexFunc[T]) (*Store[T], error) {
	return newStore(indexes, false)
}

func Writer[T client.Object](s *Store[T]) reflector.Store[T] { return writer[T]{s} }

// OnChange makes s call fn with every change it would tell handlers:
// "add", "update", "delete" or "synced", the object, and the change's
// flag (initial, or stateUnknown).
func OnChange[T client.Object](s *Store[T], fn func(kind string, obj T, flag bool)) {
	names := map[changeKind]string{changeAdd: "add", changeUpdate: "update", changeDelete: "delete", changeSynced: "synced"}
	s.notify = func(c change[T]) { fn(names[c.kind], c.obj, c.flag) }
}

// NewDecodedStore is NewStore keeping decoded objects also for
// Unstructured (Options.KeepDecoded).
func NewDecodedStore[T client.Object](indexes map[string]IndexFunc[T]) (*Store[T], error) {
	return newStore(indexes, true)
}

// OnUpdate makes s call fn with the old and new object of every update,
// the old one built as a handler receives it.
func OnUpdate[T client.Object](s *Store[T], fn func(old, obj T)) {
	s.notify = func(c change[T]) {
		if c.kind != changeUpdate {
			return
		}
		old := c.old
		if c.buildOld != nil {
			old = c.buildOld()
		}
		fn(old, c.obj)
	}
}
