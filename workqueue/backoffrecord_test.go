package workqueue

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestBackoffOutlivesQueueState: a key's backoff is kept in its record,
// and the record stays while the key backs off even once it is neither
// queued, processing nor delayed; Forget drops it then, and not while
// the key is still queued or processing.
func TestBackoffOutlivesQueueState(t *testing.T) {
	q := mustNew[string](t, Options{BaseDelay: time.Nanosecond, QPS: math.Inf(1)})
	defer q.ShutDown()
	ctx := context.Background()
	q.Add("a")
	k, _ := q.Get(ctx)
	q.AddRateLimited(k) // processing: queued again on Done
	q.AddRateLimited(k)
	q.Done(k)
	k, _ = q.Get(ctx)
	q.Done(k) // neither queued nor processing, still backing off
	if q.t.n != 1 || q.NumRequeues("a") != 2 {
		t.Fatalf("after Done: %d keys held, NumRequeues = %d; want 1, 2", q.t.n, q.NumRequeues("a"))
	}
	q.AddRateLimited("a") // the backoff goes on where it was
	if got := q.NumRequeues("a"); got != 3 {
		t.Fatalf("NumRequeues = %d after a third AddRateLimited, want 3", got)
	}
	k, _ = q.Get(ctx)
	q.Done(k)
	q.Forget("a") // only backing off: the record goes
	if q.t.n != 0 || q.NumRequeues("a") != 0 {
		t.Fatalf("after Forget: %d keys held, NumRequeues = %d; want 0, 0", q.t.n, q.NumRequeues("a"))
	}
	q.AddRateLimited("a") // backing off again, queued
	k, _ = q.Get(ctx)
	q.Add(k)    // processing, added again
	q.Forget(k) // the backoff goes, the record stays: key processing and wanted
	if q.t.n != 1 || q.NumRequeues("a") != 0 {
		t.Fatalf("after Forget while processing: %d keys held, NumRequeues = %d; want 1, 0", q.t.n, q.NumRequeues("a"))
	}
	q.Done(k)
	if k, _ = q.Get(ctx); k != "a" {
		t.Fatalf("got %q after Done of a key added while processing, want a", k)
	}
	q.Done(k)
	if q.t.n != 0 || q.retrying.Load() != 0 || marked(q) != 0 {
		t.Fatalf("all done and forgotten: %d keys held, %d backing off, %d marks", q.t.n, q.retrying.Load(), marked(q))
	}
	q.AddRateLimited("b")
	q.Forget("b") // delayed or queued: the record stays for that
	if q.NumRequeues("b") != 0 || q.retrying.Load() != 0 || len(q.backoffs) != 1 {
		t.Fatalf("after Forget(b): NumRequeues = %d, %d backing off, %d backoffs made; want 0, 0, 1 (a's, reused)", q.NumRequeues("b"), q.retrying.Load(), len(q.backoffs))
	}
}

// TestRetryStress: workers fail each key a fixed number of times
// (AddRateLimited while processing it, nanosecond backoff) and Forget it
// on success, while producers add every key once (real time; run it
// with -race). Checked by counts: each key is handed out exactly once
// per failure plus once, never to two workers at once, and nothing is
// left held, backing off or marked at the end.
func TestRetryStress(t *testing.T) {
	const (
		keys      = 2000
		failures  = 3
		producers = 4
		workers   = 8
	)
	q := mustNew[string](t, Options{BaseDelay: time.Nanosecond, QPS: math.Inf(1)})
	names := make([]string, keys)
	index := make(map[string]int, keys)
	for i := range names {
		names[i] = fmt.Sprint("default/pod-", i)
		index[names[i]] = i
	}
	var (
		handed [keys]atomic.Int32
		busy   [keys]atomic.Int32
		total  atomic.Int64
		errs   = make(chan error, workers)
	)
	all := make(chan struct{})
	var working, producing sync.WaitGroup
	for range workers {
		working.Go(func() {
			for {
				k, err := q.Get(context.Background())
				if err != nil {
					return
				}
				i := index[k]
				if !busy[i].CompareAndSwap(0, 1) {
					errs <- fmt.Errorf("key %q handed to two workers at once", k)
					return
				}
				if handed[i].Add(1) <= failures {
					q.AddRateLimited(k)
				} else {
					q.Forget(k)
				}
				busy[i].Store(0)
				q.Done(k)
				if total.Add(1) == keys*(1+failures) {
					close(all)
				}
			}
		})
	}
	for p := range producers {
		producing.Go(func() {
			for _, k := range names[p*keys/producers : (p+1)*keys/producers] {
				q.Add(k)
			}
		})
	}
	producing.Wait()
	select {
	case <-all:
	case err := <-errs:
		t.Error(err)
	case <-time.After(time.Minute): // a lost key; not a timing figure
		t.Errorf("%d of %d handings after a minute", total.Load(), keys*(1+failures))
	}
	q.ShutDown()
	working.Wait()
	for i := range handed {
		if got := handed[i].Load(); got != 1+failures {
			t.Errorf("key %d handed out %d times, want %d", i, got, 1+failures)
		}
	}
	q.lock()
	held := q.t.n
	q.unlock()
	if held != 0 || q.retrying.Load() != 0 || marked(q) != 0 {
		t.Errorf("at the end: %d keys held, %d backing off, %d marks; want none", held, q.retrying.Load(), marked(q))
	}
}

// TestJitterBothSides: jittered first delays fall on both sides of
// BaseDelay, within [BaseDelay*(1-j), BaseDelay*(1+j)].
func TestJitterBothSides(t *testing.T) {
	const base, j = time.Second, 0.5
	q := mustNew[int](t, Options{BaseDelay: base, Jitter: j, QPS: math.Inf(1)})
	below, above := 0, 0
	for key := range 1000 {
		q.mu.Lock()
		d := q.backoffLocked(q.recordLocked(key, q.t.hash(key)))
		q.mu.Unlock()
		if d < time.Duration(float64(base)*(1-j)) || d > time.Duration(float64(base)*(1+j))+1 {
			t.Fatalf("key %d: first delay %v outside [%v, %v]", key, d, time.Duration(float64(base)*(1-j)), time.Duration(float64(base)*(1+j)))
		}
		if d < base {
			below++
		} else if d > base {
			above++
		}
	}
	if below < 100 || above < 100 {
		t.Errorf("of 1000 jittered delays %d below BaseDelay, %d above", below, above)
	}
}
