package reflector

import (
	"github.com/kubewire/kubewire/api/wire"
	"github.com/kubewire/kubewire/client"
)

// CopyingStore is implemented by a Store that keeps a copy of each
// object it receives, in a form of its own, rather than the object (an
// informer's frozen cache of Unstructured objects: one string an
// object). The Reflector's Decoder then keeps a map or slice for sharing
// only once its bytes repeat (wire.Decoder.Copied), not from its first
// sighting: the values of spans seen once would be held by the Decoder
// alone, ~400 bytes an object in a cache of a thousand small objects.
type CopyingStore interface {
	// CopiesObjects reports whether the store keeps copies only.
	CopiesObjects() bool
}

// decoderFor returns the Decoder of a Reflector feeding store.
func decoderFor[T client.Object](store Store[T]) *wire.Decoder {
	if t, ok := store.(transformed[T]); ok {
		store = t.Store // a transform's result is copied too
	}
	c, ok := store.(CopyingStore)
	return &wire.Decoder{ReadOnly: true, Copied: ok && c.CopiesObjects()}
}
