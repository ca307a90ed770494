package client

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/fake"
)

// A server that ends every watch without an event, or refuses every
// watch with 410 Gone, is asked again after a backoff that doubles up to
// waitRetryMax, and WaitFor still ends with ctx. The fake runs in memory
// in a synctest bubble: the clock is virtual, and the bubble fails if a
// goroutine is left behind.
func TestWaitForBacksOff(t *testing.T) {
	for _, tc := range []struct {
		name string
		// watchAnswered runs when a watch's answer reaches the client.
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
				srv := fake.New(fake.Options{})
				defer srv.Close()
				var watches []time.Time
				errTooMany := errors.New("too many watches: no backoff")
				errWaited := errors.New("waited 2 minutes")
				ctx, cancel := context.WithTimeoutCause(t.Context(), 2*time.Minute, errWaited)
				defer cancel()
				tooMany, stop := context.WithCancelCause(ctx)
				defer stop(nil)
				c, err := New(Config{Host: "http://fake", BearerToken: srv.Token(), QPS: -1,
					Transport: roundTripFunc(func(req *http.Request) (*http.Response, error) {
						resp, err := srv.RoundTripper().RoundTrip(req)
						if req.URL.Query().Get("watch") == "true" {
							watches = append(watches, time.Now())
							if len(watches) > 200 {
								stop(errTooMany)
							}
							if err == nil {
								tc.watchAnswered(srv)
							}
						}
						return resp, err
					})})
				if err != nil {
					t.Fatal(err)
				}
				cms := For[*corev1.ConfigMap](c).Namespace("default")
				if _, err := cms.Create(ctx, waitCM("cm", 0), CreateOptions{}); err != nil {
					t.Fatal(err)
				}
				tc.fault(srv)
				_, err = cms.WaitFor(tooMany, "cm", func(*corev1.ConfigMap) (bool, error) { return false, nil })
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

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
