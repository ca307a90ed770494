package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/coder/websocket"
)

// ExecOptions says what Resource.Exec runs in a container and where its
// streams go. Command is required; at least one of Stdin, Stdout and
// Stderr must be set, and only the streams set are asked for.
type ExecOptions struct {
	// Container names the container; needed when the Pod has several.
	Container string
	// Command is the program and its arguments, run without a shell.
	Command []string
	// Stdin, when set, is read until EOF and sent to the command. With
	// a server that speaks v5.channel.k8s.io the command then sees EOF
	// on its stdin; an older one (v4) cannot say so.
	Stdin io.Reader
	// Stdout and Stderr receive the command's output as it arrives;
	// with TTY the terminal merges both into Stdout, so Stderr must be
	// nil.
	Stdout, Stderr io.Writer
	// TTY gives the command a terminal.
	TTY bool
	// Resize, with TTY, sends each size received as the terminal's new
	// size; the first one sets the size at start.
	Resize <-chan TerminalSize
}

// AttachOptions are ExecOptions for Resource.Attach, which joins the
// container's main process instead of starting one.
type AttachOptions struct {
	Container      string
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	TTY            bool
	Resize         <-chan TerminalSize
}

// TerminalSize is a terminal's size in characters.
type TerminalSize struct {
	Width  uint16 `json:"Width"`
	Height uint16 `json:"Height"`
}

// ExitError is the error of a command that ran and exited with a
// non-zero code (client-go's exec.CodeExitError).
type ExitError struct {
	Code int
}

func (e *ExitError) Error() string {
	return "client: command terminated with exit code " + strconv.Itoa(e.Code)
}

// ExitStatus returns Code, as client-go's exec.ExitError does.
func (e *ExitError) ExitStatus() int { return e.Code }

// Exec runs a command in a container of Pod name (the pods/exec
// subresource) over a WebSocket, copying its streams, and returns when
// the command has ended and its output has been written. r must be the
// Pods resource (client.For[*corev1.Pod], with a namespace).
//
//	err := pods.Exec(ctx, "db-0", client.ExecOptions{Command: []string{"pg_isready"}, Stdout: os.Stdout})
//	var exit *client.ExitError
//	if errors.As(err, &exit) { ... exit.Code ... }
//
// A command that exits non-zero returns *ExitError. A Pod, container
// or node the server cannot reach is the server's answer (ErrNotFound,
// ErrBadRequest, a *StatusError) before anything runs; a failure to
// start the command is a *StatusError from the kubelet. A connection
// that breaks or sends what the protocol does not allow (a frame over
// 1 MiB, a stream not asked for, a malformed Status) ends the call with
// an error matching ErrMalformed or the transport's error; ctx ending
// ends it with ctx's cause. The upgrade carries the Client's
// credentials and TLS settings, is sent once, and a redirect is refused.
//
// A Stdin whose Read blocks (os.Stdin) may still be in that Read when
// Exec returns; its goroutine ends as soon as the Read returns.
func (r *Resource[T]) Exec(ctx context.Context, name string, opts ExecOptions) error {
	if len(opts.Command) == 0 {
		return invalidOptions("exec: Command is empty")
	}
	q := url.Values{"command": opts.Command}
	return r.connectStreams(ctx, "exec", name, q, streamOptions{
		container: opts.Container, stdin: opts.Stdin, stdout: opts.Stdout, stderr: opts.Stderr, tty: opts.TTY, resize: opts.Resize,
	})
}

// Attach joins the main process of a container of Pod name (the
// pods/attach subresource) as Exec runs a command, and returns when the
// process ends or ctx ends. Its errors are Exec's.
func (r *Resource[T]) Attach(ctx context.Context, name string, opts AttachOptions) error {
	return r.connectStreams(ctx, "attach", name, url.Values{}, streamOptions{
		container: opts.Container, stdin: opts.Stdin, stdout: opts.Stdout, stderr: opts.Stderr, tty: opts.TTY, resize: opts.Resize,
	})
}

// streamOptions is what Exec and Attach share.
type streamOptions struct {
	container      string
	stdin          io.Reader
	stdout, stderr io.Writer
	tty            bool
	resize         <-chan TerminalSize
}

func (o streamOptions) query(verb string, q url.Values) error {
	if o.stdin == nil && o.stdout == nil && o.stderr == nil {
		return invalidOptions("%s: set at least one of Stdin, Stdout and Stderr", verb)
	}
	if o.tty && o.stderr != nil {
		return invalidOptions("%s: a TTY merges stderr into Stdout: leave Stderr nil", verb)
	}
	if o.resize != nil && !o.tty {
		return invalidOptions("%s: Resize needs TTY", verb)
	}
	if o.container != "" {
		q.Set("container", o.container)
	}
	for name, set := range map[string]bool{"stdin": o.stdin != nil, "stdout": o.stdout != nil, "stderr": o.stderr != nil, "tty": o.tty} {
		if set {
			q.Set(name, "true")
		}
	}
	return nil
}

func (r *Resource[T]) connectStreams(ctx context.Context, verb, name string, q url.Values, opts streamOptions) error {
	if g := r.info.gvr; g.Group != "" || g.Version != "v1" || g.Resource != "pods" || r.subresource != "" {
		return invalidOptions("%s: %s has no %s: use the Pods resource (client.For[*corev1.Pod])", verb, r, verb)
	}
	if err := opts.query(verb, q); err != nil {
		return err
	}
	p, err := r.Subresource(verb).objectPath(r.namespace, name)
	if err != nil {
		return err
	}
	req := &request{method: "GET", path: p, query: q}
	conn, err := r.c.dialStreams(ctx, req)
	if err != nil {
		return err
	}
	s := &podStreams{conn: conn, opts: opts, closeSignal: conn.Subprotocol() == streamProtocolV5}
	if err := s.run(ctx); err != nil {
		return requestError(req, nil, err)
	}
	return nil
}

// The remote command protocols, newest first: v5 adds the signal that
// closes one stream, so the command sees its stdin end.
const (
	streamProtocolV5 = "v5.channel.k8s.io"
	streamProtocolV4 = "v4.channel.k8s.io"
)

// maxStreamMessage bounds one WebSocket message from the server. The
// kubelet sends at most 32 KiB of output at a time; a Status is small.
const maxStreamMessage = 1 << 20

// dialStreams sends the WebSocket upgrade for r through the Client's
// transport (its credentials, TLS and rate limits), once, and returns
// the open connection speaking v5 or v4. An answer other than 101 is the
// server's error, as for any request; a redirect is refused.
func (c *Client) dialStreams(ctx context.Context, r *request) (*websocket.Conn, error) {
	start := time.Now()
	hc := &http.Client{Transport: c.http.Transport, CheckRedirect: keepRedirect}
	conn, resp, err := websocket.Dial(ctx, c.url(r), &websocket.DialOptions{
		HTTPClient:   hc,
		Subprotocols: []string{streamProtocolV5, streamProtocolV4},
	})
	c.obs.request(c.base.Host, r.method, resp, start)
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			if rerr := redirectError(r, resp); rerr != nil {
				return nil, rerr
			}
			body, _ := io.ReadAll(resp.Body) // websocket.Dial kept at most 1 KiB
			return nil, requestError(r, nil, statusError(resp, body))
		}
		if cause := context.Cause(ctx); cause != nil {
			return nil, requestError(r, nil, cause)
		}
		return nil, requestError(r, nil, err)
	}
	switch conn.Subprotocol() {
	case streamProtocolV5, streamProtocolV4:
	default:
		conn.CloseNow()
		return nil, requestError(r, nil, fmt.Errorf("the server speaks none of %s and %s (it chose %q): %w",
			streamProtocolV5, streamProtocolV4, conn.Subprotocol(), ErrMalformed))
	}
	conn.SetReadLimit(maxStreamMessage)
	return conn, nil
}

// streamError is a protocol violation by the server on an exec or
// attach connection; it matches ErrMalformed.
type streamError struct{ msg string }

func (e *streamError) Error() string        { return "remote command: " + e.msg }
func (e *streamError) Is(target error) bool { return target == ErrMalformed }

func streamErrorf(format string, args ...any) error {
	return &streamError{msg: fmt.Sprintf(format, args...)}
}
