package client

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
)

// failThen answers the first n requests with code (and Retry-After when
// retryAfter is not empty), then with a pod.
func failThen(t *testing.T, n int32, code int, retryAfter string) http.HandlerFunc {
	pod := load(t, "objects/pods-web-1.json")
	var seen atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if seen.Add(1) <= n {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","code":` + itoa(int64(code)) + `}`))
			return
		}
		serve(w, pod)
	}
}

func newPod() *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "fixtures"}}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	tests := []struct {
		name   string
		code   int
		method string
	}{
		{"429 GET", http.StatusTooManyRequests, "GET"},
		{"429 POST", http.StatusTooManyRequests, "POST"},
		{"503 GET", http.StatusServiceUnavailable, "GET"},
		{"504 GET", http.StatusGatewayTimeout, "GET"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, rec, stop := newPipeServer(t, Config{QPS: -1}, failThen(t, 2, tc.code, "3"))
				defer stop()
				start := time.Now()
				pods := For[*corev1.Pod](c).Namespace("fixtures")
				var err error
				if tc.method == "GET" {
					_, err = pods.Get(context.Background(), "web-1", GetOptions{})
				} else {
					_, err = pods.Create(context.Background(), newPod(), CreateOptions{})
				}
				if err != nil {
					t.Fatal(err)
				}
				if got := time.Since(start); got != 6*time.Second {
					t.Errorf("took %s, want 6s (two waits of Retry-After: 3)", got)
				}
				if rec.count() != 3 {
					t.Errorf("%d tries, want 3", rec.count())
				}
			})
		})
	}
}

func TestServerErrorsRetriedOnlyWhenSafe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, rec, stop := newPipeServer(t, Config{QPS: -1}, failThen(t, 1, http.StatusInternalServerError, ""))
		defer stop()
		_, err := For[*corev1.Pod](c).Create(context.Background(), newPod(), CreateOptions{})
		if !errors.Is(err, ErrInternal) {
			t.Fatalf("POST after a 500 = %v, want ErrInternal without retry", err)
		}
		if rec.count() != 1 {
			t.Errorf("POST tried %d times, want 1", rec.count())
		}
	})
	synctest.Test(t, func(t *testing.T) {
		c, rec, stop := newPipeServer(t, Config{QPS: -1}, failThen(t, 2, http.StatusInternalServerError, ""))
		defer stop()
		start := time.Now()
		if _, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{}); err != nil {
			t.Fatal(err)
		}
		// backoff 500ms then 1s, each shortened by up to half by jitter
		if got := time.Since(start); got < 750*time.Millisecond || got > 1500*time.Millisecond {
			t.Errorf("two backoffs took %s, want 0.75s-1.5s", got)
		}
		if rec.count() != 3 {
			t.Errorf("GET tried %d times, want 3", rec.count())
		}
	})
}

func TestRetriesGiveUpAndSaySo(t *testing.T) {
	tests := []struct {
		name      string
		policy    RetryPolicy
		wantTries int
	}{
		{"max attempts", RetryPolicy{MaxAttempts: 4}, 4},
		{"max elapsed", RetryPolicy{MaxElapsed: 10 * time.Second}, 4}, // waits 3+3+3, a 4th wait would pass 10s
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, rec, stop := newPipeServer(t, Config{QPS: -1, Retry: tc.policy}, failThen(t, 100, http.StatusTooManyRequests, "3"))
				defer stop()
				_, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{})
				if !errors.Is(err, ErrTooManyRequests) {
					t.Fatalf("err = %v, want ErrTooManyRequests", err)
				}
				if rec.count() != tc.wantTries {
					t.Errorf("tried %d times, want %d", rec.count(), tc.wantTries)
				}
				if want := "gave up after " + itoa(int64(tc.wantTries)) + " tries"; !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			})
		})
	}
}

func TestConnectionErrorsRetriedForGet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pn := newPipeNet()
		pn.Close() // every dial fails
		c, err := New(Config{Host: "http://kube.test", QPS: -1, Transport: &http.Transport{DialContext: pn.DialContext},
			Retry: RetryPolicy{MaxAttempts: 3}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = For[*corev1.Pod](c).Namespace("n").Get(context.Background(), "a", GetOptions{})
		if err == nil || !strings.Contains(err.Error(), "gave up after 3 tries") {
			t.Errorf("err = %v, want it to say 3 tries", err)
		}
	})
}

func TestWatchIsNotRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, rec, stop := newPipeServer(t, Config{QPS: -1}, failThen(t, 5, http.StatusTooManyRequests, "1"))
		defer stop()
		_, err := For[*corev1.Pod](c).Watch(context.Background(), WatchOptions{})
		if !errors.Is(err, ErrTooManyRequests) {
			t.Fatalf("err = %v", err)
		}
		if se, _ := StatusOf(err); se == nil {
			t.Errorf("no StatusError in %v", err)
		}
		if rec.count() != 1 {
			t.Errorf("watch tried %d times, want 1", rec.count())
		}
	})
}

func TestRateLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pod := load(t, "objects/pods-web-1.json")
		c, _, stop := newPipeServer(t, Config{QPS: 2, Burst: 1}, func(w http.ResponseWriter, r *http.Request) { serve(w, pod) })
		defer stop()
		start := time.Now()
		for range 5 {
			if _, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		if got := time.Since(start); got != 2*time.Second {
			t.Errorf("5 requests at 2 QPS, burst 1, took %s, want 2s", got)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := For[*corev1.Pod](c).Namespace("fixtures").Get(ctx, "web-1", GetOptions{})
		if err == nil {
			t.Errorf("a request that cannot get a token before its deadline succeeded")
		}
	})
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func TestGzip(t *testing.T) {
	pod := load(t, "objects/pods-web-1.json")
	handler := func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept-Encoding") != "gzip" {
			t.Errorf("Accept-Encoding = %q", r.Header.Get("Accept-Encoding"))
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzipped(pod.Body))
	}
	t.Run("decompressed", func(t *testing.T) {
		c, _ := newServerConfig(t, Config{QPS: -1}, handler)
		p, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{})
		if err != nil || p.Name != "web-1" {
			t.Fatalf("Get = %v, %v", p, err)
		}
	})
	t.Run("bounded", func(t *testing.T) {
		c, rec := newServerConfig(t, Config{QPS: -1, MaxResponseBytes: 100}, handler)
		_, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{})
		if !errors.Is(err, codec.ErrTooLarge) {
			t.Fatalf("err = %v, want codec.ErrTooLarge", err)
		}
		// The same request would be answered as large again.
		if n := rec.count(); n != 1 {
			t.Errorf("%d requests, want 1 (no retry)", n)
		}
	})
	t.Run("exactly at the bound", func(t *testing.T) {
		c, _ := newServerConfig(t, Config{QPS: -1, MaxResponseBytes: int64(len(pod.Body))}, handler)
		if _, err := For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

func TestUserAgent(t *testing.T) {
	pod := load(t, "objects/pods-web-1.json")
	c, rec := newServerConfig(t, Config{QPS: -1, UserAgent: "my-controller/1.0"}, func(w http.ResponseWriter, r *http.Request) { serve(w, pod) })
	For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{})
	req, _ := rec.last(t)
	if got := req.Header.Get("User-Agent"); got != "my-controller/1.0" {
		t.Errorf("User-Agent = %q", got)
	}
}

func TestParseWarnings(t *testing.T) {
	tests := []struct {
		in   []string
		want []Warning
	}{
		{[]string{`299 - "unknown field \"bogus\""`}, []Warning{{299, "-", `unknown field "bogus"`}}},
		{[]string{`299 - "a, b", 299 - "c"`}, []Warning{{299, "-", "a, b"}, {299, "-", "c"}}},
		{[]string{`299 - "dated" "Sat, 01 Jan 2000 00:00:00 GMT", 299 - "next"`}, []Warning{{299, "-", "dated"}, {299, "-", "next"}}},
		{[]string{`garbage`, `299 - "ok"`}, []Warning{{299, "-", "ok"}}},
		{[]string{`299 - "unterminated`}, nil},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.in, "|"), func(t *testing.T) {
			got, _ := parseWarnings(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefaultWarningsLoggedOnce(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	c, _ := newServerConfig(t, Config{QPS: -1, Logger: logger}, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Warning", `299 - "deprecated"`)
		w.Header().Set("Content-Type", "application/json")
		w.Write(load(t, "objects/pods-web-1.json").Body)
	})
	for range 3 {
		For[*corev1.Pod](c).Namespace("fixtures").Get(context.Background(), "web-1", GetOptions{})
	}
	if n := strings.Count(logs.String(), "deprecated"); n != 1 {
		t.Errorf("warning logged %d times, want once:\n%s", n, logs.String())
	}
}

// A proxy that refuses the tunnel (407: no or wrong credentials in the
// proxy URL) gets one CONNECT, not a retry per RetryPolicy: each would
// get the same answer. Before, a list took 10 tries and 47 s to fail.
func TestProxyRefusalNotRetried(t *testing.T) {
	for _, code := range []int{http.StatusProxyAuthRequired, http.StatusForbidden} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			var connects atomic.Int32
			proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodConnect {
					connects.Add(1)
				}
				w.WriteHeader(code)
			}))
			defer proxy.Close()
			c, err := New(Config{Host: "https://kube.test", ProxyURL: proxy.URL, Retry: RetryPolicy{MinWait: time.Millisecond, MaxWait: time.Millisecond}})
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			err = get(c)
			if err == nil || !strings.Contains(err.Error(), http.StatusText(code)) {
				t.Errorf("err = %v, want the proxy's %q", err, http.StatusText(code))
			}
			if n := connects.Load(); n != 1 {
				t.Errorf("%d CONNECTs, want 1", n)
			}
		})
	}
}
