package workqueue

import (
	"context"
	"math"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// delays returns how long each AddRateLimited of key took to come back
// out of Get, in virtual time, for n calls (with Done between them).
func delays(t *testing.T, q *Queue[string], key string, n int) []time.Duration {
	t.Helper()
	var got []time.Duration
	for range n {
		start := time.Now()
		q.AddRateLimited(key)
		k, err := q.Get(context.Background())
		if err != nil || k != key {
			t.Fatalf("Get = %q, %v", k, err)
		}
		got = append(got, time.Since(start))
		q.Done(k)
	}
	return got
}

func TestAddRateLimitedBackoff(t *testing.T) {
	ms := time.Millisecond
	noBucket := math.Inf(1)
	for _, tc := range []struct {
		name string
		opts Options
		want []time.Duration
	}{
		{"client-go's defaults", Options{}, []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms, 160 * ms}},
		{"capped at MaxDelay", Options{BaseDelay: time.Second, MaxDelay: 5 * time.Second, QPS: noBucket},
			[]time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}},
		{"multiplier", Options{BaseDelay: time.Second, Multiplier: 3, QPS: noBucket},
			[]time.Duration{time.Second, 3 * time.Second, 9 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := mustNew[string](t, tc.opts)
				got := delays(t, q, "a", len(tc.want))
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("delays (-want +got):\n%s", diff)
				}
				if n := q.NumRequeues("a"); n != len(tc.want) {
					t.Errorf("NumRequeues = %d, want %d", n, len(tc.want))
				}
				if n := q.NumRequeues("b"); n != 0 {
					t.Errorf("NumRequeues of another key = %d", n)
				}
				q.Forget("a")
				if n := q.NumRequeues("a"); n != 0 {
					t.Errorf("NumRequeues after Forget = %d", n)
				}
				if got := delays(t, q, "a", 1); got[0] != tc.want[0] {
					t.Errorf("delay after Forget = %v, want %v", got[0], tc.want[0])
				}
			})
		})
	}
}

// TestOverallBucket: every AddRateLimited takes a token, whatever its
// key; keys wait for the later of their own delay and their token.
func TestOverallBucket(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{QPS: 1, Burst: 2})
		for _, k := range []string{"a", "b", "c", "d"} {
			q.AddRateLimited(k)
		}
		got, stop := worker(q, 0)
		time.Sleep(time.Minute)
		stop()
		want := []handed{{"a", 5 * time.Millisecond}, {"b", 5 * time.Millisecond}, {"c", time.Second}, {"d", 2 * time.Second}}
		if diff := cmp.Diff(want, got()); diff != "" {
			t.Errorf("keys handed out (-want +got):\n%s", diff)
		}
	})
}

// TestJitterStaysWithinBounds: jittered delays are drawn around the
// exponential value and never exceed MaxDelay.
func TestJitterStaysWithinBounds(t *testing.T) {
	q := mustNew[int](t, Options{BaseDelay: time.Second, MaxDelay: 10 * time.Second, Jitter: 0.9, QPS: math.Inf(1)})
	spread := false
	for key := range 500 {
		exp := time.Second
		for range 8 {
			q.mu.Lock()
			d := q.backoffLocked(q.recordLocked(key, q.t.hash(key)))
			q.mu.Unlock()
			if d > 10*time.Second {
				t.Fatalf("key %d: delay %v above MaxDelay", key, d)
			}
			if lo := time.Duration(float64(exp) * 0.1); d < lo {
				t.Fatalf("key %d: delay %v below %v", key, d, lo)
			}
			if d != exp {
				spread = true
			}
			exp = min(2*exp, 10*time.Second)
		}
	}
	if !spread {
		t.Error("no delay was jittered")
	}
}

// TestHappyPathHasNoBackoff: keys that never fail get no backoff state.
func TestHappyPathHasNoBackoff(t *testing.T) {
	q := mustNew[string](t, Options{})
	q.Add("a")
	drain(t, q)
	q.Forget("a")
	if n := q.retrying.Load(); n != 0 || len(q.backoffs) != 0 {
		t.Errorf("%d keys have backoff state (%d made)", n, len(q.backoffs))
	}
	q.AddRateLimited("b")
	q.Forget("b")
	if n := q.retrying.Load(); n != 0 {
		t.Errorf("%d keys have backoff state after Forget", n)
	}
}

// TestForgetWithoutBackoffs: while no key has a backoff, Forget takes no
// lock (controllers call it after each success); once one has, Forget
// clears it.
func TestForgetWithoutBackoffs(t *testing.T) {
	q := mustNew[string](t, Options{BaseDelay: time.Hour, QPS: math.Inf(1)})
	q.lock()
	q.Forget("a") // would wait for the lock if it took it
	q.unlock()

	q.AddRateLimited("a")
	q.AddRateLimited("b")
	if q.NumRequeues("a") != 1 || q.retrying.Load() != 2 {
		t.Fatalf("after AddRateLimited: NumRequeues = %d, %d keys with a backoff", q.NumRequeues("a"), q.retrying.Load())
	}
	q.Forget("a")
	if q.NumRequeues("a") != 0 || q.NumRequeues("b") != 1 || q.retrying.Load() != 1 {
		t.Fatalf("after Forget(a): NumRequeues = %d, %d; %d keys with a backoff", q.NumRequeues("a"), q.NumRequeues("b"), q.retrying.Load())
	}
	q.Forget("b")
	if q.NumRequeues("b") != 0 || q.retrying.Load() != 0 {
		t.Fatalf("after Forget(b): NumRequeues = %d; %d keys with a backoff", q.NumRequeues("b"), q.retrying.Load())
	}
	q.lock()
	q.Forget("b")
	q.unlock()
	q.ShutDown()
}
