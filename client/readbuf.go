package client

import (
	"context"
	"net"
	"sync"
)

// A connection's reads go through a large buffer only while it holds
// data: one read system call takes what the socket has (several watch
// events, or a list's next 64 KiB), and the buffer goes back to a pool
// of the transport's once the HTTP/1.1 reader above it (4 KiB, the
// default) has taken it all and the socket had no more (a full buffer
// is kept while a list or a burst streams in). A connection with nothing
// to read waits with its reader's own buffer, and takes a pooled one
// only when that read filled it. An idle watch connection then holds no
// 64 KiB buffer of its own: that was ~64 bytes an object in an informer
// of a thousand objects. HTTP/2 is read the same way, under its framer.
const (
	pooledReadSize = 64 << 10
	// directReadSize: a read at least this large goes to the socket
	// directly, as a buffer would only add a copy.
	directReadSize = 16 << 10
)

// readBuffers is a transport's pool of read buffers.
type readBuffers struct{ pool sync.Pool }

func newReadBuffers() *readBuffers {
	b := &readBuffers{}
	b.pool.New = func() any { buf := make([]byte, pooledReadSize); return &buf }
	return b
}

// dialer wraps dial so that its connections read through b.
func (b *readBuffers) dialer(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &pooledReadConn{Conn: c, buffers: b}, nil
	}
}

// pooledReadConn is a net.Conn whose reads go through a pooled buffer
// held only while the stream is busy. Read is called by one goroutine at a
// time (the transport's reader); Close may run beside it and does not
// touch the buffer.
type pooledReadConn struct {
	net.Conn
	buffers *readBuffers
	buf     *[]byte // nil when the stream is idle
	r, w    int     // the unread data: (*buf)[r:w]
	err     error   // from the read that filled buf, returned once it is drained
	busy    bool    // the last read filled its buffer: the next takes a pooled one
}

func (c *pooledReadConn) Read(p []byte) (int, error) {
	if c.r == c.w { // drained: fill
		if err := c.err; err != nil {
			c.err = nil
			return 0, err
		}
		if len(p) >= directReadSize {
			c.release()
			return c.Conn.Read(p)
		}
		if c.buf == nil {
			if !c.busy {
				// Idle: the read may wait for minutes (a quiet
				// watch), so it waits with the caller's buffer,
				// not one from the pool. A read that fills it
				// says more is coming: the next takes one.
				n, err := c.Conn.Read(p)
				c.busy = n > 0 && n == len(p)
				return n, err
			}
			c.buf = c.buffers.pool.Get().(*[]byte)
		}
		n, err := c.Conn.Read(*c.buf)
		if n <= 0 {
			c.release()
			return 0, err
		}
		c.r, c.w, c.err = 0, n, err
	}
	n := copy(p, (*c.buf)[c.r:c.w])
	if c.r += n; c.r == c.w && c.w < len(*c.buf) {
		// The socket had less than a buffer: the stream is idle for
		// now, and the buffer goes back. A full one is kept: more is
		// coming (a list, a burst of events).
		c.release()
	}
	return n, nil
}

func (c *pooledReadConn) release() {
	c.busy = false
	if c.buf != nil {
		c.buffers.pool.Put(c.buf)
		c.buf, c.r, c.w = nil, 0, 0
	}
}
