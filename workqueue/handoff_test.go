package workqueue

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// queueKeys adds n keys "k00".."k<n-1>" in order.
func queueKeys(q *Queue[string], n int) []string {
	var keys []string
	for i := range n {
		k := fmt.Sprintf("k%02d", i)
		keys = append(keys, k)
		q.Add(k)
	}
	return keys
}

// TestHandoffCountsAndOrder: after a Get, the keys behind it wait in the
// hand-off; they count in Len, are handed out in queue order once each,
// and an Add of one of them is absorbed as for any queued key.
func TestHandoffCountsAndOrder(t *testing.T) {
	q := mustNew[string](t, Options{})
	keys := queueKeys(q, maxOffer+8)
	first, _ := tryGet(t, q)
	if first != keys[0] {
		t.Fatalf("first Get = %q, want %q", first, keys[0])
	}
	if n := q.hand.left(); n != maxOffer {
		t.Fatalf("%d keys offered, want %d", n, maxOffer)
	}
	if q.Len() != len(keys)-1 {
		t.Fatalf("Len() = %d, want %d", q.Len(), len(keys)-1)
	}
	q.Add(keys[1])  // offered: absorbed
	q.Add(keys[35]) // queued: absorbed
	q.Done(keys[2]) // offered, never handed out: does nothing
	if q.Len() != len(keys)-1 {
		t.Fatalf("after adds of queued keys, Len() = %d, want %d", q.Len(), len(keys)-1)
	}
	q.Done(first)
	got := append([]string{first}, drain(t, q)...)
	if !slices.Equal(got, keys) {
		t.Fatalf("handed out %v, want %v", got, keys)
	}
	if q.Len() != 0 || q.processing != 0 || q.t.n != 0 {
		t.Fatalf("after draining: Len() = %d, %d processing, %d keys held", q.Len(), q.processing, q.t.n)
	}
}

// TestHandoffAddWhileTaken: a key taken from the hand-off is processing:
// an Add of it queues it again after Done.
func TestHandoffAddWhileTaken(t *testing.T) {
	q := mustNew[string](t, Options{})
	queueKeys(q, 3)
	a, _ := tryGet(t, q)
	b, _ := tryGet(t, q) // from the hand-off
	if a != "k00" || b != "k01" {
		t.Fatalf("got %q, %q", a, b)
	}
	q.Add(b)
	if q.Len() != 1 {
		t.Fatalf("Len() = %d, want 1 (k02; k01 waits for its Done)", q.Len())
	}
	q.Done(b)
	q.Done(a)
	if got := drain(t, q); !slices.Equal(got, []string{"k02", "k01"}) {
		t.Fatalf("then handed out %v, want [k02 k01]", got)
	}
}

// TestHandoffRecalledByPriority: a key of a higher priority than the
// offered ones goes before them; one of a lower priority does not.
func TestHandoffRecalledByPriority(t *testing.T) {
	q := mustNew[string](t, Options{Aging: -1})
	keys := queueKeys(q, 10)
	first, _ := tryGet(t, q)
	q.Done(first)
	q.AddWithOptions("low", AddOptions{Priority: LowPriority})
	if q.hand.left() == 0 {
		t.Fatal("a lower priority add recalled the offered keys")
	}
	q.AddWithOptions("high", AddOptions{Priority: 1})
	if q.hand.left() != 0 {
		t.Fatal("a higher priority add left the offered keys ahead of it")
	}
	q.AddWithOptions(keys[3], AddOptions{Priority: 2}) // raised, once recalled
	want := append([]string{keys[3], "high"}, slices.Delete(slices.Clone(keys[1:]), 2, 3)...)
	want = append(want, "low")
	if got := drain(t, q); !slices.Equal(got, want) {
		t.Fatalf("handed out %v, want %v", got, want)
	}
	if q.Len() != 0 || q.processing != 0 || q.t.n != 0 {
		t.Fatalf("after draining: Len() = %d, %d processing, %d keys held", q.Len(), q.processing, q.t.n)
	}
}

// TestHandoffRecallWithAging: with aging, a recall keeps the offered
// keys' queue times, so they still rank before later keys.
func TestHandoffRecallWithAging(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		q.AddWithOptions("low", AddOptions{Priority: LowPriority}) // aging on
		keys := queueKeys(q, 5)
		first, _ := tryGet(t, q)
		q.Done(first)
		if first != keys[0] || q.hand.left() != 5 { // k01..k04, then low
			t.Fatalf("got %q, %d offered", first, q.hand.left())
		}
		time.Sleep(time.Second)
		q.AddWithOptions("high", AddOptions{Priority: 5}) // recalls them
		time.Sleep(time.Second)
		q.Add("late")
		// At 2 s, with 100 ms aging: k01..k04 rank 0+20, high 5+10,
		// late 0, low -100+20.
		want := append(slices.Clone(keys[1:]), "high", "late", "low")
		if got := drain(t, q); !slices.Equal(got, want) {
			t.Fatalf("handed out %v, want %v", got, want)
		}
	})
}

// TestShutDownWithDrainWaitsForHandoff: keys offered but not handed out
// keep ShutDownWithDrain waiting, and Get hands them out after ShutDown.
func TestShutDownWithDrainWaitsForHandoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := mustNew[string](t, Options{})
		keys := queueKeys(q, 4)
		first, _ := tryGet(t, q)
		q.Done(first)
		var drained atomic.Bool
		go func() {
			if err := q.ShutDownWithDrain(context.Background()); err != nil {
				t.Errorf("ShutDownWithDrain: %v", err)
			}
			drained.Store(true)
		}()
		synctest.Wait()
		if drained.Load() {
			t.Fatal("ShutDownWithDrain returned with keys in the hand-off")
		}
		var got []string
		for {
			k, err := q.Get(context.Background())
			if err != nil {
				if err != ErrShutDown {
					t.Fatal(err)
				}
				break
			}
			got = append(got, k)
			q.Done(k)
		}
		synctest.Wait()
		if !drained.Load() || !slices.Equal(got, keys[1:]) {
			t.Fatalf("after shut down handed out %v (want %v); drained %v", got, keys[1:], drained.Load())
		}
	})
}

// TestDoneWhileLockBusy: a Done that finds the lock held returns without
// waiting; whoever holds the lock applies it before anything else sees
// the queue, and unlock applies it if nothing else takes the lock.
func TestDoneWhileLockBusy(t *testing.T) {
	q := mustNew[string](t, Options{})
	queueKeys(q, 2)
	a, _ := tryGet(t, q)
	b, _ := tryGet(t, q)
	q.Add(a) // queued again on its Done

	q.lock()
	q.Done(a) // the lock is ours: left for later
	q.Done(b)
	if q.hand.pending.Load() != 2 || q.processing != 2 {
		t.Fatalf("with the lock held: %d Dones pending, %d processing", q.hand.pending.Load(), q.processing)
	}
	q.unlock()
	if q.hand.pending.Load() != 0 || q.processing != 0 || q.Len() != 1 {
		t.Fatalf("after unlock: %d Dones pending, %d processing, Len() = %d", q.hand.pending.Load(), q.processing, q.Len())
	}

	got, _ := tryGet(t, q)
	q.lock()
	q.Done(got)
	q.mu.Unlock() // as if the Done came after the holder's last look
	q.lock()      // the next taker applies it
	if q.processing != 0 || q.t.n != 0 {
		t.Fatalf("the next lock did not apply the Done: %d processing, %d keys held", q.processing, q.t.n)
	}
	q.unlock()

	// An Add after such a Done queues the key anew, in order.
	queueKeys(q, 1)
	k, _ := tryGet(t, q)
	q.lock()
	q.Done(k)
	q.mu.Unlock()
	q.Add(k)
	q.Add("k01")
	if got := drain(t, q); !slices.Equal(got, []string{k, "k01"}) {
		t.Fatalf("after Done then adds: handed out %v", got)
	}
}

// TestFIFOPerProducer: with producers adding concurrently and one worker,
// each producer's keys are handed out in the order it added them, each
// once (every key is added once).
func TestFIFOPerProducer(t *testing.T) {
	const producers, perProducer = 4, 2000
	q := mustNew[[2]int](t, Options{})
	var producing sync.WaitGroup
	for p := range producers {
		producing.Go(func() {
			for i := range perProducer {
				q.Add([2]int{p, i})
			}
		})
	}
	next := make([]int, producers)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			k, err := q.Get(context.Background())
			if err != nil {
				return
			}
			if k[1] != next[k[0]] {
				t.Errorf("producer %d: got key %d, want %d", k[0], k[1], next[k[0]])
			}
			next[k[0]] = k[1] + 1
			q.Done(k)
		}
	}()
	producing.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := q.ShutDownWithDrain(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
	for p, n := range next {
		if n != perProducer {
			t.Errorf("producer %d: %d keys handed out, want %d", p, n, perProducer)
		}
	}
}

// TestNoKeyTwiceAtOnce: many workers and few keys added over and over:
// no key is ever processed by two workers at once, and the last add of
// each key is seen by a Get after it.
func TestNoKeyTwiceAtOnce(t *testing.T) {
	const keys, producers, workers, adds = 8, 4, 8, 20000
	q := mustNew[int](t, Options{})
	var busy [keys]atomic.Int32
	var added [keys]atomic.Int64
	var seen [keys]int64 // written by the worker holding the key
	var producing, working sync.WaitGroup
	for p := range producers {
		producing.Go(func() {
			for i := range adds / producers {
				k := (i*7 + p) % keys
				added[k].Add(1)
				q.Add(k)
			}
		})
	}
	for range workers {
		working.Go(func() {
			for {
				k, err := q.Get(context.Background())
				if err != nil {
					return
				}
				if n := busy[k].Add(1); n != 1 {
					t.Errorf("key %d processed by %d workers at once", k, n)
				}
				seen[k] = added[k].Load()
				busy[k].Add(-1)
				q.Done(k)
			}
		})
	}
	producing.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := q.ShutDownWithDrain(ctx); err != nil {
		t.Fatal(err)
	}
	working.Wait()
	for k := range keys {
		if seen[k] != added[k].Load() {
			t.Errorf("key %d: last handed out after %d of its %d adds", k, seen[k], added[k].Load())
		}
	}
}

// TestHandoffBelowZero: keys below priority 0 (a controller's initial
// list and resyncs) are offered too; an add at 0 recalls them and goes
// first, each recall halves the next batches, and a batch claimed whole
// doubles them again.
func TestHandoffBelowZero(t *testing.T) {
	q := mustNew[string](t, Options{Aging: -1})
	var low []string
	for i := range 100 {
		low = append(low, fmt.Sprintf("low%02d", i))
		q.AddWithOptions(low[i], AddOptions{Priority: LowPriority})
	}
	var got []string
	get := func(wantOffered int) {
		t.Helper()
		k, _ := tryGet(t, q)
		q.Done(k)
		got = append(got, k)
		if wantOffered >= 0 && q.hand.left() != wantOffered {
			t.Fatalf("after getting %q: %d offered, want %d", k, q.hand.left(), wantOffered)
		}
	}
	get(maxOffer) // low00
	q.Add("now")
	if q.hand.left() != 0 {
		t.Fatalf("an add at 0 left %d keys below 0 offered ahead of it", q.hand.left())
	}
	get(maxOffer / 2) // now: the batch after a recall is halved
	get(maxOffer/2 - 1)
	q.Add("now2")
	get(maxOffer / 4) // now2
	for i := range maxOffer / 4 {
		get(maxOffer/4 - 1 - i)
	}
	get(maxOffer / 2) // the batch was claimed whole: doubled
	got = append(got, drain(t, q)...)
	want := append([]string{low[0], "now", low[1], "now2"}, low[2:]...)
	if !slices.Equal(got, want) {
		t.Fatalf("handed out %v, want %v", got, want)
	}
	if q.Len() != 0 || q.processing != 0 || q.t.n != 0 {
		t.Fatalf("after draining: Len() = %d, %d processing, %d keys held", q.Len(), q.processing, q.t.n)
	}
}

// TestHandoffBelowZeroMetrics: with metrics on, keys below priority 0
// taken through the hand-off, and recalled by adds at 0, are recorded as
// if every Get had taken the lock: one add, queue latency and work
// duration per key, the depth back to 0, each latency as waited on the
// (virtual) clock.
func TestHandoffBelowZeroMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := new(recorder)
		q := mustNew[string](t, Options{Metrics: m})
		const n = 3 * maxOffer
		for i := range n {
			q.AddWithOptions(fmt.Sprint("low", i), AddOptions{Priority: LowPriority})
		}
		time.Sleep(time.Second)
		handed, nows := 0, 0
		for k := range 2 * n {
			key, ok := tryGet(t, q)
			if !ok {
				break
			}
			handed++
			if k%10 == 3 {
				q.Add(fmt.Sprint("now", k)) // recalls what is offered
				nows++
			}
			q.Done(key)
		}
		got := m.get()
		want := n + nows
		if handed != want || got.Adds != want || len(got.Latencies) != want || len(got.Works) != want {
			t.Fatalf("%d handed out; metrics: %d adds, %d latencies, %d work durations; want %d each", handed, got.Adds, len(got.Latencies), len(got.Works), want)
		}
		if d := got.Depths[len(got.Depths)-1]; d != 0 || q.Len() != 0 {
			t.Fatalf("drained: depth %d, Len() %d", d, q.Len())
		}
		waited := 0 // the lows waited a second at least, the nows nothing
		for _, l := range got.Latencies {
			if l >= time.Second {
				waited++
			}
		}
		if waited != n {
			t.Fatalf("%d latencies of 1 s or more, want %d (the low keys): %v", waited, n, got.Latencies)
		}
	})
}
