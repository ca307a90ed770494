package workqueue

import "unsafe"

// strhash is the runtime's hash of the string at p with seed h, as Go
// maps of strings use: the string-keyed queue (the common case) hashes
// every key passed to Add and Done, and reaching it through
// maphash.Comparable or maphash.String costs as much again as the hash.
// The runtime keeps it reachable by this name (go.dev/issue/67401).
//
//go:linkname strhash runtime.strhash
//go:noescape
func strhash(p unsafe.Pointer, h uintptr) uintptr
