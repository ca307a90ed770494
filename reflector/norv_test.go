package reflector_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// noVersionSource answers lists without their resourceVersion and
// records the resourceVersions watches ask for.
type noVersionSource struct {
	*client.Resource[*corev1.ConfigMap]
	stream bool // opt in to streamed lists

	mu      sync.Mutex
	lists   int
	watches []string
}

func (s *noVersionSource) StreamsLists() bool { return s.stream }

func (s *noVersionSource) List(ctx context.Context, opts client.ListOptions) (*client.List[*corev1.ConfigMap], error) {
	l, err := s.Resource.List(ctx, opts)
	if err == nil && l.Continue == "" {
		l.ResourceVersion = ""
		s.counted()
	}
	return l, err
}

func (s *noVersionSource) ListStream(ctx context.Context, opts client.ListOptions, each func(*corev1.ConfigMap) error) (metav1.ListMeta, error) {
	m, err := s.Resource.ListStream(ctx, opts, each)
	m.ResourceVersion = ""
	s.counted()
	return m, err
}

func (s *noVersionSource) counted() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists++
}

func (s *noVersionSource) Watch(ctx context.Context, opts client.WatchOptions) (*client.Watcher[*corev1.ConfigMap], error) {
	s.mu.Lock()
	s.watches = append(s.watches, opts.ResourceVersion)
	s.mu.Unlock()
	return s.Resource.Watch(ctx, opts)
}

func (s *noVersionSource) seen() (int, []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists, append([]string(nil), s.watches...)
}

// A list whose answer names no resourceVersion is refused as malformed
// and listed again after a backoff, never followed by a watch from ""
// (which starts at the current state: what was deleted since the list
// stays cached). Before, the reflector synced on it and watched from "".
func TestListWithoutResourceVersionIsRefused(t *testing.T) {
	for _, stream := range []bool{false, true} {
		name := "paged"
		if stream {
			name = "streamed"
		}
		t.Run(name, func(t *testing.T) {
			_, res := netServer(t, 3)
			src := &noVersionSource{Resource: res, stream: stream}
			store := newMapStore[*corev1.ConfigMap]()
			r := newReflector(t, reflector.Source[*corev1.ConfigMap](src), store, reflector.Options{DisableWatchList: true})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- r.Run(ctx) }()
			deadline := time.Now().Add(30 * time.Second)
			for {
				if lists, _ := src.seen(); lists >= 2 || time.Now().After(deadline) {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			wctx, wcancel := context.WithTimeout(ctx, 10*time.Millisecond)
			werr := r.WaitForSync(wctx) // ends with the failure that kept it from syncing
			wcancel()
			cancel()
			<-done
			lists, watches := src.seen()
			if lists < 2 || len(watches) != 0 {
				t.Fatalf("%d lists, watches from %q; want the list refused and repeated, no watch", lists, watches)
			}
			if !errors.Is(werr, client.ErrMalformed) {
				t.Errorf("WaitForSync: %v, want the list's ErrMalformed", werr)
			}
		})
	}
}

// A streaming list whose end bookmark names no resourceVersion is
// refused the same way: the reflector streams again after the backoff
// and never watches from "". Before, it synced at "" and followed on.
func TestWatchListEndBookmarkWithoutResourceVersion(t *testing.T) {
	var mu sync.Mutex
	var watchLists, plainWatches int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("watch") != "true" && q.Get("watch") != "1" {
			http.Error(w, "lists are not expected", http.StatusTeapot)
			return
		}
		mu.Lock()
		if q.Get("sendInitialEvents") == "true" {
			watchLists++
		} else {
			plainWatches++
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"type":"ADDED","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default","resourceVersion":"5"}}}`+"\n")
		io.WriteString(w, `{"type":"BOOKMARK","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"annotations":{"k8s.io/initial-events-end":"true"}}}}`+"\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	c, err := client.New(client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	res := client.For[*corev1.ConfigMap](c).Namespace("default")
	r := newReflector(t, reflector.Source[*corev1.ConfigMap](res), newMapStore[*corev1.ConfigMap](), reflector.Options{WatchList: true})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	seen := func() (int, int) {
		mu.Lock()
		defer mu.Unlock()
		return watchLists, plainWatches
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if n, _ := seen(); n >= 2 {
			break
		}
	}
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Millisecond)
	werr := r.WaitForSync(wctx)
	wcancel()
	cancel()
	<-done
	lists, watches := seen()
	if lists < 2 || watches != 0 {
		t.Fatalf("%d streaming lists, %d plain watches; want the end bookmark refused and the list streamed again, no plain watch", lists, watches)
	}
	if !errors.Is(werr, client.ErrMalformed) {
		t.Errorf("WaitForSync: %v, want the bookmark's ErrMalformed", werr)
	}
}
