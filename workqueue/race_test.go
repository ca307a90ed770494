package workqueue

import (
	"context"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestManyProducersAndWorkers hammers one queue from many goroutines
// (real time; run it with -race) with every kind of add, workers whose
// Get often ends with a short ctx, and priorities, and checks:
//
//   - no key is ever processed by two workers at once;
//   - no add is lost: every key's last Get started after its last Add;
//   - ShutDownWithDrain returns once everything is Done.
func TestManyProducersAndWorkers(t *testing.T) {
	hammer(t, func(i int) int { return i }, func(k int) int { return k })
}

// TestManyProducersAndWorkersStringKeys is TestManyProducersAndWorkers
// with string keys, which the dedup filter lists when added again while
// queued (see dupFilter): each Add makes its key anew, as a controller's
// event handlers do.
func TestManyProducersAndWorkersStringKeys(t *testing.T) {
	hammer(t, func(i int) string { return strconv.Itoa(i) }, func(k string) int {
		i, _ := strconv.Atoi(k)
		return i
	})
}

// hammer runs TestManyProducersAndWorkers with the keys key(0..255);
// index maps a key back.
func hammer[K comparable](t *testing.T, key func(int) K, index func(K) int) {
	const (
		keys      = 256
		producers = 8
		workers   = 16
	)
	adds := 20000
	if testing.Short() {
		adds = 4000
	}
	q := mustNew[K](t, Options{BaseDelay: time.Microsecond, MaxDelay: time.Millisecond, Jitter: 0.5, QPS: 1e6, Burst: 1000})
	var (
		added    [keys]atomic.Int64 // plain Adds of each key, counted before the Add
		busy     [keys]atomic.Int32 // workers processing each key
		lastSeen [keys]int64        // added[k] when k was last handed out (written by the one worker holding k)
		gets     atomic.Int64
	)
	var producing, working sync.WaitGroup
	for p := range producers {
		producing.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(p), 2))
			for range adds / producers {
				k := rng.IntN(keys)
				switch rng.IntN(10) {
				case 0:
					q.AddAfter(key(k), time.Duration(rng.IntN(100))*time.Microsecond)
				case 1:
					q.AddRateLimited(key(k))
				case 2:
					q.Forget(key(k))
				case 3:
					added[k].Add(1)
					q.AddWithOptions(key(k), AddOptions{Priority: rng.IntN(5) - 2})
				default:
					added[k].Add(1)
					q.Add(key(k))
				}
			}
		})
	}
	for w := range workers {
		working.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), 3))
			for {
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				if w%2 == 0 {
					ctx, cancel = context.WithTimeout(ctx, time.Duration(rng.IntN(50))*time.Microsecond)
				}
				kk, err := q.Get(ctx)
				cancel()
				if err == ErrShutDown {
					return
				}
				if err != nil {
					continue // the short ctx ended
				}
				k := index(kk)
				gets.Add(1)
				if n := busy[k].Add(1); n != 1 {
					t.Errorf("key %d processed by %d workers at once", k, n)
				}
				lastSeen[k] = added[k].Load()
				if rng.IntN(4) == 0 {
					time.Sleep(time.Duration(rng.IntN(20)) * time.Microsecond)
				}
				busy[k].Add(-1)
				q.Done(kk)
			}
		})
	}
	producing.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := q.ShutDownWithDrain(ctx); err != nil {
		t.Fatalf("ShutDownWithDrain: %v", err)
	}
	working.Wait()
	for k := range keys {
		if want := added[k].Load(); lastSeen[k] != want {
			t.Errorf("key %d: last handed out after %d of its %d adds", k, lastSeen[k], want)
		}
	}
	if q.Len() != 0 || q.processing != 0 || q.takers.Load() != 0 {
		t.Errorf("after draining: Len() = %d, %d processing, %d takers", q.Len(), q.processing, q.takers.Load())
	}
	t.Logf("%d adds, %d gets", adds, gets.Load())
}
