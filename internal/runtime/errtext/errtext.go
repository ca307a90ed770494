// Package errtext bounds text a server chose (a kind, an apiVersion, an
// event type, a content type) where an error quotes it: real ones are
// short, and a hostile one must not make a megabyte error that every
// retry logs again.
package errtext

import "unicode/utf8"

// MaxName is how many bytes of a server-chosen name an error shows.
const MaxName = 64

// Cut returns s cut to MaxName bytes at a rune boundary, with "..." when
// cut.
func Cut(s string) string {
	if len(s) <= MaxName {
		return s
	}
	n := MaxName
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
