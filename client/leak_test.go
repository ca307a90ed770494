package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// clientFrames mark a goroutine as the client's: the connection loops of
// net/http's HTTP/1 and HTTP/2 client transports, and anything running in
// this module's client and codec packages.
var clientFrames = []string{
	"net/http.(*persistConn).",
	"net/http.(*http2ClientConn).",
	"net/http.(*http2clientConnReadLoop).",
	"net/http.(*http2clientStream).",
	"github.com/kubewire/kubewire/client.",
	"github.com/kubewire/kubewire/codec.",
}

// checkNoLeaks fails t if a goroutine of the client that started during
// the test still runs when the test's other cleanups have finished. Call
// it first in the test, so that its check runs last: after the servers,
// watches and idle connections the test set up are closed.
//
// It looks at every goroutine of the process: tests that use it must not
// run in parallel with others (no package test does).
func checkNoLeaks(t testing.TB) {
	t.Helper()
	noLeaks := leakCheck(t)
	t.Cleanup(func() { noLeaks() })
}

// idleCloser is a *Client, or a transport.
type idleCloser interface{ CloseIdleConnections() }

// leakCheck notes the goroutines running now and returns a function that
// fails t if a goroutine of the client started since is still running.
// Goroutines take a moment to notice a closed connection, and a
// connection whose last request just ended becomes idle a moment later
// (an HTTP/2 stream is closed asynchronously), so the function closes the
// idle connections of idle on every look, for up to five seconds, before
// it reports the stacks it still sees.
func leakCheck(t testing.TB) func(idle ...idleCloser) {
	before := map[string]bool{}
	for _, g := range goroutines() {
		before[g.id] = true
	}
	return func(idle ...idleCloser) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			for _, c := range idle {
				c.CloseIdleConnections()
			}
			var leaked []string
			for _, g := range goroutines()[1:] { // [0] is this one
				if !before[g.id] && g.isClients() {
					leaked = append(leaked, g.stack)
				}
			}
			if len(leaked) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%d goroutines of the client outlived the test:\n\n%s", len(leaked), strings.Join(leaked, "\n\n"))
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

type goroutine struct {
	id    string // the number in "goroutine 12 [running]:"
	stack string
}

func (g goroutine) isClients() bool {
	for _, f := range clientFrames {
		if strings.Contains(g.stack, f) {
			return true
		}
	}
	return false
}

// goroutines returns every goroutine's stack, the caller's first.
func goroutines() []goroutine {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []goroutine
	for _, s := range bytes.Split(buf, []byte("\n\n")) {
		id, _, _ := strings.Cut(strings.TrimPrefix(string(s), "goroutine "), " ")
		out = append(out, goroutine{id: id, stack: string(s)})
	}
	return out
}

// TestCheckNoLeaksFindsALeak makes sure the helper sees what it is for:
// an open watch whose connection nobody closes.
func TestCheckNoLeaksFindsALeak(t *testing.T) {
	before := map[string]bool{}
	for _, g := range goroutines() {
		before[g.id] = true
	}
	c, _ := newServer(t, hangingWatch)
	w, err := For[*corev1.Pod](c).Watch(t.Context(), WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Next(); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, g := range goroutines()[1:] {
		found = found || (!before[g.id] && g.isClients())
	}
	if !found {
		t.Fatal("an open watch's connection goroutines are not recognised as the client's")
	}
}

// Every way a watch ends releases its connection and leaves no goroutine
// behind, over HTTP/1.1 and HTTP/2: once the client's idle connections
// are closed, nothing of the client runs.
func TestWatchEndingsLeaveNoGoroutines(t *testing.T) {
	event := `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"n","resourceVersion":"5"}}}` + "\n"
	gone := load(t, "errors/watch-gone.json")
	handler := func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("fieldSelector") {
		case "end=eof": // one event, then the server ends the watch
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, event)
		case "end=error":
			serve(w, gone)
		case "end=malformed":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, event+`{"type":]`)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		default:
			hangingWatch(w, r)
		}
	}
	endings := []struct {
		name string
		opts WatchOptions
		end  func(context.CancelFunc, *Watcher[*corev1.Pod]) error
		want error
	}{
		{"server ends it", WatchOptions{FieldSelector: RawSelector("end=eof")}, readToError, io.EOF},
		{"error event", WatchOptions{FieldSelector: RawSelector("end=error")}, readToError, ErrExpired},
		{"malformed stream", WatchOptions{FieldSelector: RawSelector("end=malformed")}, readToError, ErrMalformed},
		{"idle timeout", WatchOptions{IdleTimeout: 50 * time.Millisecond}, readToError, ErrWatchIdle},
		{"context cancelled", WatchOptions{}, func(cancel context.CancelFunc, w *Watcher[*corev1.Pod]) error {
			w.Next()
			time.AfterFunc(20*time.Millisecond, cancel)
			return readToError(cancel, w)
		}, context.Canceled},
		{"closed from another goroutine", WatchOptions{}, func(cancel context.CancelFunc, w *Watcher[*corev1.Pod]) error {
			w.Next()
			time.AfterFunc(20*time.Millisecond, func() { w.Close() })
			return readToError(cancel, w)
		}, ErrWatchClosed},
		{"loop broken", WatchOptions{}, func(cancel context.CancelFunc, w *Watcher[*corev1.Pod]) error {
			for range w.Events() {
				break
			}
			_, err := w.Next()
			return err
		}, ErrWatchClosed},
	}
	for _, proto := range []string{"HTTP/1.1", "HTTP/2"} {
		t.Run(proto, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(handler))
			srv.EnableHTTP2 = proto == "HTTP/2"
			srv.StartTLS()
			defer srv.Close()
			c, err := New(Config{Host: srv.URL, QPS: -1, TLS: TLSConfig{CAData: pemOf(srv)}})
			if err != nil {
				t.Fatal(err)
			}
			noLeaks := leakCheck(t)
			// The watches' contexts end only after the check: each
			// watch must let go of its connection on its own.
			var cancels []context.CancelFunc
			defer func() {
				for _, cancel := range cancels {
					cancel()
				}
			}()
			for _, e := range endings {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				cancels = append(cancels, cancel)
				w, err := For[*corev1.Pod](c).Namespace("n").Watch(ctx, e.opts)
				if err != nil {
					// On a loaded machine the idle bound can pass before
					// the answer's headers: the watch ends the same way.
					if !errors.Is(err, e.want) {
						t.Fatalf("%s: %v", e.name, err)
					}
					continue
				}
				if err := e.end(cancel, w); !errors.Is(err, e.want) {
					t.Errorf("%s: the watch ended with %v, want %v", e.name, err, e.want)
				}
			}
			noLeaks(c)
		})
	}
}

// readToError reads events until one fails.
func readToError(_ context.CancelFunc, w *Watcher[*corev1.Pod]) error {
	for {
		if _, err := w.Next(); err != nil {
			return err
		}
	}
}

// CloseIdleConnections reaches the base transport through every layer of
// the client: afterwards no connection of the client is left, while the
// server is still up.
func TestCloseIdleConnectionsClosesThem(t *testing.T) {
	pod := load(t, "objects/pods-web-1.json")
	for _, proto := range []string{"HTTP/1.1", "HTTP/2"} {
		t.Run(proto, func(t *testing.T) {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serve(w, pod) }))
			srv.EnableHTTP2 = proto == "HTTP/2"
			srv.StartTLS()
			defer srv.Close()
			c, err := New(Config{Host: srv.URL, QPS: -1, TLS: TLSConfig{CAData: pemOf(srv)}})
			if err != nil {
				t.Fatal(err)
			}
			noLeaks := leakCheck(t)
			if err := get(c); err != nil {
				t.Fatal(err)
			}
			noLeaks(c)
		})
	}
}
