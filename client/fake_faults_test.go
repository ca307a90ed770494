package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake"
)

// inBubbleFake serves a new fake API server over HTTP on in-memory pipes
// (see newPipeServer), for use inside a synctest bubble: the fake's
// Retry-After waits then take no real time. It returns the fake, a
// Client with cfg and a record of the requests; everything is shut down
// when the bubble's test function returns.
func inBubbleFake(t *testing.T, cfg Config) (*fake.Server, *Client, *recorder) {
	t.Helper()
	return inBubbleFakeOpts(t, fake.Options{}, cfg)
}

// inBubbleFakeOpts is inBubbleFake with the fake's options.
func inBubbleFakeOpts(t *testing.T, opts fake.Options, cfg Config) (*fake.Server, *Client, *recorder) {
	t.Helper()
	srv := fake.New(opts)
	cfg.BearerToken = srv.Token()
	if cfg.QPS == 0 {
		cfg.QPS = -1
	}
	c, rec, stop := newPipeServer(t, cfg, srv.ServeHTTP)
	t.Cleanup(func() { srv.Close(); stop() })
	addCM(srv, "a")
	return srv, c, rec
}

// TestFakeFaultsAsTheClientSeesThem injects the fake's request faults and
// checks retries, waits (fake time) and the final error: 429 with
// Retry-After is retried for every verb, 5xx on a GET is retried and on
// a POST is not, "too large resource version" is retried after its
// Retry-After and reported with its sentinel when it persists.
func TestFakeFaultsAsTheClientSeesThem(t *testing.T) {
	get := func(c *Client) error {
		_, err := For[*corev1.ConfigMap](c).Namespace("default").Get(context.Background(), "a", GetOptions{})
		return err
	}
	getAtRV := func(c *Client) error {
		_, err := For[*corev1.ConfigMap](c).Namespace("default").Get(context.Background(), "a", GetOptions{ResourceVersion: "1"})
		return err
	}
	create := func(c *Client) error {
		_, err := For[*corev1.ConfigMap](c).Create(context.Background(),
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "default"}}, CreateOptions{})
		return err
	}
	tests := []struct {
		name      string
		fault     func(*fake.Faults)
		call      func(*Client) error
		policy    RetryPolicy
		wantErr   error // nil: success
		wantTries int
		wantWait  time.Duration // exact fake time, or 0 to skip
	}{
		{"429 GET", func(f *fake.Faults) { f.FailNext(2, http.StatusTooManyRequests, 2*time.Second) }, get, RetryPolicy{}, nil, 3, 4 * time.Second},
		{"429 POST", func(f *fake.Faults) { f.FailNext(1, http.StatusTooManyRequests, 3*time.Second) }, create, RetryPolicy{}, nil, 2, 3 * time.Second},
		{"503 with Retry-After GET", func(f *fake.Faults) { f.FailNext(1, http.StatusServiceUnavailable, time.Second) }, get, RetryPolicy{}, nil, 2, time.Second},
		{"500 GET", func(f *fake.Faults) { f.FailNext(2, http.StatusInternalServerError, 0) }, get, RetryPolicy{}, nil, 3, 0},
		{"500 POST", func(f *fake.Faults) { f.FailNext(1, http.StatusInternalServerError, 0) }, create, RetryPolicy{}, ErrInternal, 1, 0},
		{"503 POST", func(f *fake.Faults) { f.FailNext(1, http.StatusServiceUnavailable, time.Second) }, create, RetryPolicy{}, ErrServiceUnavailable, 1, 0},
		{"too large resourceVersion", func(f *fake.Faults) { f.TooLargeResourceVersionNext(1) }, getAtRV, RetryPolicy{}, nil, 2, time.Second},
		{"too large resourceVersion persists", func(f *fake.Faults) { f.TooLargeResourceVersionNext(100) }, getAtRV, RetryPolicy{MaxAttempts: 3}, ErrTooLargeResourceVersion, 3, 2 * time.Second},
		{"429 persists", func(f *fake.Faults) { f.FailNext(100, http.StatusTooManyRequests, time.Second) }, get, RetryPolicy{MaxElapsed: 5 * time.Second}, ErrTooManyRequests, 6, 5 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				srv, c, rec := inBubbleFake(t, Config{Retry: tc.policy})
				tc.fault(srv.Faults())
				n0 := rec.count()
				start := time.Now()
				err := tc.call(c)
				took := time.Since(start)
				if tc.wantErr == nil && err != nil || !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				if tries := rec.count() - n0; tries != tc.wantTries {
					t.Errorf("%d tries, want %d", tries, tc.wantTries)
				}
				if tc.wantErr != nil && tc.wantTries > 1 && !strings.Contains(err.Error(), "gave up after") {
					t.Errorf("error %q does not say how often it tried", err)
				}
				if tc.wantWait > 0 && took != tc.wantWait {
					t.Errorf("took %s, want %s", took, tc.wantWait)
				}
				if _, ok := StatusOf(err); err != nil && !ok {
					t.Errorf("no *StatusError in %v", err)
				}
			})
		})
	}
}

// TestFakeLatencyAndTimeout checks Config.Timeout against the fake's
// injected latency, in fake time.
func TestFakeLatencyAndTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, c, _ := inBubbleFake(t, Config{Timeout: 2 * time.Second})
		srv.Faults().SetLatency(5 * time.Second)
		start := time.Now()
		_, err := For[*corev1.ConfigMap](c).Namespace("default").Get(context.Background(), "a", GetOptions{})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want context.DeadlineExceeded", err)
		}
		if took := time.Since(start); took != 2*time.Second {
			t.Errorf("gave up after %s, want 2s", took)
		}
		srv.Faults().SetLatency(time.Second)
		if _, err := For[*corev1.ConfigMap](c).Namespace("default").Get(context.Background(), "a", GetOptions{}); err != nil {
			t.Errorf("with 1s latency: %v", err)
		}
	})
}
