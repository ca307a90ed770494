// Package resourceversion compares resourceVersions as Kubernetes 1.35
// (KEP-5504) lets clients: positive decimal integers of any length,
// without leading zeros. Any other string is opaque and compares with
// nothing.
package resourceversion

// Comparable reports whether rv is a positive decimal integer without
// leading zeros.
func Comparable(rv string) bool {
	if rv == "" || rv[0] == '0' {
		return false
	}
	for i := 0; i < len(rv); i++ {
		if rv[i] < '0' || rv[i] > '9' {
			return false
		}
	}
	return true
}

// Less reports whether a is older than b, both comparable (the caller
// checks): a shorter integer is smaller, and one of the same length
// compares as text.
func Less(a, b string) bool {
	return len(a) < len(b) || len(a) == len(b) && a < b
}
