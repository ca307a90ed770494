package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake"
)

// watchTimeout bounds every wait for a watch event from the fake in
// these real-time tests; a healthy run never comes near it.
const watchTimeout = 10 * time.Second

// nextEvents reads n events from w, failing the test on an error.
func nextEvents[T Object](t *testing.T, w *Watcher[T], n int) []string {
	t.Helper()
	var got []string
	for range n {
		ev, err := w.Next()
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		line := fmt.Sprintf("%s %s", ev.Type, ev.Object.GetName())
		if ev.InitialEventsEnd {
			line += " end"
		}
		if ev.ResourceVersion == "" {
			t.Errorf("%s event without a resourceVersion", ev.Type)
		}
		got = append(got, line)
	}
	return got
}

// watchCtx is a context ending the watch if the test hangs.
func watchCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), watchTimeout)
	t.Cleanup(cancel)
	return ctx
}

// TestFakeWatch watches in protobuf and JSON from a list's
// resourceVersion, sees a create, an update and a delete, and then a
// streaming list (sendInitialEvents) ended by the initial-events-end
// bookmark.
func TestFakeWatch(t *testing.T) {
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			checkNoLeaks(t)
			srv, c, rec := startFakeWire(t, wireOptions{})
			srv.Faults().RefuseProtobuf(f.noProto)
			seedConfigMaps(t, srv, 3)
			ctx := watchCtx(t)
			cms := For[*corev1.ConfigMap](c).Namespace("default")
			l, err := cms.List(ctx, ListOptions{})
			if err != nil {
				t.Fatal(err)
			}
			w, err := cms.Watch(ctx, WatchOptions{ResourceVersion: l.ResourceVersion, LabelSelector: LabelSelector{}.Equals("tier", "front")})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			// as kube-apiserver: a stream parameter for protobuf only
			wantType := map[bool]string{false: "application/vnd.kubernetes.protobuf;stream=watch", true: "application/json"}[f.noProto]
			if ct := rec.lastResponseType(); ct != wantType {
				t.Errorf("watch Content-Type %q, want %q", ct, wantType)
			}
			created, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "new", Labels: map[string]string{"tier": "front"}}}, CreateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			created.Data = map[string]string{"x": "y"}
			if _, err := cms.Update(ctx, created, UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "other", Labels: map[string]string{"tier": "back"}}}, CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := cms.Delete(ctx, "new", DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
			want := []string{"ADDED new", "MODIFIED new", "DELETED new"}
			if diff := cmp.Diff(want, nextEvents(t, w, 3)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}

			w2, err := cms.Watch(ctx, streamingList)
			if err != nil {
				t.Fatal(err)
			}
			defer w2.Close()
			want = []string{"ADDED cm-0", "ADDED cm-1", "ADDED cm-2", "ADDED other", "BOOKMARK  end"}
			if diff := cmp.Diff(want, nextEvents(t, w2, 5)); diff != "" {
				t.Errorf("streaming list (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFakeWatchFaults checks how the fake's watch faults reach a client:
// a dropped watch ends with io.EOF, a corrupt event with ErrMalformed, a
// compacted resourceVersion with ErrExpired, a connection cut midway
// with an error that is not io.EOF.
func TestFakeWatchFaults(t *testing.T) {
	tests := []struct {
		name    string
		fault   func(*fake.Server)
		fromOld bool // watch from a compacted resourceVersion
		wantErr error
	}{
		{"dropped", func(s *fake.Server) { s.Faults().DropWatches() }, false, io.EOF},
		{"restart", func(s *fake.Server) { s.Restart() }, false, nil},
		{"corrupt event", func(s *fake.Server) { s.Faults().CorruptNextEvent(); addCM(s, "x") }, false, ErrMalformed},
		{"cut midway", func(s *fake.Server) { s.Faults().CloseNextEventMidway(); addCM(s, "x") }, false, nil},
		{"compacted", nil, true, ErrExpired},
	}
	for _, tc := range tests {
		for _, f := range formats {
			t.Run(tc.name+"/"+f.name, func(t *testing.T) {
				checkNoLeaks(t)
				srv, c := startFake(t, fake.Options{}, Config{})
				srv.Faults().RefuseProtobuf(f.noProto)
				addCM(srv, "a")
				old := srv.CurrentResourceVersion()
				addCM(srv, "b")
				ctx := watchCtx(t)
				cms := For[*corev1.ConfigMap](c).Namespace("default")
				opts := WatchOptions{ResourceVersion: srv.CurrentResourceVersion()}
				if tc.fromOld {
					srv.Compact()
					opts.ResourceVersion = old
				}
				w, err := cms.Watch(ctx, opts)
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				if tc.fault != nil {
					tc.fault(srv)
				}
				_, err = w.Next()
				switch {
				case err == nil:
					t.Fatal("Next returned an event, want the watch to end")
				case tc.wantErr != nil && !errors.Is(err, tc.wantErr):
					t.Fatalf("Next = %v, want %v", err, tc.wantErr)
				case tc.wantErr == nil && (errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrWatchClosed)):
					t.Fatalf("Next = %v, want the connection's end", err)
				}
				if _, again := w.Next(); again == nil || again.Error() != err.Error() {
					t.Errorf("second Next = %v, want %v again", again, err)
				}
			})
		}
	}
}

// TestFakeWatchListFaults checks the watch-list faults: refused answers
// 400 (the client falls back to list-then-watch), and without the end
// bookmark a client's IdleTimeout ends the wait.
func TestFakeWatchListFaults(t *testing.T) {
	checkNoLeaks(t)
	srv, c := startFake(t, fake.Options{}, Config{})
	addCM(srv, "a")
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	ctx := watchCtx(t)

	srv.Faults().SetWatchList(fake.WatchListRefused)
	if _, err := cms.Watch(ctx, streamingList); !errors.Is(err, ErrBadRequest) {
		t.Errorf("refused watch-list = %v, want ErrBadRequest", err)
	}

	srv.Faults().SetWatchList(fake.WatchListNoEndBookmark)
	opts := streamingList
	opts.IdleTimeout = 100 * time.Millisecond
	w, err := cms.Watch(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if diff := cmp.Diff([]string{"ADDED a"}, nextEvents(t, w, 1)); diff != "" {
		t.Errorf("initial events (-want +got):\n%s", diff)
	}
	if _, err := w.Next(); !errors.Is(err, ErrWatchIdle) {
		t.Errorf("without the end bookmark: Next = %v, want ErrWatchIdle", err)
	}
}

// TestFakeWatchEndsWithContext checks that ending ctx ends a watch on the
// fake and that no goroutine of the client is left (checkNoLeaks; the
// fake's are awaited by its Close).
func TestFakeWatchEndsWithContext(t *testing.T) {
	checkNoLeaks(t)
	srv, c := startFake(t, fake.Options{}, Config{})
	addCM(srv, "a")
	ctx, cancel := context.WithCancel(context.Background())
	w, err := For[*corev1.ConfigMap](c).Namespace("default").Watch(ctx, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"ADDED a"}, nextEvents(t, w, 1)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	cancel()
	if _, err := w.Next(); !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: Next = %v, want context.Canceled", err)
	}
}

// addCM adds ConfigMap name to namespace default of s.
func addCM(s *fake.Server, name string) {
	if err := s.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}); err != nil {
		panic(err) // only a bad name gets here
	}
}

// TestFakeWatchBookmarksAndTimeout watches the fake in fake time: with
// AllowWatchBookmarks a BOOKMARK arrives every BookmarkInterval, and
// TimeoutSeconds makes the server end the watch (io.EOF) on time.
func TestFakeWatchBookmarksAndTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c, _ := inBubbleFakeOpts(t, fake.Options{BookmarkInterval: time.Minute}, Config{})
		start := time.Now()
		w, err := For[*corev1.ConfigMap](c).Namespace("default").Watch(context.Background(),
			WatchOptions{ResourceVersion: srv.CurrentResourceVersion(), AllowWatchBookmarks: true, TimeoutSeconds: 150})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		var got []string
		for {
			ev, err := w.Next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Errorf("watch ended with %v, want io.EOF", err)
				}
				got = append(got, fmt.Sprintf("end at %s", time.Since(start)))
				break
			}
			got = append(got, fmt.Sprintf("%s at %s rv=%v", ev.Type, time.Since(start), ev.ResourceVersion != ""))
		}
		want := []string{"BOOKMARK at 1m0s rv=true", "BOOKMARK at 2m0s rv=true", "end at 2m30s"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
	})
}

// TestFakeOverTLS reads and watches over HTTPS and HTTP/2: through
// fake.Start's own TLS (the client reusing fake.Server.Client's
// transport) and through the client's own transport trusting the
// server's certificate.
func TestFakeOverTLS(t *testing.T) {
	tests := []struct {
		name  string
		start func(t *testing.T) (*fake.Server, *Client)
	}{
		{"fake.Start", func(t *testing.T) (*fake.Server, *Client) { return startFake(t, fake.Options{TLS: true}, Config{}) }},
		{"client transport", func(t *testing.T) (*fake.Server, *Client) {
			srv, c, _ := startFakeWire(t, wireOptions{tls: true})
			return srv, c
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkNoLeaks(t)
			srv, c := tc.start(t)
			if !strings.HasPrefix(c.Host(), "https://") {
				t.Fatalf("host %s is not https", c.Host())
			}
			addCM(srv, "a")
			ctx := watchCtx(t)
			cms := For[*corev1.ConfigMap](c).Namespace("default")
			if _, err := cms.Get(ctx, "a", GetOptions{}); err != nil {
				t.Fatal(err)
			}
			w, err := cms.Watch(ctx, WatchOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if diff := cmp.Diff([]string{"ADDED a"}, nextEvents(t, w, 1)); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}
