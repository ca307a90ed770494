package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

type countingTransport struct {
	next  http.RoundTripper
	seen  atomic.Int32
	authd atomic.Int32
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	t.seen.Add(1)
	if req.Header.Get("Authorization") == "Bearer t0ken" {
		t.authd.Add(1)
	}
	return t.next.RoundTrip(req)
}

// WrapTransport sees every request, with its credentials, over the
// transport New built from the TLS settings, which it keeps: a program
// that logs requests need not rebuild TLS by hand (as setting Transport
// would make it).
func TestWrapTransportKeepsTLS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"d","resourceVersion":"1"}}`))
	}))
	defer srv.Close()
	var wrapper *countingTransport
	c, err := New(Config{Host: srv.URL, QPS: -1, BearerToken: "t0ken", TLS: TLSConfig{CAData: pemOf(srv)},
		WrapTransport: func(rt http.RoundTripper) http.RoundTripper {
			wrapper = &countingTransport{next: rt}
			return wrapper
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	for range 2 {
		if _, err := For[*corev1.ConfigMap](c).Namespace("d").Get(context.Background(), "a", GetOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if got, authd := wrapper.seen.Load(), wrapper.authd.Load(); got != 2 || authd != 2 {
		t.Errorf("the wrapper saw %d requests, %d with the bearer token; want 2, 2", got, authd)
	}
	_, err = New(Config{Host: srv.URL, WrapTransport: func(http.RoundTripper) http.RoundTripper { return nil }})
	if !errors.Is(err, ErrInvalidOptions) {
		t.Errorf("a wrapper returning nil: %v, want ErrInvalidOptions from New", err)
	}
}
