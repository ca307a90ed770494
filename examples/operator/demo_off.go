//go:build nodemo

package main

import (
	"context"
	"errors"
	"io"
)

// demo is left out of a build with -tags nodemo, the operator as it is
// deployed (see the Dockerfile): no fake API server in the binary.
func demo(context.Context, io.Writer) error {
	return errors.New("built with -tags nodemo: no demonstration")
}
