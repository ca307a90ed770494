package workqueue

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &recorder{}
		q := mustNew[string](t, Options{Metrics: m})
		unfinished := func(wantTotal, wantLongest time.Duration) {
			t.Helper()
			if total, longest := q.UnfinishedWork(); total != wantTotal || longest != wantLongest {
				t.Errorf("UnfinishedWork() = %v, %v; want %v, %v", total, longest, wantTotal, wantLongest)
			}
		}
		get := func() string {
			k, err := q.Get(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return k
		}
		q.Add("a")
		q.Add("a") // a duplicate: not an add
		q.Add("b")
		unfinished(0, 0)
		time.Sleep(2 * time.Second)
		a := get() // waited 2s
		time.Sleep(3 * time.Second)
		unfinished(3*time.Second, 3*time.Second)
		b := get() // waited 5s
		time.Sleep(time.Second)
		unfinished(5*time.Second, 4*time.Second)
		q.Add("a") // processing: an add, queued on Done
		q.Done(a)  // worked 4s
		q.Done(b)  // worked 1s
		q.AddAfter("c", time.Second)
		q.AddRateLimited("d")
		time.Sleep(time.Minute)
		want := recorded{
			Adds:      5, // a, b, a again, c and d when due
			Retries:   2,
			Depths:    []int{1, 2, 1, 0, 1, 2, 3},
			Latencies: []time.Duration{2 * time.Second, 5 * time.Second},
			Works:     []time.Duration{4 * time.Second, time.Second},
		}
		if diff := cmp.Diff(want, m.get()); diff != "" {
			t.Errorf("metrics (-want +got):\n%s", diff)
		}
	})
}

// TestNoMetricsNoClock: without Metrics, no start times are kept.
func TestNoMetricsNoClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		q.Add("a")
		k, _ := q.Get(context.Background())
		time.Sleep(time.Second)
		if total, longest := q.UnfinishedWork(); total != 0 || longest != 0 {
			t.Errorf("UnfinishedWork() = %v, %v without Metrics", total, longest)
		}
		q.Done(k)
	})
}
