package client

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
)

// countingConn serves data in reads of at most chunk bytes, counting
// them, then err.
type countingConn struct {
	net.Conn
	data  []byte
	chunk int
	reads int
	err   error
}

func (c *countingConn) Read(p []byte) (int, error) {
	c.reads++
	if len(c.data) == 0 {
		return 0, c.err
	}
	n := copy(p[:min(len(p), c.chunk)], c.data)
	c.data = c.data[n:]
	if len(c.data) == 0 && c.err != nil {
		return n, c.err // data and the error in one read, as io.Reader allows
	}
	return n, nil
}

// A 4 KiB reader over a pooledReadConn gets every byte, in order, with
// one read of the socket per 64 KiB it has ready; the buffer is back in
// the pool once drained, and the error of the last read comes after its
// data.
func TestPooledReadConn(t *testing.T) {
	want := make([]byte, 300<<10)
	for i := range want {
		want[i] = byte(i * 7)
	}
	under := &countingConn{data: bytes.Clone(want), chunk: 1 << 20, err: io.EOF}
	c := &pooledReadConn{Conn: under, buffers: newReadBuffers()}
	got, err := io.ReadAll(bufio.NewReaderSize(c, 4096))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the bytes read differ from the bytes sent")
	}
	if max := len(want)/pooledReadSize + 2; under.reads > max {
		t.Errorf("%d reads of the socket for %d bytes, want at most %d", under.reads, len(want), max)
	}
	if c.buf != nil {
		t.Error("the buffer is held after the connection ended")
	}

	// A partly read buffer is held; drained, with the socket empty, it
	// is released.
	under = &countingConn{data: []byte("0123456789"), chunk: 10, err: errors.New("reset")}
	c = &pooledReadConn{Conn: under, buffers: newReadBuffers()}
	p := make([]byte, 4)
	if n, err := c.Read(p); n != 4 || err != nil || c.buf == nil {
		t.Fatalf("read %d, %v; buffer held %v", n, err, c.buf != nil)
	}
	rest, err := io.ReadAll(c)
	if string(rest) != "456789" || err == nil || err.Error() != "reset" {
		t.Errorf("rest %q, %v; want 456789 and the connection's error", rest, err)
	}
	if c.buf != nil {
		t.Error("the buffer is held after it was drained")
	}

	// A large read goes to the socket directly.
	under = &countingConn{data: make([]byte, directReadSize), chunk: 1 << 20, err: io.EOF}
	c = &pooledReadConn{Conn: under, buffers: newReadBuffers()}
	if n, _ := c.Read(make([]byte, directReadSize)); n != directReadSize || c.buf != nil {
		t.Errorf("a read of %d bytes: %d, buffer held %v", directReadSize, n, c.buf != nil)
	}
}
