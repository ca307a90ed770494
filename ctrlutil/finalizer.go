package ctrlutil

import (
	"slices"

	"github.com/kubewire/kubewire/client"
)

// ContainsFinalizer reports whether obj has the finalizer f.
func ContainsFinalizer(obj client.Object, f string) bool {
	return slices.Contains(obj.GetFinalizers(), f)
}

// AddFinalizer adds f to obj's finalizers unless it is there, and
// reports whether it changed obj. The finalizers' slice is replaced,
// never modified in place.
func AddFinalizer(obj client.Object, f string) bool {
	fs := obj.GetFinalizers()
	if slices.Contains(fs, f) {
		return false
	}
	obj.SetFinalizers(append(fs[:len(fs):len(fs)], f))
	return true
}

// RemoveFinalizer removes f from obj's finalizers, and reports whether
// it changed obj. The finalizers' slice is replaced, never modified in
// place.
func RemoveFinalizer(obj client.Object, f string) bool {
	fs := obj.GetFinalizers()
	if !slices.Contains(fs, f) {
		return false
	}
	out := slices.DeleteFunc(slices.Clone(fs), func(s string) bool { return s == f })
	if len(out) == 0 {
		out = nil
	}
	obj.SetFinalizers(out)
	return true
}
