package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// cancelingTransport answers every request, canceling the request's
// context just before it returns, so the retry check sees an ended
// context after a response arrived.
type cancelingTransport struct {
	cancel context.CancelFunc
	closed atomic.Bool
}

type closeRecorder struct {
	io.Reader
	closed *atomic.Bool
}

func (c closeRecorder) Close() error { c.closed.Store(true); return nil }

func (tr *cancelingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tr.cancel()
	return &http.Response{
		StatusCode: http.StatusInternalServerError,
		Header:     http.Header{"Content-Type": {"application/json"}},
		Body:       closeRecorder{Reader: strings.NewReader(`{"kind":"Status","code":500}`), closed: &tr.closed},
		Request:    req,
	}, nil
}

// TestResponseClosedWhenContextEndsAfterAnswer checks that an answer
// that arrives as the context ends is closed, not dropped open.
func TestResponseClosedWhenContextEndsAfterAnswer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tr := &cancelingTransport{cancel: cancel}
	c, err := New(Config{Host: "http://fake", Transport: tr, QPS: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = For[*corev1.ConfigMap](c).Namespace("default").Get(ctx, "x", GetOptions{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Get = %v, want context.Canceled", err)
	}
	if !tr.closed.Load() {
		t.Error("the response body was not closed")
	}
}
