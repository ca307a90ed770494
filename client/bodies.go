package client

import (
	"bytes"
	"sync"
)

// bodyBuffers recycles the buffers whole answers are read into. The pages
// of a list are a few MB each and arrive gzipped, without a
// Content-Length: read into a fresh buffer, each page would allocate about
// twice its size while the buffer doubles, and that garbage (not the
// objects) is what set the GC's pace during a list. Decoders copy what
// they keep, so a buffer is free again as soon as its answer is decoded.
type bodyBuffers struct {
	pool sync.Pool
	// poison makes put overwrite each buffer first, so that tests see at
	// once any decoded object still pointing into its answer's bytes.
	poison bool
}

// maxPooledBody bounds the buffers kept: a one-off answer of hundreds of
// MB (a list without pages) is not worth keeping alive.
const maxPooledBody = 16 << 20

func (p *bodyBuffers) get() *bytes.Buffer {
	if b, ok := p.pool.Get().(*bytes.Buffer); ok {
		return b
	}
	return new(bytes.Buffer)
}

func (p *bodyBuffers) put(b *bytes.Buffer) {
	if b == nil || b.Cap() > maxPooledBody {
		return
	}
	if p.poison {
		clear(b.Bytes())
	}
	b.Reset()
	p.pool.Put(b)
}
