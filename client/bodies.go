package client

import (
	"sync"
)

// bodyBuffers recycles the buffers whole answers are read into. The pages
// of a list are a few MB each and arrive gzipped, without a
// Content-Length: read into a fresh buffer, each page would allocate about
// twice its size while the buffer grows, and that garbage (not the
// objects) is what set the GC's pace during a list. Decoders copy what
// they keep, so a buffer is free again as soon as its answer is decoded.
type bodyBuffers struct {
	pool sync.Pool
	// poison makes put overwrite each buffer first, so that tests see at
	// once any decoded object still pointing into its answer's bytes.
	poison bool
}

// bodyBuf is one recycled buffer; b's length is the body read into it.
type bodyBuf struct{ b []byte }

// maxPooledBody bounds the buffers kept: a one-off answer of hundreds of
// MB (a list without pages) is not worth keeping alive.
const maxPooledBody = 16 << 20

func (p *bodyBuffers) get() *bodyBuf {
	if b, ok := p.pool.Get().(*bodyBuf); ok {
		return b
	}
	return new(bodyBuf)
}

func (p *bodyBuffers) put(b *bodyBuf) {
	if b == nil || cap(b.b) > maxPooledBody {
		return
	}
	if p.poison {
		clear(b.b[:cap(b.b)])
	}
	b.b = b.b[:0]
	p.pool.Put(b)
}
