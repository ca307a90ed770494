//go:build !unix

package envtest

import (
	"context"
	"fmt"
	"runtime"
)

// lockFile has no implementation outside Unix, where envtest does not run.
func lockFile(ctx context.Context, path string, waiting func()) (unlock func(), err error) {
	return nil, fmt.Errorf("%w: no build lock on %s", ErrUnavailable, runtime.GOOS)
}
