package wire

import "unsafe"

// Strings of a decode without a Table (a Get, a List handed to the
// caller) are carved from chunks, one allocation for the strings of an
// object or several small ones, instead of one per string. A chunk is no
// larger than the input left to read (so a small object does not pin a
// large chunk); the codecs drop it at Reset, so it never spans two
// decodes. Decodes through a Table (informer caches, whose objects are
// replaced one by one) do not use it, so that no object pins another's.
const (
	ArenaChunk     = 4 << 10 // bytes per chunk at most
	ArenaMaxString = 256     // longer strings are allocated on their own
)

// CarveString returns a string holding b, carved from *arena, which it
// refills when short; left is the input still to read after b.
func CarveString(arena *[]byte, b []byte, left int) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if n > ArenaMaxString {
		return string(b)
	}
	if len(*arena) < n {
		// The strings still to come are within the input left.
		*arena = make([]byte, max(n, min(ArenaChunk, n+left)))
	}
	a := *arena
	copy(a, b)
	*arena = a[n:]
	return unsafe.String(unsafe.SliceData(a), n)
}
