package client

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net"
	"slices"
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

	// A read that fills the caller's buffer goes on through a pooled
	// one; partly read, it is held; drained, with the socket empty, it
	// is released.
	under = &countingConn{data: []byte("0123456789"), chunk: 10, err: errors.New("reset")}
	c = &pooledReadConn{Conn: under, buffers: newReadBuffers()}
	p := make([]byte, 4)
	if n, err := c.Read(p); n != 4 || err != nil || c.buf != nil {
		t.Fatalf("read %d, %v; buffer held %v", n, err, c.buf != nil)
	}
	if n, err := c.Read(p[:2]); string(p[:n]) != "45" || err != nil || c.buf == nil {
		t.Fatalf("read %q, %v; buffer held %v", p[:n], err, c.buf != nil)
	}
	rest, err := io.ReadAll(c)
	if string(rest) != "6789" || err == nil || err.Error() != "reset" {
		t.Errorf("rest %q, %v; want 6789 and the connection's error", rest, err)
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

// sizedConn records the size of each read the connection is asked for
// and answers from its script, one entry a read.
type sizedConn struct {
	net.Conn
	script [][]byte
	sizes  []int
}

func (c *sizedConn) Read(p []byte) (int, error) {
	c.sizes = append(c.sizes, len(p))
	if len(c.script) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.script[0])
	if c.script[0] = c.script[0][n:]; len(c.script[0]) == 0 {
		c.script = c.script[1:]
	}
	return n, nil
}

// A read that finds the connection idle (a watch between events) waits
// with the caller's buffer, not a pooled 64 KiB one: an informer whose
// watch is quiet holds none. A read that fills the caller's buffer
// takes one for what follows; once drained short, the next wait is
// with the caller's buffer again.
func TestPooledReadConnIdleHoldsNoBuffer(t *testing.T) {
	event := []byte(`{"type":"MODIFIED","object":{}}` + "\n")
	burst := bytes.Repeat([]byte("x"), 10000)
	under := &sizedConn{script: [][]byte{event, burst, event}}
	c := &pooledReadConn{Conn: under, buffers: newReadBuffers()}
	p := make([]byte, 4096)
	read := func() string {
		n, err := c.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(p[:n])
	}
	if got := read(); got != string(event) || c.buf != nil {
		t.Fatalf("first event %q, buffer held %v", got, c.buf != nil)
	}
	var got []byte
	for len(got) < len(burst) {
		got = append(got, read()...)
	}
	if !bytes.Equal(got, burst) {
		t.Fatal("the burst's bytes differ")
	}
	if got := read(); got != string(event) {
		t.Fatalf("last event %q", got)
	}
	// Reads: the event (4 KiB), the burst's first 4 KiB, the rest of
	// the burst through a pooled buffer, then the event with the
	// caller's buffer again.
	want := []int{4096, 4096, pooledReadSize, 4096}
	if !slices.Equal(under.sizes, want) {
		t.Errorf("read sizes %v, want %v", under.sizes, want)
	}
	if c.buf != nil {
		t.Error("the buffer is held while the connection is idle")
	}
}
