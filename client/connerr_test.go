package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// watchServer serves one ADDED event on every watch and then holds the
// stream open until the request ends; release unblocks the handlers.
func watchServer(t *testing.T) (*httptest.Server, chan struct{}) {
	release := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"type":"ADDED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"default","resourceVersion":"5"}}}` + "\n"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, release
}

// A server shutting down gracefully (HTTP/2 GOAWAY with NO_ERROR, as
// kube-apiserver does on shutdown) ends a watch like a server closing it:
// io.EOF, not a failure. A connection that breaks is ErrConnectionLost.
func TestWatchEndsCleanlyOnGracefulShutdown(t *testing.T) {
	tests := []struct {
		name  string
		end   func(srv *httptest.Server, release chan struct{})
		check func(error) bool
	}{
		{"graceful GOAWAY", func(srv *httptest.Server, release chan struct{}) {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			srv.Config.Shutdown(ctx) // sends GOAWAY(NO_ERROR), then gives up on the open stream
			srv.CloseClientConnections()
		}, func(err error) bool { return errors.Is(err, io.EOF) && !errors.Is(err, ErrConnectionLost) }},
		{"connection torn down", func(srv *httptest.Server, _ chan struct{}) {
			srv.CloseClientConnections()
		}, func(err error) bool { return errors.Is(err, ErrConnectionLost) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, release := watchServer(t)
			defer close(release)
			c, err := New(Config{Host: srv.URL, QPS: -1, TLS: TLSConfig{CAData: pemOf(srv)}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			w, err := For[*corev1.Pod](c).Namespace("default").Watch(context.Background(), WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if _, err := w.Next(); err != nil {
				t.Fatal(err)
			}
			go tc.end(srv, release)
			_, err = w.Next()
			t.Logf("%s: %v", tc.name, err)
			if !tc.check(err) {
				t.Errorf("Next after %s = %v (io.EOF %v, ErrConnectionLost %v)", tc.name, err, errors.Is(err, io.EOF), errors.Is(err, ErrConnectionLost))
			}
		})
	}
}

func TestClassifyBroken(t *testing.T) {
	tests := []struct {
		err            error
		graceful, lost bool
	}{
		{errors.New("http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=NO_ERROR, debug=\"\""), true, true},
		{errors.New("http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=PROTOCOL_ERROR, debug=\"\""), false, true},
		{errors.New("http2: client connection lost"), false, true},
		{io.ErrUnexpectedEOF, false, true},
		{context.Canceled, false, false},
		{errors.New("something else"), false, false},
		{&StatusError{}, false, false},
	}
	for _, tc := range tests {
		g, l := classifyBroken(tc.err)
		if g != tc.graceful || l != tc.lost {
			t.Errorf("classifyBroken(%v) = %v, %v; want %v, %v", tc.err, g, l, tc.graceful, tc.lost)
		}
	}
}
