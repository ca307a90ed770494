package client

import (
	"context"
	"io"
)

// ctxBody ends reads of a stream at its context's end, even while the
// bytes it reads are already in memory: a compressed stream holds
// megabytes of decompressed input in a few buffered kilobytes (a gzip
// member of whitespace), which the decoder would otherwise go on
// consuming long after the idle timer or the caller gave up.
type ctxBody struct {
	ctx  context.Context
	body io.ReadCloser
}

func (b ctxBody) Read(p []byte) (int, error) {
	if b.ctx.Err() != nil {
		return 0, context.Cause(b.ctx)
	}
	return b.body.Read(p)
}

func (b ctxBody) Close() error { return b.body.Close() }
