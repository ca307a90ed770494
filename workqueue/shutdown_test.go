package workqueue

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestShutDown(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, q *Queue[string])
	}{
		{"queued keys are still handed out, new ones ignored", func(t *testing.T, q *Queue[string]) {
			q.Add("a")
			q.Add("b")
			q.ShutDown()
			q.Add("c")
			q.AddAfter("d", 0)
			q.AddRateLimited("e")
			q.AddWithOptions("f", AddOptions{Priority: 9})
			if diff := cmp.Diff([]string{"a", "b"}, drain(t, q)); diff != "" {
				t.Errorf("drained (-want +got):\n%s", diff)
			}
		}},
		{"a key added while processing is queued on Done", func(t *testing.T, q *Queue[string]) {
			q.Add("a")
			k, _ := tryGet(t, q)
			q.Add("a")
			q.ShutDown()
			q.Done(k)
			if diff := cmp.Diff([]string{"a"}, drain(t, q)); diff != "" {
				t.Errorf("drained (-want +got):\n%s", diff)
			}
		}},
		{"delayed keys are dropped", func(t *testing.T, q *Queue[string]) {
			q.AddAfter("a", time.Second)
			q.AddRateLimited("b")
			q.Add("c")
			k, _ := tryGet(t, q)
			q.AddAfter(k, time.Second) // delayed while processing
			q.ShutDown()
			time.Sleep(time.Minute)
			q.Done(k)
			// b's backoff outlives its delay, as it would its processing,
			// until Forget.
			if q.Len() != 0 || q.t.n != 1 || q.NumRequeues("b") != 1 {
				t.Errorf("Len() = %d, %d keys held, NumRequeues(b) = %d; want 0, 1 (b's backoff), 1", q.Len(), q.t.n, q.NumRequeues("b"))
			}
			q.Forget("b")
			if q.t.n != 0 {
				t.Errorf("%d keys held after Forget; want none", q.t.n)
			}
		}},
		{"twice is once", func(t *testing.T, q *Queue[string]) {
			q.ShutDown()
			q.ShutDown()
			if err := q.ShutDownWithDrain(context.Background()); err != nil {
				t.Error(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := mustNew[string](t, Options{})
				tc.run(t, q)
				if !q.ShuttingDown() {
					t.Error("ShuttingDown() = false")
				}
				if _, err := q.Get(context.Background()); !errors.Is(err, ErrShutDown) {
					t.Errorf("Get after draining: %v, want ErrShutDown", err)
				}
			})
		})
	}
}

// TestShutDownWakesGets: every Get parked on an empty queue returns
// ErrShutDown at once.
func TestShutDownWakesGets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		var wg sync.WaitGroup
		for range 5 {
			wg.Go(func() {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if _, err := q.Get(ctx); !errors.Is(err, ErrShutDown) {
					t.Errorf("Get: %v, want ErrShutDown", err)
				}
			})
		}
		synctest.Wait()
		start := time.Now()
		q.ShutDown()
		wg.Wait()
		if d := time.Since(start); d != 0 {
			t.Errorf("Gets returned after %v", d)
		}
	})
}

func TestShutDownWithDrain(t *testing.T) {
	for _, tc := range []struct {
		name    string
		keys    []string
		work    time.Duration // per key, by one worker (0: no worker)
		timeout time.Duration
		want    time.Duration // when ShutDownWithDrain returns
		wantErr error
	}{
		{"empty queue: at once", nil, 0, time.Hour, 0, nil},
		{"waits for the worker to finish every key", []string{"a", "b", "c"}, time.Second, time.Hour, 3 * time.Second, nil},
		{"ends with its ctx", []string{"a", "b", "c"}, time.Second, 1500 * time.Millisecond, 1500 * time.Millisecond, context.DeadlineExceeded},
		{"no worker: waits for its ctx", []string{"a"}, 0, time.Second, time.Second, context.DeadlineExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := mustNew[string](t, Options{})
				for _, k := range tc.keys {
					q.Add(k)
				}
				stop := func() { q.ShutDown() }
				if tc.work > 0 {
					_, stop = worker(q, tc.work)
				}
				start := time.Now()
				ctx, cancel := context.WithTimeout(context.Background(), tc.timeout)
				defer cancel()
				err := q.ShutDownWithDrain(ctx)
				if !errors.Is(err, tc.wantErr) || time.Since(start) != tc.want {
					t.Errorf("ShutDownWithDrain = %v after %v, want %v after %v", err, time.Since(start), tc.wantErr, tc.want)
				}
				stop()
			})
		})
	}
}
