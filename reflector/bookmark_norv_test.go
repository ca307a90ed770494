package reflector_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// bookmarkStore is a mapStore that records the resourceVersions of the
// bookmarks it is told.
type bookmarkStore struct {
	*mapStore[*corev1.ConfigMap]
	mu        sync.Mutex
	bookmarks []string
}

func (s *bookmarkStore) Bookmark(rv string) {
	s.mu.Lock()
	s.bookmarks = append(s.bookmarks, rv)
	s.mu.Unlock()
	s.mapStore.Bookmark(rv)
}

// A watch bookmark without a resourceVersion is not handed to the store,
// whose resourceVersion it would blank: Bookmark records a newer version,
// and this one names none. Before, the store was told Bookmark("").
func TestBookmarkWithoutResourceVersion(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("watch") == "" {
			io.WriteString(w, `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[{"metadata":{"name":"a","namespace":"default","resourceVersion":"4"}}]}`)
			return
		}
		io.WriteString(w, `{"type":"BOOKMARK","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}}`+"\n")
		io.WriteString(w, `{"type":"BOOKMARK","object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"resourceVersion":"6"}}}`+"\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	c, err := client.New(client.Config{Host: srv.URL, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	store := &bookmarkStore{mapStore: newMapStore[*corev1.ConfigMap]()}
	r := newReflector(t, reflector.Source[*corev1.ConfigMap](client.For[*corev1.ConfigMap](c).Namespace("default")), store, reflector.Options{DisableWatchList: true})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	got := func() []string {
		store.mu.Lock()
		defer store.mu.Unlock()
		return append([]string(nil), store.bookmarks...)
	}
	for deadline := time.Now().Add(30 * time.Second); len(got()) == 0 || got()[len(got())-1] != "6"; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			break
		}
	}
	cancel()
	<-done
	if b := got(); len(b) != 1 || b[0] != "6" {
		t.Fatalf("the store was told bookmarks %q, want only \"6\"", b)
	}
}
