//go:build !unix

package kubectl

import "context"

// lockFile does not lock where flock is missing: concurrent builds then
// race, and the last rename wins.
func lockFile(context.Context, string) (func(), error) { return func() {}, nil }
