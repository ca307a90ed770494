package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/api/unstructured"
)

func ptr[T any](v T) *T { return &v }

// streamingList are the options of a watch-list.
var streamingList = WatchOptions{
	SendInitialEvents:    ptr(true),
	AllowWatchBookmarks:  true,
	ResourceVersionMatch: MatchNotOlderThan,
}

func eventLines[T Object](t *testing.T, w *Watcher[T]) []string {
	t.Helper()
	var got []string
	for ev, err := range w.Events() {
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %s %s end=%v", ev.Type, ev.Object.GetName(), ev.ResourceVersion, ev.InitialEventsEnd))
	}
	return got
}

func TestWatchListStreams(t *testing.T) {
	wants := map[string][]string{
		"watch/configmaps-watchlist.json": {
			"ADDED cm-1 215 end=false", "ADDED cm-2 217 end=false", "ADDED cm-3 219 end=false",
			"ADDED cm-4 221 end=false", "ADDED cm-5 223 end=false", "ADDED cm-6 225 end=false",
			"ADDED cm-7 227 end=false", "BOOKMARK  240 end=true", "MODIFIED cm-1 241 end=false",
			"DELETED cm-7 242 end=false", "ADDED cm-new 243 end=false",
		},
		// captured later, from the same server
		"watch/configmaps-watchlist.pb": {
			"ADDED cm-1 241 end=false", "ADDED cm-2 217 end=false", "ADDED cm-3 219 end=false",
			"ADDED cm-4 221 end=false", "ADDED cm-5 223 end=false", "ADDED cm-6 225 end=false",
			"ADDED cm-new 243 end=false", "BOOKMARK  246 end=true", "MODIFIED cm-2 247 end=false",
		},
	}
	for name, want := range wants {
		t.Run(name, func(t *testing.T) {
			checkNoLeaks(t)
			fx := load(t, name)
			c, rec := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
			w, err := For[*corev1.ConfigMap](c).Namespace("fixtures").Watch(context.Background(), streamingList)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, eventLines(t, w)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			req, _ := rec.last(t)
			wantQuery := "allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true"
			if diff := cmp.Diff(wantQuery, req.URL.RawQuery); diff != "" {
				t.Errorf("query (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWatchCustomResourceAsUnstructured(t *testing.T) {
	checkNoLeaks(t)
	fx := load(t, "watch/widgets-watchlist.json")
	c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
	widgets := Dynamic(c, GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"})
	w, err := widgets.Namespace("fixtures").Watch(context.Background(), streamingList)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ADDED w1 237 end=false", "ADDED w2 238 end=false", "ADDED w3 239 end=false", "BOOKMARK  249 end=true"}
	if diff := cmp.Diff(want, eventLines(t, w)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	var _ *unstructured.Unstructured
}

func TestWatchErrorEventIsStatusError(t *testing.T) {
	for _, name := range []string{"errors/watch-gone.json", "errors/watch-gone.pb"} {
		t.Run(name, func(t *testing.T) {
			checkNoLeaks(t)
			fx := load(t, name)
			c, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) { serve(w, fx) })
			w, err := For[*corev1.Pod](c).Watch(context.Background(), WatchOptions{ResourceVersion: "1"})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, err = w.Next()
			if !errors.Is(err, ErrExpired) {
				t.Fatalf("Next = %v, want ErrExpired", err)
			}
			if _, again := w.Next(); !errors.Is(again, ErrExpired) {
				t.Errorf("second Next = %v, want the same error", again)
			}
		})
	}
}

// hangingWatch sends one event, then holds the stream open until the
// client goes away.
func hangingWatch(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintln(w, `{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"a","namespace":"n","resourceVersion":"5"}}}`)
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

func TestWatchEndsWithContextAndLeavesNoGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _, stop := newPipeServer(t, Config{QPS: -1}, hangingWatch)
		defer stop()
		ctx, cancel := context.WithCancel(context.Background())
		w, err := For[*corev1.Pod](c).Watch(ctx, WatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if ev, err := w.Next(); err != nil || ev.Object.Name != "a" {
			t.Fatalf("Next = %v, %v", ev, err)
		}
		done := make(chan error)
		go func() { _, err := w.Next(); done <- err }()
		synctest.Wait()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Next after cancel = %v, want context.Canceled", err)
		}
		// synctest.Test fails if any goroutine of the bubble (client
		// transport, server, watch) is still running after stop.
	})
}

func TestWatchCloseFromAnotherGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _, stop := newPipeServer(t, Config{QPS: -1}, hangingWatch)
		defer stop()
		w, err := For[*corev1.Pod](c).Watch(context.Background(), WatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.Next()
		done := make(chan error)
		go func() { _, err := w.Next(); done <- err }()
		synctest.Wait()
		w.Close()
		if err := <-done; !errors.Is(err, ErrWatchClosed) {
			t.Errorf("Next after Close = %v, want ErrWatchClosed", err)
		}
	})
}

func TestWatchIdleTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _, stop := newPipeServer(t, Config{QPS: -1}, hangingWatch)
		defer stop()
		w, err := For[*corev1.Pod](c).Watch(context.Background(), WatchOptions{IdleTimeout: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		start := time.Now()
		w.Next()
		if _, err := w.Next(); !errors.Is(err, ErrWatchIdle) {
			t.Fatalf("Next = %v, want ErrWatchIdle", err)
		}
		if got := time.Since(start); got != 30*time.Second {
			t.Errorf("idle watch ended after %s, want 30s", got)
		}
	})
}

func TestWatchBreakingTheLoopCloses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _, stop := newPipeServer(t, Config{QPS: -1}, hangingWatch)
		defer stop()
		w, err := For[*corev1.Pod](c).Watch(context.Background(), WatchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for range w.Events() {
			break
		}
		if _, err := w.Next(); !errors.Is(err, ErrWatchClosed) {
			t.Errorf("Next after the loop = %v, want ErrWatchClosed", err)
		}
	})
}

// A Retry-After header that the body does not repeat (a proxy's 503 page)
// reaches the error of a watch, which is not retried here but by whoever
// started it, and of a read whose retries ran out.
func TestRetryAfterHeaderReachesTheError(t *testing.T) {
	c, _ := newServerConfig(t, Config{QPS: -1, Retry: RetryPolicy{MaxAttempts: 1}}, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("<html><body>upstream unavailable</body></html>"))
	})
	pods := For[*corev1.Pod](c).Namespace("fixtures")
	_, watchErr := pods.Watch(t.Context(), WatchOptions{})
	_, getErr := pods.Get(t.Context(), "web-1", GetOptions{})
	for name, err := range map[string]error{"watch": watchErr, "get": getErr} {
		var se *StatusError
		if !errors.As(err, &se) {
			t.Fatalf("%s: %v is not a *StatusError", name, err)
		}
		if d, ok := se.RetryAfter(); !ok || d != 7*time.Second {
			t.Errorf("%s: RetryAfter() = %v, %v; want 7s (error: %v)", name, d, ok, err)
		}
	}
}
