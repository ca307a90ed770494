package fake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/coder/websocket"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// ExecRequest is one exec or attach into a container, as Options.Exec,
// the emulated kubelet, sees it. The streams the client did not ask for
// are nil.
type ExecRequest struct {
	// Attach is set for pods/attach (Command is then empty).
	Attach                    bool
	Namespace, Pod, Container string
	Command                   []string
	// Stdin reads what the client sends; it ends with io.EOF when the
	// client closes it (v5.channel.k8s.io) and with an error when the
	// client goes away.
	Stdin io.Reader
	// Stdout and Stderr send to the client. They are safe for use by
	// two goroutines, one each.
	Stdout, Stderr io.Writer
	TTY            bool
	// Resize receives the terminal sizes the client sends (TTY only).
	// A size is delivered when read: an Exec that never reads it holds
	// up the client's stdin after the first one.
	Resize <-chan TerminalSize
}

// TerminalSize is a terminal's size in characters.
type TerminalSize struct {
	Width, Height uint16
}

// ExitError, returned by Options.Exec, is a command that exited with a
// non-zero Code: the client sees the kubelet's NonZeroExitCode Status.
type ExitError struct {
	Code int
}

func (e *ExitError) Error() string { return "exit code " + strconv.Itoa(e.Code) }

// The remote command protocols the emulated kubelet speaks, in its order
// of choice, and their channels.
var execProtocols = []string{"v5.channel.k8s.io", "v4.channel.k8s.io"}

const (
	execStdin  = 0
	execStdout = 1
	execStderr = 2
	execStatus = 3
	execResize = 4
	execClose  = 255
	// execChunk is the most one output message carries, as a kubelet.
	execChunk = 32 << 10
	// execMaxMessage bounds a client's message.
	execMaxMessage = 1 << 20
)

// serveExec runs Options.Exec for an exec or attach request that got
// past kube-apiserver's checks, over a WebSocket.
func (s *Server) serveExec(w http.ResponseWriter, req *http.Request, r *request.Request, pod *corev1.Pod, container string) {
	q := req.URL.Query()
	er := &ExecRequest{Attach: r.Subresource == "attach", Namespace: pod.Namespace, Pod: pod.Name, Container: container, TTY: isTrue(q.Get("tty"))}
	if !er.Attach {
		er.Command = q["command"]
		if len(er.Command) == 0 {
			request.WriteError(w, req, apierr.BadRequest("you must specify at least one command for the container"))
			return
		}
	}
	stdin, stdout, stderr := isTrue(q.Get("stdin")), isTrue(q.Get("stdout")), isTrue(q.Get("stderr"))
	if !stdin && !stdout && !stderr {
		request.WriteError(w, req, apierr.BadRequest("you must specify at least 1 of stdin, stdout, stderr"))
		return
	}
	if msg := notRunning(pod, container); msg != "" {
		request.WriteError(w, req, apierr.InternalMessage(msg))
		return
	}
	if !strings.EqualFold(req.Header.Get("Upgrade"), "websocket") {
		request.WriteError(w, req, apierr.BadRequest("kubewire-fake's kubelet speaks only WebSocket ("+strings.Join(execProtocols, ", ")+"), not SPDY"))
		return
	}
	conn, err := websocket.Accept(w, req, &websocket.AcceptOptions{Subprotocols: execProtocols})
	if err != nil {
		return // Accept answered the client
	}
	defer conn.CloseNow()
	if conn.Subprotocol() == "" {
		conn.Close(websocket.StatusProtocolError, "ask for "+strings.Join(execProtocols, " or "))
		return
	}
	conn.SetReadLimit(execMaxMessage)
	ctx, cancel := context.WithCancel(req.Context())
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel)
	defer stop()

	x := &execConn{conn: conn, ctx: ctx, closeSignal: conn.Subprotocol() == execProtocols[0]}
	var in *io.PipeReader
	if stdin {
		var pw *io.PipeWriter
		in, pw = io.Pipe()
		x.stdin = pw
		er.Stdin = in
	}
	if stdout {
		er.Stdout = &execWriter{x: x, channel: execStdout}
	}
	if stderr && !er.TTY {
		er.Stderr = &execWriter{x: x, channel: execStderr}
	}
	if er.TTY {
		resize := make(chan TerminalSize)
		x.resize = resize
		er.Resize = resize
	}
	var wg sync.WaitGroup
	wg.Go(func() { x.readClient(cancel) })
	result := s.opts.Exec(ctx, er)
	if in != nil {
		in.CloseWithError(errors.New("the command has ended"))
	}
	if ctx.Err() == nil {
		b, _ := json.Marshal(execResult(er, result))
		_ = conn.Write(ctx, websocket.MessageBinary, append([]byte{execStatus}, b...))
		conn.Close(websocket.StatusNormalClosure, "")
	}
	cancel()
	wg.Wait()
}

// notRunning says why a container the Pod's status reports as not
// running cannot take an exec; "" when it can (or has no status).
func notRunning(pod *corev1.Pod, container string) string {
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses, pod.Status.EphemeralContainerStatuses} {
		for _, st := range list {
			if st.Name == container && st.State.Running == nil {
				return fmt.Sprintf("container %q in pod %q is not running", container, pod.Name)
			}
		}
	}
	if pod.Status.Phase == "Succeeded" || pod.Status.Phase == "Failed" {
		return fmt.Sprintf("pod %q is %s: its containers are not running", pod.Name, pod.Status.Phase)
	}
	return ""
}

func isTrue(v string) bool {
	b, _ := strconv.ParseBool(v)
	return b
}

// execStatusBody is the Status the kubelet sends on the status channel.
type execStatusBody struct {
	Metadata struct{}     `json:"metadata"`
	Status   string       `json:"status"`
	Message  string       `json:"message,omitempty"`
	Reason   string       `json:"reason,omitempty"`
	Details  *execDetails `json:"details,omitempty"`
}

type execDetails struct {
	Causes []execCause `json:"causes"`
}

type execCause struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message"`
}

func execResult(er *ExecRequest, err error) execStatusBody {
	if err == nil {
		return execStatusBody{Status: "Success"}
	}
	var exit *ExitError
	if errors.As(err, &exit) && exit.Code != 0 {
		d := &execDetails{Causes: []execCause{{Reason: "ExitCode", Message: strconv.Itoa(exit.Code)}}}
		return execStatusBody{Status: "Failure", Reason: "NonZeroExitCode", Details: d,
			Message: fmt.Sprintf("command terminated with non-zero exit code: error executing command %v, exit code %d", er.Command, exit.Code)}
	}
	return execStatusBody{Status: "Failure", Reason: "InternalError", Message: err.Error()}
}

// execConn is the emulated kubelet's side of one connection.
type execConn struct {
	conn        *websocket.Conn
	ctx         context.Context
	closeSignal bool
	stdin       *io.PipeWriter      // nil: not asked for
	resize      chan<- TerminalSize // nil: no TTY
}

// readClient hands the client's stdin and resizes on until the client
// or the command goes; then it cancels the command's ctx.
func (x *execConn) readClient(cancel context.CancelFunc) {
	defer cancel()
	fail := func(err error) {
		if x.stdin != nil {
			x.stdin.CloseWithError(err)
		}
	}
	for {
		_, msg, err := x.conn.Read(x.ctx)
		if err != nil {
			fail(fmt.Errorf("the client went away: %w", err))
			return
		}
		if len(msg) == 0 {
			continue
		}
		switch {
		case msg[0] == execStdin && x.stdin != nil:
			if _, err := x.stdin.Write(msg[1:]); err != nil {
				continue // the command stopped reading
			}
		case msg[0] == execResize && x.resize != nil:
			var size TerminalSize
			if json.Unmarshal(msg[1:], &size) != nil {
				continue // the kubelet drops a size it cannot read
			}
			select {
			case x.resize <- size:
			case <-x.ctx.Done():
				return
			}
		case msg[0] == execClose && x.closeSignal && len(msg) == 2 && msg[1] == execStdin && x.stdin != nil:
			x.stdin.Close()
		}
	}
}

// execWriter sends what is written as messages on one channel.
type execWriter struct {
	x       *execConn
	channel byte
}

func (w *execWriter) Write(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		chunk := p[:min(len(p), execChunk)]
		if err := w.x.conn.Write(w.x.ctx, websocket.MessageBinary, append([]byte{w.channel}, chunk...)); err != nil {
			return n, err
		}
		n += len(chunk)
		p = p[len(chunk):]
	}
	return n, nil
}
