package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"strconv"
	"sync"

	"github.com/coder/websocket"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

// The channels of the remote command protocol: each binary message
// starts with one of these bytes.
const (
	channelStdin  = 0
	channelStdout = 1
	channelStderr = 2
	channelStatus = 3 // the command's result, a Status in JSON
	channelResize = 4 // a TerminalSize in JSON
	channelClose  = 255
)

// maxStatusBytes bounds the Status on channelStatus: the kubelet's is a
// few hundred bytes.
const maxStatusBytes = 64 << 10

// stdinChunk is how much of Stdin one message carries.
const stdinChunk = 32 << 10

// podStreams copies one exec or attach connection's streams.
type podStreams struct {
	conn        *websocket.Conn
	opts        streamOptions
	closeSignal bool // v5: the client may close stdin
}

// run copies the streams until the server closes the connection and
// returns the command's result. It closes the connection, and waits for
// the goroutines it started, except one still reading Stdin.
func (s *podStreams) run(parent context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		s.conn.CloseNow()
		wg.Wait()
	}()
	if s.opts.stdin != nil {
		go s.copyStdin(ctx)
	}
	if s.opts.resize != nil {
		wg.Go(func() { s.sendResizes(ctx) })
	}
	status, err := s.readOutput(ctx)
	if err != nil {
		if cause := context.Cause(parent); cause != nil {
			return cause
		}
		return err
	}
	return commandResult(status)
}

// readOutput writes stdout and stderr messages to their writers until
// the server ends the connection, and returns the status channel's
// bytes.
func (s *podStreams) readOutput(ctx context.Context) ([]byte, error) {
	var status []byte
	statusSeen := false
	for {
		typ, msg, err := s.conn.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) == websocket.StatusNormalClosure {
				return status, nil
			}
			if statusSeen && errors.Is(err, io.EOF) {
				return status, nil // the result came; the close frame did not
			}
			if websocket.CloseStatus(err) == -1 && !transportError(err) && ctx.Err() == nil {
				// A frame over the bound, a bad frame: the server broke the protocol.
				return nil, fmt.Errorf("remote command: %w: %w", err, ErrMalformed)
			}
			return nil, fmt.Errorf("remote command: connection ended before the command's result: %w", err)
		}
		if typ != websocket.MessageBinary {
			return nil, streamErrorf("the server sent a text message")
		}
		if len(msg) == 0 {
			return nil, streamErrorf("the server sent an empty message")
		}
		data := msg[1:]
		switch msg[0] {
		case channelStdout, channelStderr:
			w, name := s.opts.stdout, "stdout"
			if msg[0] == channelStderr {
				w, name = s.opts.stderr, "stderr"
			}
			if w == nil {
				return nil, streamErrorf("the server sent on %s, which was not asked for", name)
			}
			if len(data) == 0 {
				continue // a kubelet announces a stream with an empty message
			}
			if _, err := w.Write(data); err != nil {
				return nil, fmt.Errorf("remote command: writing %s: %w", name, err)
			}
		case channelStatus:
			statusSeen = statusSeen || len(data) > 0 // an empty message only announces the channel
			if len(status)+len(data) > maxStatusBytes {
				return nil, streamErrorf("the command's Status is over %d bytes", maxStatusBytes)
			}
			status = append(status, data...)
		case channelClose:
			if !s.closeSignal || len(data) != 1 {
				return nil, streamErrorf("a malformed close signal %q", msg)
			}
		default:
			return nil, streamErrorf("the server sent on channel %d, which does not exist", msg[0])
		}
	}
}

// transportError reports a read that failed for the connection's sake
// (cut, reset, closed), not for what the server sent.
func transportError(err error) bool {
	var netErr net.Error
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || errors.As(err, &netErr)
}

// copyStdin sends Stdin until it ends, then, on v5, closes the stream so
// the command reads EOF. A Stdin that fails ends like one that ended.
func (s *podStreams) copyStdin(ctx context.Context) {
	buf := make([]byte, 1+stdinChunk)
	buf[0] = channelStdin
	for {
		n, err := s.opts.stdin.Read(buf[1:])
		if n > 0 {
			if s.conn.Write(ctx, websocket.MessageBinary, buf[:1+n]) != nil {
				return
			}
		}
		if err != nil {
			if s.closeSignal {
				_ = s.conn.Write(ctx, websocket.MessageBinary, []byte{channelClose, channelStdin})
			}
			return
		}
	}
}

// sendResizes sends each terminal size received until ctx ends or the
// channel is closed.
func (s *podStreams) sendResizes(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case size, ok := <-s.opts.resize:
			if !ok {
				return
			}
			b, _ := json.Marshal(size) // two numbers cannot fail
			if s.conn.Write(ctx, websocket.MessageBinary, append([]byte{channelResize}, b...)) != nil {
				return
			}
		}
	}
}

// commandResult is the error the status channel's Status says: nil for
// Success (or none sent, as older servers do on success), *ExitError for
// a non-zero exit, and the Status as a *StatusError for a command that
// could not run.
func commandResult(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	st := new(metav1.Status)
	if err := json.Unmarshal(b, st); err != nil {
		return streamErrorf("the command's Status is not JSON: %v", err)
	}
	switch st.Status {
	case metav1.StatusSuccess:
		return nil
	case metav1.StatusFailure:
	default:
		return streamErrorf("the command's Status has status %q", st.Status)
	}
	if st.Reason != "NonZeroExitCode" {
		return &codec.StatusError{Status: *st}
	}
	if st.Details != nil {
		for _, c := range st.Details.Causes {
			if c.Type != "ExitCode" {
				continue
			}
			code, err := strconv.ParseInt(c.Message, 10, 32)
			if err != nil || code == 0 || code > math.MaxInt32 {
				return streamErrorf("the command's exit code %q is not a non-zero number", c.Message)
			}
			return &ExitError{Code: int(code)}
		}
	}
	return streamErrorf("the command's Status says NonZeroExitCode without an ExitCode cause")
}
