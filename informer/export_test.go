package informer

import (
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// NewStore and Writer let tests fill a Store by hand, as the reflector
// does.
func NewStore[T client.Object](indexes map[string]IndexFunc[T]) (*Store[T], error) {
	return newStore(indexes)
}

func Writer[T client.Object](s *Store[T]) reflector.Store[T] { return writer[T]{s} }
