package workqueue

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

// TestTinyDelayNotEarly: a delay of a nanosecond is still a delay: on a
// clock that has not moved the key is not queued, and it is once the
// clock passes its due time.
func TestTinyDelayNotEarly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		defer q.ShutDown()
		q.AddAfter("k", time.Nanosecond)
		if n := q.Len(); n != 0 {
			t.Fatalf("queued before its delay passed: Len() = %d", n)
		}
		time.Sleep(time.Nanosecond)
		synctest.Wait()
		if n := q.Len(); n != 1 {
			t.Fatalf("not queued once its delay passed: Len() = %d", n)
		}
	})
}

// TestTinyDelayRetries: retries with a nanosecond backoff on the real
// clock are all handed out, one per failure (most are due before the
// queue would arm its timer, and are added at once).
func TestTinyDelayRetries(t *testing.T) {
	q := mustNew[int](t, Options{BaseDelay: time.Nanosecond, QPS: 1e9, Burst: 1 << 20})
	defer q.ShutDown()
	const keys, failures = 100, 5
	for k := range keys {
		q.Add(k)
	}
	gets := map[int]int{}
	for range keys * (1 + failures) {
		k, err := q.Get(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if gets[k]++; gets[k] <= failures {
			q.AddRateLimited(k)
		} else {
			q.Forget(k)
		}
		q.Done(k)
	}
	for k := range keys {
		if gets[k] != 1+failures || q.NumRequeues(k) != 0 {
			t.Fatalf("key %d: handed out %d times, NumRequeues %d", k, gets[k], q.NumRequeues(k))
		}
	}
	if n := q.Len(); n != 0 {
		t.Fatalf("Len() = %d after every retry", n)
	}
}
