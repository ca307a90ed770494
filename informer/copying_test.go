package informer_test

import (
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// A dynamic informer's frozen cache tells its reflector that it keeps
// copies (so its objects are decoded sharing nothing, and the decoder
// holds no maps for them); a cache of decoded objects does not.
func TestFrozenStoreCopiesObjects(t *testing.T) {
	copies := func(w any) bool {
		c, ok := w.(reflector.CopyingStore)
		return ok && c.CopiesObjects()
	}
	if !copies(informer.Writer(newStore[*unstructured.Unstructured](t))) {
		t.Error("a frozen store does not report that it copies its objects")
	}
	if copies(informer.Writer(newStore[*corev1.ConfigMap](t))) {
		t.Error("a store of decoded objects reports that it copies them")
	}
}
