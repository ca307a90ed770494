package workqueue

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// getResult is what a Get run in a goroutine returned.
type getResult struct {
	key string
	err error
}

// goGet runs Get(ctx) in a goroutine; its result arrives on the channel.
func goGet(q *Queue[string], ctx context.Context) <-chan getResult {
	c := make(chan getResult, 1)
	go func() {
		k, err := q.Get(ctx)
		c <- getResult{k, err}
	}()
	return c
}

// waitParked waits until n Gets are parked on q.
func waitParked(t *testing.T, q *Queue[string], n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		q.lock()
		parked := len(q.waiters)
		q.unlock()
		if parked == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d Gets parked, want %d", parked, n)
		}
		runtime.Gosched()
	}
}

// getOnItsWay starts a Get while the test holds q's lock, and returns
// once that Get counts as a taker (it waits for the lock).
func getOnItsWay(t *testing.T, q *Queue[string], ctx context.Context) <-chan getResult {
	t.Helper()
	before := q.takers.Load()
	c := goGet(q, ctx)
	deadline := time.Now().Add(10 * time.Second)
	for q.takers.Load() == before {
		if time.Now().After(deadline) {
			t.Fatal("the Get never counted itself a taker")
		}
		runtime.Gosched()
	}
	return c
}

// TestKeyQueuedForATakerWakesNoParkedGet: a key queued while a Get is on
// its way to the lock is that Get's; the parked Get sleeps on.
func TestKeyQueuedForATakerWakesNoParkedGet(t *testing.T) {
	q := mustNew[string](t, Options{})
	parked := goGet(q, context.Background())
	waitParked(t, q, 1)

	q.lock()
	onItsWay := getOnItsWay(t, q, context.Background())
	q.wantLocked(q.recordLocked("a", q.t.hash("a")), 0) // Add("a") with the lock held
	if len(q.waiters) != 1 || q.wakeNext != nil {
		t.Errorf("queuing a key for a Get on its way woke a parked Get (%d still parked)", len(q.waiters))
	}
	q.unlock()

	if r := <-onItsWay; r.err != nil || r.key != "a" {
		t.Fatalf("the Get on its way returned %q, %v; want a", r.key, r.err)
	}
	waitParked(t, q, 1)
	if n := q.takers.Load(); n != 0 {
		t.Errorf("takers = %d with every Get parked or returned, want 0", n)
	}
	q.Done("a")
	q.ShutDown()
	if r := <-parked; !errors.Is(r.err, ErrShutDown) {
		t.Errorf("the parked Get returned %q, %v; want ErrShutDown", r.key, r.err)
	}
	if n := q.takers.Load(); n != 0 {
		t.Errorf("takers = %d after shut down, want 0", n)
	}
}

// TestTakerLeavingWithoutAKeyWakesAParkedGet: a Get counted on to take a
// key that returns without one (its ctx ended) wakes a parked Get for
// the key instead of leaving it queued with every worker asleep.
func TestTakerLeavingWithoutAKeyWakesAParkedGet(t *testing.T) {
	q := mustNew[string](t, Options{})
	parked := goGet(q, context.Background())
	waitParked(t, q, 1)

	ctx, cancel := context.WithCancel(context.Background())
	q.lock()
	onItsWay := getOnItsWay(t, q, ctx)
	q.wantLocked(q.recordLocked("a", q.t.hash("a")), 0)
	cancel()
	q.unlock()

	if r := <-onItsWay; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("the cancelled Get returned %q, %v; want context.Canceled", r.key, r.err)
	}
	select {
	case r := <-parked:
		if r.err != nil || r.key != "a" {
			t.Fatalf("the parked Get returned %q, %v; want a", r.key, r.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a queued key waits with its only worker parked")
	}
	q.Done("a")
	if n := q.takers.Load(); n != 0 {
		t.Errorf("takers = %d with no Get running, want 0", n)
	}
	q.ShutDown()
}

// TestNoKeyStrandedWithWorkersParked races Gets whose ctx ends at random
// (taking keys or not) against keys added one at a time, with workers
// that park between keys: every key must reach a worker. A wake skipped
// for a taker that then left without a key, and not passed on, strands a
// key while the workers sleep, and the test times out on it.
func TestNoKeyStrandedWithWorkersParked(t *testing.T) {
	t.Run("wake limit GOMAXPROCS", func(t *testing.T) { noKeyStranded(t, 0) })
	t.Run("wake limit 1", func(t *testing.T) { noKeyStranded(t, 1) })
}

// noKeyStranded is TestNoKeyStrandedWithWorkersParked with at most
// wakeLimit woken Gets on their way at once (0: the queue's default).
func noKeyStranded(t *testing.T, wakeLimit int) {
	keys := 3000
	if testing.Short() {
		keys = 500
	}
	q := mustNew[string](t, Options{})
	if wakeLimit > 0 {
		q.wakeLimit = wakeLimit
	}
	handed := make(chan string, 64)
	var workers sync.WaitGroup
	for range 4 {
		workers.Go(func() {
			for {
				k, err := q.Get(context.Background())
				if err != nil {
					return
				}
				q.Done(k)
				handed <- k
			}
		})
	}
	stop := make(chan struct{})
	var flaky sync.WaitGroup
	for g := range 4 {
		flaky.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			for {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rng.IntN(30))*time.Microsecond)
				k, err := q.Get(ctx)
				cancel()
				if err == nil {
					q.Done(k)
					handed <- k
				}
			}
		})
	}
	for i := range keys {
		if i == keys/2 {
			close(stop) // the second half meets parked workers only, but for the last flaky Gets
			flaky.Wait()
		}
		want := string(rune('a'+i%26)) + time.Duration(i).String()
		q.Add(want)
		select {
		case got := <-handed:
			if got != want {
				t.Fatalf("handed %q, want %q", got, want)
			}
		case <-time.After(10 * time.Second):
			q.lock()
			ready, offered, parked := q.ready, q.hand.left(), len(q.waiters)
			q.unlock()
			t.Fatalf("key %d (%q) not handed out in 10s: %d queued, %d offered, %d takers, %d parked, %d woken",
				i, want, ready, offered, q.takers.Load(), parked, q.woken)
		}
	}
	q.ShutDown()
	workers.Wait()
	if n := q.takers.Load(); n != 0 {
		t.Errorf("takers = %d after every Get returned, want 0", n)
	}
	if q.woken != 0 {
		t.Errorf("woken = %d after every Get returned, want 0", q.woken)
	}
}

// TestTakersSettleWhenIdle: in a bubble, workers take keys added one at a
// time and in bursts; whenever everything is durably blocked, every key
// was handed out, every worker is parked and no Get counts as a taker;
// after ShutDown every worker returns (synctest fails on a goroutine
// left blocked).
func TestTakersSettleWhenIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const workers = 8
		q := mustNew[int](t, Options{})
		var mu sync.Mutex
		seen := map[int]int{}
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for {
					k, err := q.Get(context.Background())
					if err != nil {
						return
					}
					mu.Lock()
					seen[k]++
					first := seen[k] == 1
					mu.Unlock()
					if k%3 == 0 && first {
						q.Add(k) // added while processing: queued again on Done
					}
					time.Sleep(time.Duration(k%4) * time.Millisecond)
					q.Done(k)
				}
			})
		}
		settled := func(when string, want int) {
			t.Helper()
			synctest.Wait()
			q.lock()
			ready, offered, parked, woken := q.ready, q.hand.left(), len(q.waiters), q.woken
			q.unlock()
			if ready+offered != 0 || parked != workers || q.takers.Load() != 0 || woken != 0 {
				t.Fatalf("%s: %d queued, %d offered, %d of %d workers parked, %d takers, %d woken; want all parked, none queued, no taker, none woken",
					when, ready, offered, parked, workers, q.takers.Load(), woken)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(seen) != want {
				t.Fatalf("%s: %d keys handed out, want %d", when, len(seen), want)
			}
		}
		for k := range 20 {
			q.Add(k)
			time.Sleep(time.Millisecond)
		}
		time.Sleep(time.Second)
		settled("after single adds", 20)
		for k := 20; k < 200; k++ {
			q.Add(k)
		}
		time.Sleep(time.Second)
		settled("after a burst", 200)
		for k, n := range seen {
			if want := 1 + btoi(k%3 == 0); n != want {
				t.Errorf("key %d handed out %d times, want %d", k, n, want)
			}
		}
		q.ShutDown()
		wg.Wait()
		if n := q.takers.Load(); n != 0 {
			t.Errorf("takers = %d after shut down, want 0", n)
		}
	})
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
