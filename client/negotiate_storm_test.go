package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kubewire/kubewire/api/unstructured"
)

// stormServer answers the first read with a CBOR Widget, and then, once
// storm is set, 406 to every read and 415 to every write whatever their
// media types (a proxy gone wrong), noting what each request offered.
type stormServer struct {
	storm  atomic.Bool
	mu     sync.Mutex
	offers []string // the Accept of a read, the Content-Type of a write
}

func (s *stormServer) start(t *testing.T) *Client {
	objCBOR := load(t, "cbor/widget-rich.cbor")
	c, _ := newServerConfig(t, Config{QPS: -1}, func(w http.ResponseWriter, r *http.Request) {
		if !s.storm.Load() {
			serve(w, objCBOR)
			return
		}
		read := r.Method == "GET"
		s.mu.Lock()
		if read {
			s.offers = append(s.offers, r.Header.Get("Accept"))
		} else {
			s.offers = append(s.offers, r.Header.Get("Content-Type"))
		}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if read {
			w.WriteHeader(http.StatusNotAcceptable)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotAcceptable","code":406}`))
			return
		}
		w.WriteHeader(http.StatusUnsupportedMediaType)
		w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"UnsupportedMediaType","code":415}`))
	})
	return c
}

// taken runs call and returns what the requests it made offered.
func (s *stormServer) taken(call func() error) (sent []string, err error) {
	s.mu.Lock()
	before := len(s.offers)
	s.mu.Unlock()
	err = call()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offers[before:], err
}

// A server that answers 406 to every read and 415 to every write, under
// a client that learned CBOR: on each path (Get, List, ListStream,
// Watch, Update), the first call costs two requests (CBOR, then JSON)
// and ends with the server's answer; the next calls to the resource,
// whatever the path, one JSON request each within the refusal hold, 16
// concurrent ones included. The retry policy adds none.
func TestNegotiationStorm(t *testing.T) {
	ctx := context.Background()
	paths := map[string]struct {
		call func(*Resource[*unstructured.Unstructured], *unstructured.Unstructured) error
		is   error
	}{
		"get": {func(r *Resource[*unstructured.Unstructured], _ *unstructured.Unstructured) error {
			_, err := r.Get(ctx, "rich", GetOptions{})
			return err
		}, ErrNotAcceptable},
		"list": {func(r *Resource[*unstructured.Unstructured], _ *unstructured.Unstructured) error {
			_, err := r.List(ctx, ListOptions{})
			return err
		}, ErrNotAcceptable},
		"list stream": {func(r *Resource[*unstructured.Unstructured], _ *unstructured.Unstructured) error {
			_, err := r.ListStream(ctx, ListOptions{}, func(*unstructured.Unstructured) error { return nil })
			return err
		}, ErrNotAcceptable},
		"watch": {func(r *Resource[*unstructured.Unstructured], _ *unstructured.Unstructured) error {
			w, err := r.Watch(ctx, WatchOptions{})
			if err == nil {
				w.Close()
			}
			return err
		}, ErrNotAcceptable},
		"update": {func(r *Resource[*unstructured.Unstructured], u *unstructured.Unstructured) error {
			_, err := r.Update(ctx, u, UpdateOptions{})
			return err
		}, ErrUnsupportedMediaType},
	}
	for name, path := range paths {
		t.Run(name, func(t *testing.T) {
			var s stormServer
			res := Dynamic(s.start(t), widgets).Namespace("default")
			obj, err := res.Get(ctx, "rich", GetOptions{}) // learns CBOR: writes are CBOR from now on
			if err != nil {
				t.Fatal(err)
			}
			s.storm.Store(true)
			sent, err := s.taken(func() error { return path.call(res, obj) })
			if len(sent) != 2 || !strings.Contains(sent[0], "cbor") || strings.Contains(sent[1], "cbor") || !errors.Is(err, path.is) {
				t.Errorf("first call: requests offering %q, then %v; want CBOR, then JSON, then %v", sent, err, path.is)
			}
			// The refusal holds for the resource, on every path.
			for other, p := range paths {
				if (p.is == ErrUnsupportedMediaType) != (path.is == ErrUnsupportedMediaType) {
					continue // a 406 says nothing of bodies, a 415 nothing of answers
				}
				sent, err := s.taken(func() error { return p.call(res, obj) })
				if len(sent) != 1 || strings.Contains(sent[0], "cbor") || !errors.Is(err, p.is) {
					t.Errorf("%s after: requests offering %q, then %v; want one JSON request", other, sent, err)
				}
			}
			var wg sync.WaitGroup
			sent, _ = s.taken(func() error {
				for range 16 {
					wg.Go(func() { _ = path.call(res, obj) })
				}
				wg.Wait()
				return nil
			})
			if len(sent) != 16 {
				t.Errorf("16 concurrent calls: %d requests", len(sent))
			}
		})
	}
}
