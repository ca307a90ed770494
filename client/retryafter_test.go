package client

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// Server-requested waits saturate instead of wrapping: a Retry-After too
// large for a time.Duration, or a date far in the future, is the longest
// wait, never a negative one (which meant retrying in a tight loop), and
// Retry-After: 0 gets the backoff floor, not no pause at all.
func TestRetryAfterSaturates(t *testing.T) {
	p := RetryPolicy{}.withDefaults()
	tests := []struct {
		header   string
		wantWait time.Duration
		wantSecs int32 // details.retryAfterSeconds of the error (0: not set)
	}{
		{"9223372037", p.MaxWait, maxRetryAfterSeconds},
		{"99999999999999999999999", p.MaxWait, maxRetryAfterSeconds},
		{"Fri, 31 Dec 9999 23:59:59 GMT", p.MaxWait, maxRetryAfterSeconds},
		{"3", 3 * time.Second, 3},
		{"0", p.MinWait, 0},
		{"-5", p.MinWait, 0},
		{"soon", p.MinWait, 0},
	}
	for _, tc := range tests {
		t.Run(tc.header, func(t *testing.T) {
			resp := &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {tc.header}}}
			if got := p.wait(0, 0, resp); got != tc.wantWait {
				t.Errorf("wait = %s, want %s", got, tc.wantWait)
			}
			se := statusError(resp, nil)
			got := int32(0)
			if se.Status.Details != nil {
				got = se.Status.Details.RetryAfterSeconds
			}
			if got != tc.wantSecs {
				t.Errorf("retryAfterSeconds = %d, want %d", got, tc.wantSecs)
			}
			if d, ok := se.RetryAfter(); ok && d <= 0 {
				t.Errorf("RetryAfter() = %s", d)
			}
		})
	}
}

// Over HTTP: a 429 asking for 292 years is not retried at once; the wait
// it asks for (capped at MaxWait) does not fit in MaxElapsed, so the
// client gives up after one try and returns the 429.
func TestHugeRetryAfterIsNotATightLoop(t *testing.T) {
	var tries atomic.Int32
	c, _ := newServerConfig(t, Config{QPS: -1, Retry: RetryPolicy{MaxAttempts: 5, MaxElapsed: 2 * time.Second}},
		func(w http.ResponseWriter, r *http.Request) {
			if tries.Add(1) == 1 {
				w.Header().Set("Retry-After", "9223372037")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			serve(w, load(t, "objects/pods-web-1.json"))
		})
	err := getPod(context.Background(), c)
	if !errors.Is(err, ErrTooManyRequests) {
		t.Fatalf("err = %v, want the 429", err)
	}
	if n := tries.Load(); n != 1 {
		t.Errorf("the server got %d tries, want 1", n)
	}
}
