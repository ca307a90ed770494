package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake"
)

// These tests run the fake in memory in a synctest bubble: the clock is
// virtual, so backoffs of minutes take none, and the bubble fails if a
// goroutine is left behind.

// startBubbleFake starts a fake and a client of it, without the client's
// own retries, whose requests pass through answer.
func startBubbleFake(t *testing.T, answer func(req *http.Request, send func() (*http.Response, error)) (*http.Response, error)) (*fake.Server, *Resource[*corev1.ConfigMap]) {
	srv := fake.New(fake.Options{})
	t.Cleanup(srv.Close)
	c, err := New(Config{Host: "http://fake", BearerToken: srv.Token(), QPS: -1, Retry: RetryPolicy{MaxAttempts: 1},
		Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
			return answer(req, func() (*http.Response, error) { return srv.RoundTripper().RoundTrip(req) })
		})})
	if err != nil {
		t.Fatal(err)
	}
	cms := For[*corev1.ConfigMap](c).Namespace("default")
	if _, err := cms.Create(t.Context(), waitCM("cm", 0), CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return srv, cms
}

func isWatch(req *http.Request) bool { return req.URL.Query().Get("watch") == "true" }

// A server that ends every watch without an event, or refuses every
// watch with 410 Gone, is asked again after a backoff that doubles up to
// waitRetryMax, and WaitFor still ends with ctx.
func TestWaitForBacksOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		// fault is set before WaitFor; watchAnswered runs when a watch's
		// answer reaches the client.
		fault         func(*fake.Server)
		watchAnswered func(*fake.Server)
	}{
		{"watches refused with 410", func(s *fake.Server) {
			s.Faults().Add(fake.Fault{Match: fake.Match{Verbs: []string{"watch"}}, Code: http.StatusGone})
		}, func(*fake.Server) {}},
		{"watches ended at once", func(*fake.Server) {}, func(s *fake.Server) { s.Faults().DropWatches() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var watches []time.Time
				errTooMany := errors.New("too many watches: no backoff")
				errWaited := errors.New("waited 2 minutes")
				ctx, cancel := context.WithTimeoutCause(t.Context(), 2*time.Minute, errWaited)
				defer cancel()
				tooMany, stop := context.WithCancelCause(ctx)
				defer stop(nil)
				var srv *fake.Server
				srv, cms := startBubbleFake(t, func(req *http.Request, send func() (*http.Response, error)) (*http.Response, error) {
					resp, err := send()
					if isWatch(req) {
						watches = append(watches, time.Now())
						if len(watches) > 200 {
							stop(errTooMany)
						}
						if err == nil {
							tc.watchAnswered(srv)
						}
					}
					return resp, err
				})
				tc.fault(srv)
				_, err := cms.WaitFor(tooMany, "cm", func(*corev1.ConfigMap) (bool, error) { return false, nil })
				if context.Cause(tooMany) == errTooMany {
					t.Fatalf("%d watches in %s of virtual time: no backoff", len(watches), time.Since(watches[0]))
				}
				if !errors.Is(err, errWaited) {
					t.Fatalf("WaitFor = %v, want the context's end", err)
				}
				// 0.1+0.2+...+6.4s, then every 10s: about 18 watches in 2 minutes.
				if n := len(watches); n < 10 || n > 25 {
					t.Errorf("%d watches in 2 minutes, want about 18", n)
				}
				for i := 1; i < len(watches); i++ {
					if gap := watches[i].Sub(watches[i-1]); gap > waitRetryMax {
						t.Errorf("watch %d came %s after the one before, more than the cap %s", i, gap, waitRetryMax)
					}
				}
			})
		})
	}
}

// Failures the server may get over (429, 5xx, a refused connection) are
// waited through, after the client's own retries have given up, until
// ctx ends; the error then says what the last request met.
func TestWaitForWaitsThroughOutages(t *testing.T) {
	for _, tc := range []struct {
		name string
		// outage makes the next n requests fail.
		outage func(s *fake.Server, refuse *int, n int)
		want   error
	}{
		{"503 on lists", func(s *fake.Server, _ *int, n int) {
			s.Faults().Add(fake.Fault{Match: fake.Match{Verbs: []string{"list"}}, Code: http.StatusServiceUnavailable, Times: n})
		}, ErrServiceUnavailable},
		{"connections refused", func(_ *fake.Server, refuse *int, n int) { *refuse = n }, syscall.ECONNREFUSED},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				refuse := 0
				srv, cms := startBubbleFake(t, func(req *http.Request, send func() (*http.Response, error)) (*http.Response, error) {
					if refuse > 0 {
						refuse--
						return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
					}
					return send()
				})
				// From cond's first call: the object changes, its watch
				// answers 410 so that WaitFor lists again, and the outage
				// starts.
				outageAfter := func(v, n int) func(*corev1.ConfigMap) (bool, error) {
					calls := 0
					return func(cm *corev1.ConfigMap) (bool, error) {
						if calls++; calls == 1 {
							update(t, cms, "cm", v)
							srv.Faults().Add(fake.Fault{Match: fake.Match{Verbs: []string{"watch"}}, Code: http.StatusGone, Times: 1})
							tc.outage(srv, &refuse, n)
						}
						return cmVersion(cm) == v, nil
					}
				}
				got, err := cms.WaitFor(t.Context(), "cm", outageAfter(1, 5))
				if err != nil || cmVersion(got) != 1 {
					t.Fatalf("WaitFor = %v, %v; want v 1 after the outage", got, err)
				}

				errWaited := errors.New("waited 2 minutes")
				ctx, cancel := context.WithTimeoutCause(t.Context(), 2*time.Minute, errWaited)
				defer cancel()
				_, err = cms.WaitFor(ctx, "cm", outageAfter(2, 1<<30))
				if !errors.Is(err, errWaited) || !errors.Is(err, tc.want) {
					t.Errorf("WaitFor = %v, want the context's end and %v", err, tc.want)
				}
			})
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
