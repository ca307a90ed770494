package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
)

// The CBOR paths follow no redirect either: a Get offering CBOR, a
// ListStream, a Watch and a CBOR write, redirected to another origin,
// end with ErrRedirected after one request (no JSON retry), and the other
// origin receives nothing, so no credential.
func TestCBORPathsFollowNoRedirect(t *testing.T) {
	elsewhere := &hitCounter{}
	other := httptest.NewServer(elsewhere)
	defer other.Close()
	objCBOR := load(t, "cbor/widget-rich.cbor")
	var redirect atomic.Bool
	var originHits atomic.Int32
	c, _ := newServerConfig(t, Config{QPS: -1, BearerToken: "bearer-token-123456"}, func(w http.ResponseWriter, r *http.Request) {
		if !redirect.Load() {
			serve(w, objCBOR)
			return
		}
		originHits.Add(1)
		w.Header().Set("Location", other.URL+r.URL.Path)
		w.WriteHeader(http.StatusTemporaryRedirect)
	})
	ctx := context.Background()
	res := Dynamic(c, widgets).Namespace("default")
	obj, err := res.Get(ctx, "rich", GetOptions{}) // learns CBOR: the write below is CBOR
	if err != nil {
		t.Fatal(err)
	}
	redirect.Store(true)
	for name, call := range map[string]func() error{
		"get": func() error { _, err := res.Get(ctx, "rich", GetOptions{}); return err },
		"list stream": func() error {
			_, err := res.ListStream(ctx, ListOptions{}, func(*unstructured.Unstructured) error { return nil })
			return err
		},
		"watch": func() error {
			w, err := res.Watch(ctx, WatchOptions{})
			if err == nil {
				w.Close()
			}
			return err
		},
		"cbor update": func() error { _, err := res.Update(ctx, obj, UpdateOptions{}); return err },
	} {
		before := originHits.Load()
		if err := call(); !errors.Is(err, ErrRedirected) {
			t.Errorf("%s: %v, want ErrRedirected", name, err)
		}
		if n := originHits.Load() - before; n != 1 {
			t.Errorf("%s: %d requests to the origin, want 1", name, n)
		}
	}
	if hits, auths := elsewhere.seen(); hits != 0 {
		t.Errorf("the other origin got %d requests (Authorization %q)", hits, auths)
	}
}
