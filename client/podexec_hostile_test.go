package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// Servers that break the protocol after the upgrade: each call ends
// with a clear error (ErrMalformed for what the protocol forbids), no
// panic, and no goroutine left.
func TestExecHostileStreams(t *testing.T) {
	big := strings.Repeat("x", maxStreamMessage+1)
	cases := []struct {
		name     string
		messages func(r *http.Request, conn *websocket.Conn)
		check    func(error) bool
		want     string
	}{
		{"oversized frame", func(r *http.Request, conn *websocket.Conn) { send(r, conn, channelStdout, big) },
			isMalformed, "read limited at 1048577 bytes"},
		{"stream byte out of range", func(r *http.Request, conn *websocket.Conn) { send(r, conn, 7, "hi") },
			isMalformed, "channel 7, which does not exist"},
		{"stdin channel from the server", func(r *http.Request, conn *websocket.Conn) { send(r, conn, channelStdin, "hi") },
			isMalformed, "channel 0"},
		{"stderr not asked for", func(r *http.Request, conn *websocket.Conn) { send(r, conn, channelStderr, "hi") },
			isMalformed, "stderr, which was not asked for"},
		{"text message", func(r *http.Request, conn *websocket.Conn) {
			_ = conn.Write(r.Context(), websocket.MessageText, []byte("1hi"))
		}, isMalformed, "text message"},
		{"empty message", func(r *http.Request, conn *websocket.Conn) {
			_ = conn.Write(r.Context(), websocket.MessageBinary, nil)
		}, isMalformed, "empty message"},
		{"status not JSON", statusThenClose(`{"status":"Fail`), isMalformed, "not JSON"},
		{"status of no known kind", statusThenClose(`{"status":"Maybe"}`), isMalformed, `status "Maybe"`},
		{"exit code without details", statusThenClose(`{"status":"Failure","reason":"NonZeroExitCode"}`), isMalformed, "without an ExitCode cause"},
		{"exit code not a number", statusThenClose(`{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"-x"}]}}`),
			isMalformed, `exit code "-x"`},
		{"exit code zero", statusThenClose(`{"status":"Failure","reason":"NonZeroExitCode","details":{"causes":[{"reason":"ExitCode","message":"0"}]}}`),
			isMalformed, `exit code "0"`},
		{"status over the bound", func(r *http.Request, conn *websocket.Conn) {
			for range maxStatusBytes/(32<<10) + 1 {
				send(r, conn, channelStatus, strings.Repeat(" ", 32<<10))
			}
		}, isMalformed, "over 65536 bytes"},
		{"close signal with no channel", func(r *http.Request, conn *websocket.Conn) { send(r, conn, channelClose, "") },
			isMalformed, "malformed close signal"},
		{"command that could not run", statusThenClose(`{"metadata":{},"status":"Failure","message":"failed to exec in container: executable file not found in $PATH","reason":"InternalError"}`),
			func(err error) bool { se, ok := StatusOf(err); return ok && se.Status.Reason == "InternalError" }, "executable file not found"},
		{"connection cut before the result", func(r *http.Request, conn *websocket.Conn) {
			send(r, conn, channelStdout, "partial")
			hijackAndClose(conn)
		}, func(err error) bool { return err != nil && !isMalformed(err) }, "connection ended before the command's result"},
		{"close with an error code", func(r *http.Request, conn *websocket.Conn) {
			conn.Close(websocket.StatusInternalError, "kubelet broke")
		}, func(err error) bool { return err != nil }, "kubelet broke"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			k := &kubeletSide{protocols: []string{streamProtocolV5}}
			c := newExecServer(t, false, func(w http.ResponseWriter, r *http.Request) {
				conn := k.accept(t, w, r)
				if conn == nil {
					return
				}
				defer conn.CloseNow()
				tc.messages(r, conn)
				conn.Close(websocket.StatusNormalClosure, "")
			})
			var stdout bytes.Buffer
			err := For[*corev1.Pod](c).Namespace("db").Exec(t.Context(), "pg-0", ExecOptions{Command: []string{"ls"}, Stdout: &stdout})
			if !tc.check(err) || !strings.Contains(fmtErr(err), tc.want) {
				t.Errorf("Exec = %v\nwant an error saying %q", err, tc.want)
			}
		})
	}
}

func isMalformed(err error) bool { return errors.Is(err, ErrMalformed) }

func fmtErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func statusThenClose(status string) func(*http.Request, *websocket.Conn) {
	return func(r *http.Request, conn *websocket.Conn) { send(r, conn, channelStatus, status) }
}

// hijackAndClose drops the connection under conn without a close frame.
func hijackAndClose(conn *websocket.Conn) {
	conn.CloseNow() // coder/websocket sends no close frame on CloseNow
}

// A server that never answers the upgrade, and one that stops in the
// middle of the output: ctx ends the call, with ctx's cause.
func TestExecEndsWithCtx(t *testing.T) {
	for _, mid := range []bool{false, true} {
		name := map[bool]string{false: "no answer to the upgrade", true: "hangs mid-stream"}[mid]
		t.Run(name, func(t *testing.T) {
			checkNoLeaks(t)
			arrived := make(chan struct{})
			k := &kubeletSide{protocols: []string{streamProtocolV5}}
			c := newExecServer(t, false, func(w http.ResponseWriter, r *http.Request) {
				if !mid {
					close(arrived)
					<-r.Context().Done()
					return
				}
				conn := k.accept(t, w, r)
				if conn == nil {
					return
				}
				defer conn.CloseNow()
				send(r, conn, channelStdout, "first line\n")
				_, _, _ = conn.Read(r.Context()) // until the client goes
			})
			ctx, cancel := context.WithCancelCause(t.Context())
			stop := errors.New("user pressed ^C")
			stdout := &notifyWriter{seen: arrived}
			if !mid {
				stdout.seen = nil
			}
			done := make(chan error, 1)
			go func() {
				done <- For[*corev1.Pod](c).Namespace("db").Exec(ctx, "pg-0", ExecOptions{Command: []string{"sleep", "inf"}, Stdout: stdout})
			}()
			<-arrived
			cancel(stop)
			if err := <-done; !errors.Is(err, stop) {
				t.Errorf("Exec = %v, want ctx's cause", err)
			}
		})
	}
}

// notifyWriter closes seen at its first write.
type notifyWriter struct {
	seen  chan struct{}
	wrote atomic.Bool
}

func (w *notifyWriter) Write(p []byte) (int, error) {
	if w.seen != nil && !w.wrote.Swap(true) {
		close(w.seen)
	}
	return len(p), nil
}

// Answers other than 101: the server's Status is the error (as for any
// request), a redirect is refused and nothing reaches its Location, and
// a 101 with no protocol of ours is refused.
func TestExecRefusals(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	cases := []struct {
		name  string
		serve func(w http.ResponseWriter, r *http.Request)
		check func(error) bool
		want  string
	}{
		{"pod on no node", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pod pg-0 does not have a host assigned","reason":"BadRequest","code":400}`)
		}, func(err error) bool { return errors.Is(err, ErrBadRequest) }, "pod pg-0 does not have a host assigned"},
		{"missing pod", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"pg-0\" not found","reason":"NotFound","code":404}`)
		}, func(err error) bool { return errors.Is(err, ErrNotFound) }, `pods "pg-0" not found`},
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
		}, func(err error) bool { return errors.Is(err, ErrRedirected) }, other.URL},
		{"no protocol of ours", func(w http.ResponseWriter, r *http.Request) {
			conn, err := websocket.Accept(w, r, nil)
			if err == nil {
				conn.CloseNow()
			}
		}, isMalformed, "speaks none of v5.channel.k8s.io and v4.channel.k8s.io"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			c := newExecServer(t, false, tc.serve)
			err := For[*corev1.Pod](c).Namespace("db").Exec(t.Context(), "pg-0", ExecOptions{Command: []string{"ls"}, Stdout: io.Discard})
			if !tc.check(err) || !strings.Contains(fmtErr(err), tc.want) {
				t.Errorf("Exec = %v\nwant an error saying %q", err, tc.want)
			}
		})
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("%d requests reached the redirect's Location", n)
	}
}

// Options the server would refuse, or that cannot work, are refused
// before anything is sent.
func TestExecRefusesBadOptions(t *testing.T) {
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { t.Errorf("request sent: %s", r.URL) })
	pods := For[*corev1.Pod](c).Namespace("db")
	resize := make(chan TerminalSize)
	for name, o := range map[string]ExecOptions{
		"no command":         {Stdout: io.Discard},
		"no stream":          {Command: []string{"ls"}},
		"tty and stderr":     {Command: []string{"ls"}, TTY: true, Stdout: io.Discard, Stderr: io.Discard},
		"resize without tty": {Command: []string{"ls"}, Stdout: io.Discard, Resize: resize},
	} {
		if err := pods.Exec(t.Context(), "pg-0", o); !errors.Is(err, ErrInvalidOptions) {
			t.Errorf("%s: %v, want ErrInvalidOptions", name, err)
		}
	}
	if err := For[*corev1.ConfigMap](c).Namespace("db").Exec(t.Context(), "x", ExecOptions{Command: []string{"ls"}, Stdout: io.Discard}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("exec in a ConfigMap: %v, want ErrInvalidOptions", err)
	}
	if err := pods.Attach(t.Context(), "pg-0", AttachOptions{}); !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("attach with no stream: %v, want ErrInvalidOptions", err)
	}
}

// Attach with a TTY: the query asks for a tty and no stderr, and the
// sizes sent on Resize reach the server as the kubelet reads them.
func TestAttachTTYResize(t *testing.T) {
	checkNoLeaks(t)
	k := &kubeletSide{protocols: []string{streamProtocolV5, streamProtocolV4}}
	c := newExecServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		conn := k.accept(t, w, r)
		if conn == nil {
			return
		}
		defer conn.CloseNow()
		if err := k.readUntil(r, conn, func() bool { return len(k.resizes) == 2 }); err != nil {
			t.Errorf("server read: %v", err)
			return
		}
		send(r, conn, channelStatus, `{"metadata":{},"status":"Success"}`)
		conn.Close(websocket.StatusNormalClosure, "")
	})
	resize := make(chan TerminalSize, 2)
	resize <- TerminalSize{Width: 80, Height: 24}
	resize <- TerminalSize{Width: 120, Height: 40}
	err := For[*corev1.Pod](c).Namespace("db").Attach(t.Context(), "pg-0", AttachOptions{Stdout: io.Discard, TTY: true, Resize: resize})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := k.requests[0].URL.RawQuery, "stdout=true&tty=true"; got != want {
		t.Errorf("query %q, want %q", got, want)
	}
	if got, want := strings.Join(k.resizes, " "), `{"Width":80,"Height":24} {"Width":120,"Height":40}`; got != want {
		t.Errorf("resizes %s, want %s", got, want)
	}
}
