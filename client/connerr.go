package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
)

// ErrConnectionLost is matched (errors.Is) by the error of a request or a
// watch whose connection broke after the request was sent: a reset, an
// HTTP/2 stream or connection torn down, a body cut short. Nothing the
// server said is lost by repeating a safe request or resuming a watch
// from its last resourceVersion, and the client does the first itself.
var ErrConnectionLost = errors.New("connection lost")

// connectionLost wraps the transport's error; its message keeps it.
type connectionLost struct{ err error }

func (e *connectionLost) Error() string        { return "connection lost: " + e.err.Error() }
func (e *connectionLost) Unwrap() error        { return e.err }
func (e *connectionLost) Is(target error) bool { return target == ErrConnectionLost }

// h2StreamError has the fields of net/http's (and x/net's) HTTP/2
// RST_STREAM error, whose As method fills any struct shaped like it:
// the documented way to recognise it without its unexported type.
type h2StreamError struct {
	StreamID uint32
	Code     uint32
	Cause    error
}

func (e h2StreamError) Error() string {
	return fmt.Sprintf("http2 stream %d reset (code %d)", e.StreamID, e.Code)
}

// classifyBroken tells how a read or round trip that failed with err
// broke off. graceful: the server is shutting down in order (an HTTP/2
// GOAWAY with NO_ERROR) and ended the stream with it, which for a watch is
// the same as the server closing it. lost: the connection broke. Neither:
// some other failure (a context, a decode error, a status).
func classifyBroken(err error) (graceful, lost bool) {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false, false
	}
	if _, ok := StatusOf(err); ok {
		return false, false
	}
	// net/http's GOAWAY error has an unexported type and no As method:
	// its text, stable since HTTP/2 support landed, is all there is.
	if msg := err.Error(); strings.Contains(msg, "server sent GOAWAY") {
		return strings.Contains(msg, "ErrCode=NO_ERROR"), true
	}
	var se h2StreamError
	switch {
	case errors.As(err, &se),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed),
		strings.Contains(err.Error(), "client connection lost"):
		return false, true
	}
	return false, false
}

// brokenOff returns err marked as what classifyBroken finds: a graceful
// end wraps io.EOF, a lost connection matches ErrConnectionLost; other
// errors are returned as they are.
func brokenOff(err error) error {
	switch graceful, lost := classifyBroken(err); {
	case graceful:
		return fmt.Errorf("the server is shutting down (%v): %w", err, io.EOF)
	case lost:
		return &connectionLost{err}
	}
	return err
}
