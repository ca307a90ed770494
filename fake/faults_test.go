package fake

import (
	"errors"
	"io"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake/internal/watch"
)

// Each test shows what a client sees under one fault.

func TestFaultFailNext(t *testing.T) {
	tests := []struct {
		code       int
		retryAfter time.Duration
		sentinel   error
		wantRetry  string
	}{
		{http.StatusTooManyRequests, 2 * time.Second, codec.ErrTooManyRequests, "2"},
		{http.StatusInternalServerError, 0, codec.ErrInternal, ""},
		{http.StatusServiceUnavailable, time.Second, codec.ErrServiceUnavailable, "1"},
		{http.StatusGatewayTimeout, 0, codec.ErrServerTimeout, ""},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.code), func(t *testing.T) {
			s, c := newTestServer(t, Options{})
			s.Faults().FailNext(2, tt.code, tt.retryAfter)
			for range 2 {
				resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps", "", "")
				err := codec.ErrorFromResponse(resp.StatusCode, resp.Header.Get("Content-Type"), body)
				if resp.StatusCode != tt.code || !errors.Is(err, tt.sentinel) {
					t.Errorf("status %d, error %v; want %d matching %v", resp.StatusCode, err, tt.code, tt.sentinel)
				}
				if got := resp.Header.Get("Retry-After"); got != tt.wantRetry {
					t.Errorf("Retry-After %q, want %q", got, tt.wantRetry)
				}
			}
			c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/configmaps", "")
		})
	}
}

func TestFaultTooLargeResourceVersion(t *testing.T) {
	s, c := newTestServer(t, Options{})
	s.Faults().TooLargeResourceVersionNext(1)
	resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps?resourceVersion=1&resourceVersionMatch=NotOlderThan", "", "")
	err := codec.ErrorFromResponse(resp.StatusCode, resp.Header.Get("Content-Type"), body)
	if resp.StatusCode != http.StatusGatewayTimeout || !errors.Is(err, codec.ErrTooLargeResourceVersion) || resp.Header.Get("Retry-After") != "1" {
		t.Errorf("status %d, Retry-After %q, error %v", resp.StatusCode, resp.Header.Get("Retry-After"), err)
	}
	// Without the fault, only a version newer than the server's is too large.
	c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/configmaps?resourceVersion=1&resourceVersionMatch=NotOlderThan", "")
	resp, _ = c.do("GET", "/api/v1/namespaces/default/configmaps?resourceVersion=999999&resourceVersionMatch=NotOlderThan", "", "")
	if resp.StatusCode != http.StatusGatewayTimeout {
		t.Errorf("future resourceVersion: status %d, want 504", resp.StatusCode)
	}
}

// A watch from a resourceVersion gets "too large resource version" as an
// ERROR event, as from kube-apiserver's watch cache; the next one works.
func TestFaultTooLargeResourceVersionWatch(t *testing.T) {
	s, c := newTestServer(t, Options{})
	c.createCM("a")
	rv := s.CurrentResourceVersion()
	s.Faults().TooLargeResourceVersionNext(1)
	_, dec := c.watch("resourceVersion="+rv, "")
	_, err := dec.Next()
	var se *codec.StatusError
	if !errors.As(err, &se) || !errors.Is(err, codec.ErrTooLargeResourceVersion) || se.Status.Code != http.StatusGatewayTimeout {
		t.Fatalf("first event: %v, want a 504 too large resource version", err)
	}
	if ra, ok := se.RetryAfter(); !ok || ra != time.Second {
		t.Errorf("retry after %v, %v; want 1s", ra, ok)
	}
	_, dec = c.watch("resourceVersion="+rv, "")
	c.createCM("b")
	if typ, name, err := nextEvent(t, dec); err != nil || typ != "ADDED" || name != "b" {
		t.Errorf("after the fault: %s %s %v, want ADDED b", typ, name, err)
	}
}

func TestFaultLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, c := newMemServer(t, Options{})
		s.Faults().SetLatency(3 * time.Second)
		start := time.Now()
		c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/configmaps", "")
		if d := time.Since(start); d != 3*time.Second {
			t.Errorf("request took %v, want 3s", d)
		}
	})
}

func TestFaultRefuseProtobuf(t *testing.T) {
	s, c := newTestServer(t, Options{})
	s.Faults().RefuseProtobuf(true)
	resp, _ := c.do("GET", "/api/v1/namespaces/default/configmaps", codec.AcceptProtobufOrJSON, "")
	if ct := resp.Header.Get("Content-Type"); ct != codec.MediaTypeJSON {
		t.Errorf("with a JSON fallback: Content-Type %q, want JSON", ct)
	}
	resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps", codec.MediaTypeProtobuf, "")
	if err := codec.ErrorFromResponse(resp.StatusCode, resp.Header.Get("Content-Type"), body); !errors.Is(err, codec.ErrNotAcceptable) {
		t.Errorf("protobuf only: status %d, error %v; want 406", resp.StatusCode, err)
	}
}

func TestFaultWatchListRefused(t *testing.T) {
	s, c := newTestServer(t, Options{})
	s.Faults().SetWatchList(WatchListRefused)
	resp, body := c.do("GET", "/api/v1/namespaces/default/configmaps?watch=true&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan", "", "")
	if err := codec.ErrorFromResponse(resp.StatusCode, resp.Header.Get("Content-Type"), body); resp.StatusCode != http.StatusBadRequest || !errors.Is(err, codec.ErrBadRequest) {
		t.Errorf("status %d, error %v; want 400", resp.StatusCode, err)
	}
}

func TestFaultWatchListNoEndBookmark(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, c := newMemServer(t, Options{BookmarkInterval: time.Second})
		c.createCM("a")
		s.Faults().SetWatchList(WatchListNoEndBookmark)
		_, dec := c.watch("sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=5", "")
		var got []string
		for {
			typ, err := dec.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			var cm corev1.ConfigMap
			if err := dec.Decode(&cm); err != nil {
				t.Fatal(err)
			}
			got = append(got, typ+" "+cm.Name+cm.Annotations[watch.InitialEventsEnd])
		}
		// The initial ADDED, then only ordinary bookmarks (no end
		// annotation), one a second, until the watch times out.
		want := []string{"ADDED a", "BOOKMARK ", "BOOKMARK ", "BOOKMARK ", "BOOKMARK "}
		if diff := cmp.Diff(want, got[:min(len(got), 5)]); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
	})
}

func TestFaultDropWatches(t *testing.T) {
	s, c := newTestServer(t, Options{})
	_, dec := c.watch("resourceVersion=1", "")
	s.Faults().DropWatches()
	if _, _, err := nextEvent(t, dec); err != io.EOF {
		t.Errorf("after DropWatches: %v, want a clean end of stream", err)
	}
}

func TestFaultDropWatchesAfter(t *testing.T) {
	s, c := newTestServer(t, Options{})
	s.Faults().DropWatchesAfter(2)
	for _, n := range []string{"a", "b", "c"} {
		c.createCM(n)
	}
	_, dec := c.watch("resourceVersion=1", "")
	var got []string
	for {
		_, name, err := nextEvent(t, dec)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, name)
	}
	if len(got) != 2 {
		t.Errorf("events before the drop %q, want 2", got)
	}
}

func TestFaultCloseNextEventMidway(t *testing.T) {
	for _, accept := range []string{codec.MediaTypeJSON, codec.MediaTypeProtobuf} {
		t.Run(accept, func(t *testing.T) {
			s, c := newTestServer(t, Options{})
			c.createCM("a")
			s.Faults().CloseNextEventMidway()
			_, dec := c.watch("resourceVersion=1", accept)
			_, _, err := nextEvent(t, dec)
			if err == nil || err == io.EOF {
				t.Errorf("cut event: error %v, want a truncated stream error", err)
			}
		})
	}
}

func TestFaultCorruptNextEvent(t *testing.T) {
	for _, accept := range []string{codec.MediaTypeJSON, codec.MediaTypeProtobuf} {
		t.Run(accept, func(t *testing.T) {
			s, c := newTestServer(t, Options{})
			c.createCM("a")
			s.Faults().CorruptNextEvent()
			_, dec := c.watch("resourceVersion=1", accept)
			if _, _, err := nextEvent(t, dec); !errors.Is(err, codec.ErrMalformed) {
				t.Errorf("corrupt event: error %v, want ErrMalformed", err)
			}
		})
	}
}

func TestFaultRestart(t *testing.T) {
	s, c := newTestServer(t, Options{})
	c.createCM("a")
	_, dec := c.watch("resourceVersion=1", "")
	if _, name, err := nextEvent(t, dec); err != nil || name != "a" {
		t.Fatalf("first event %q, %v", name, err)
	}
	s.Restart()
	if _, _, err := nextEvent(t, dec); err == nil {
		t.Error("the watch survived a restart")
	}
	c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/configmaps/a", "") // the data survived
}

// After a restart, a watch from before it gets the 410 a restarted
// kube-apiserver's watch cache sends (seen on v1.36.3 through envtest's
// RestartAPIServer); one from the current version is served, and lists
// at older versions still are (etcd keeps them).
func TestFaultRestartForgetsWatchHistory(t *testing.T) {
	s, c := newTestServer(t, Options{})
	c.createCM("a")
	old := s.CurrentResourceVersion()
	c.createCM("b")
	now := s.CurrentResourceVersion()
	s.Restart()
	for _, accept := range []string{codec.MediaTypeJSON, codec.MediaTypeProtobuf} {
		_, dec := c.watch("resourceVersion="+old, accept)
		_, err := dec.Next()
		var se *codec.StatusError
		if !errors.As(err, &se) || !errors.Is(err, codec.ErrExpired) || se.Status.Message != "too old resource version: "+old+" ("+now+")" {
			t.Errorf("%s: watch from before the restart: %v", accept, err)
		}
	}
	_, dec := c.watch("resourceVersion="+now, "")
	c.createCM("c")
	if _, name, err := nextEvent(t, dec); err != nil || name != "c" {
		t.Errorf("watch from the current version: event %q, %v; want c", name, err)
	}
	c.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/configmaps?resourceVersionMatch=Exact&resourceVersion="+old, "")
}

func TestFaultCompact(t *testing.T) {
	s, c := newTestServer(t, Options{})
	c.createCM("a")
	old := s.CurrentResourceVersion()
	c.createCM("b")
	s.Compact()
	for _, accept := range []string{codec.MediaTypeJSON, codec.MediaTypeProtobuf} {
		_, dec := c.watch("resourceVersion="+old, accept)
		_, err := dec.Next()
		var se *codec.StatusError
		if !errors.As(err, &se) || !errors.Is(err, codec.ErrExpired) || se.Status.Message != watch.WatchGoneMessage {
			t.Errorf("%s: watch from a compacted version: %v", accept, err)
		}
	}
	resp, _ := c.do("GET", "/api/v1/namespaces/default/configmaps?resourceVersionMatch=Exact&resourceVersion="+old, "", "")
	if resp.StatusCode != http.StatusGone {
		t.Errorf("Exact list of a compacted version: status %d, want 410", resp.StatusCode)
	}
}

func TestFaultsClear(t *testing.T) {
	s, c := newTestServer(t, Options{})
	f := s.Faults()
	f.FailNext(5, 500, 0)
	f.RefuseProtobuf(true)
	f.SetWatchList(WatchListRefused)
	f.Clear()
	resp, _ := c.do("GET", "/api/v1/namespaces/default/configmaps", codec.MediaTypeProtobuf, "")
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d after Clear", resp.StatusCode)
	}
}
