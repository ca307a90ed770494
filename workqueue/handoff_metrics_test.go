package workqueue

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// checkpoint is what a metrics script saw at one point.
type checkpoint struct {
	Len                 int
	Unfinished, Longest time.Duration
	Depth               int // the last Depth reported
}

// metricsScript drives q through gets of offered keys, adds of offered,
// queued and processing keys, a priority add that recalls the offers,
// a Done left to the lock's holder and a drain, on synctest's clock, and
// returns what it saw at each step.
func metricsScript(t *testing.T, q *Queue[string], m *recorder) []checkpoint {
	var seen []checkpoint
	look := func() {
		total, longest := q.UnfinishedWork()
		got := m.get()
		depth := -1
		if n := len(got.Depths); n > 0 {
			depth = got.Depths[n-1]
		}
		seen = append(seen, checkpoint{q.Len(), total, longest, depth})
	}
	get := func() string {
		t.Helper()
		k, ok := tryGet(t, q)
		if !ok {
			t.Fatal("nothing queued")
		}
		return k
	}
	queueKeys(q, maxOffer+8)
	time.Sleep(time.Second)
	a := get() // the others behind it are offered
	time.Sleep(time.Second)
	b, c := get(), get()
	look()
	time.Sleep(time.Second)
	look()
	q.Add(b)     // processing: queued again on Done
	q.Add("k05") // offered or queued: absorbed
	q.AddWithOptions("urgent", AddOptions{Priority: 10})
	time.Sleep(time.Second)
	u := get()
	look()
	q.lock()
	q.Done(a) // left to the lock's holder, worked until now
	time.Sleep(time.Second)
	q.unlock()
	look()
	q.Done(c)
	q.Done(b)
	q.Done(u)
	look()
	for range 3 {
		k := get()
		time.Sleep(time.Second)
		look()
		q.Done(k)
	}
	drain(t, q)
	look()
	return seen
}

// batchesScript holds a key taken from the hand-off while the rest of
// its batch is taken and a new batch made, then finishes it.
func batchesScript(t *testing.T, q *Queue[string], m *recorder) []checkpoint {
	get := func() string {
		t.Helper()
		k, ok := tryGet(t, q)
		if !ok {
			t.Fatal("nothing queued")
		}
		return k
	}
	queueKeys(q, 2*maxOffer+2)
	q.Done(get()) // the next maxOffer keys are offered
	time.Sleep(time.Second)
	held := get()
	for range maxOffer - 1 {
		q.Done(get())
	}
	time.Sleep(time.Second)
	q.Done(get()) // taken under the lock: a new batch
	time.Sleep(time.Second)
	q.Done(held) // worked 2s
	drain(t, q)
	total, longest := q.UnfinishedWork()
	return []checkpoint{{q.Len(), total, longest, m.get().Depths[len(m.get().Depths)-1]}}
}

// TestHandoffMetricsAsLocked: every figure a queue reports through the
// hand-off (queue latencies, work durations, adds, the depth after each
// change, unfinished work and the longest running key) is what it
// reports with every Get taking the lock.
func TestHandoffMetricsAsLocked(t *testing.T) {
	run := func(noHandoff bool, script func(*testing.T, *Queue[string], *recorder) []checkpoint) ([]checkpoint, recorded) {
		var seen []checkpoint
		m := &recorder{}
		synctest.Test(t, func(t *testing.T) {
			q := mustNew[string](t, Options{Metrics: m})
			q.noHandoff = noHandoff
			seen = script(t, q, m)
			if !noHandoff && q.hand.filled.Load() == 0 {
				t.Error("no key went through the hand-off")
			}
		})
		return seen, m.get()
	}
	_, lockedBatches := run(true, batchesScript)
	_, handBatches := run(false, batchesScript)
	if diff := cmp.Diff(lockedBatches, handBatches); diff != "" {
		t.Errorf("metrics across batches (-locked +hand-off):\n%s", diff)
	}
	if got := handBatches.Works[maxOffer+1]; got != 2*time.Second {
		t.Errorf("work of the key held across batches = %v, want 2s", got)
	}
	lockedSeen, locked := run(true, metricsScript)
	handSeen, hand := run(false, metricsScript)
	if diff := cmp.Diff(lockedSeen, handSeen); diff != "" {
		t.Errorf("checkpoints (-locked +hand-off):\n%s", diff)
	}
	if diff := cmp.Diff(locked, hand); diff != "" {
		t.Errorf("metrics (-locked +hand-off):\n%s", diff)
	}
	// A few figures by hand, so that both being wrong alike fails too.
	if hand.Adds != maxOffer+8+2 { // the keys, b again, urgent
		t.Errorf("%d adds, want %d", hand.Adds, maxOffer+8+2)
	}
	if n := len(hand.Latencies); n != hand.Adds || len(hand.Works) != n {
		t.Errorf("%d latencies and %d work durations for %d adds", n, len(hand.Works), hand.Adds)
	}
	if got := hand.Latencies[:3]; !slices.Equal(got, []time.Duration{time.Second, 2 * time.Second, 2 * time.Second}) {
		t.Errorf("first queue latencies %v, want 1s 2s 2s", got)
	}
	if hand.Works[0] != 3*time.Second { // a: got at 1s, Done at 4s, applied at 5s
		t.Errorf("work of the Done left to the holder = %v, want 3s", hand.Works[0])
	}
	want := checkpoint{Len: maxOffer + 8 - 3, Unfinished: 4 * time.Second, Longest: 2 * time.Second, Depth: maxOffer + 8 - 3}
	if handSeen[1] != want {
		t.Errorf("after three gets: %+v, want %+v", handSeen[1], want)
	}
	if last := handSeen[len(handSeen)-1]; last != (checkpoint{}) {
		t.Errorf("drained: %+v, want zeros", last)
	}
}

// TestHandoffMetricsConcurrent: with producers and workers concurrent,
// each key added once per round, the counts come out exact: one add, one
// queue latency and one work duration per key, depth 0 once drained.
func TestHandoffMetricsConcurrent(t *testing.T) {
	const producers, perProducer, workers, rounds = 4, 500, 8, 3
	for _, noHandoff := range []bool{true, false} {
		t.Run(fmt.Sprintf("noHandoff=%v", noHandoff), func(t *testing.T) {
			m := &recorder{}
			q := mustNew[string](t, Options{Metrics: m})
			q.noHandoff = noHandoff
			var gets sync.WaitGroup
			var working sync.WaitGroup
			for range workers {
				working.Go(func() {
					for {
						k, err := q.Get(context.Background())
						if err != nil {
							return
						}
						q.Done(k)
						gets.Done()
					}
				})
			}
			for r := range rounds {
				gets.Add(producers * perProducer)
				var producing sync.WaitGroup
				for p := range producers {
					producing.Go(func() {
						for i := range perProducer {
							q.Add(fmt.Sprintf("r%d-p%d-%d", r, p, i))
						}
					})
				}
				producing.Wait()
				gets.Wait() // every key handed out and Done: the queue is empty
				// A Done that found the lock busy is applied by the
				// lock's holder; Len takes the lock, so after it every
				// Done has been. A ConcurrentMetrics is told after the
				// unlock, so the holder may still be telling it: wait
				// for the counts (they must come, and never pass n).
				if n := q.Len(); n != 0 {
					t.Fatalf("round %d drained: Len() = %d", r, n)
				}
				n := (r + 1) * producers * perProducer
				got := m.get()
				for deadline := time.Now().Add(30 * time.Second); (got.Adds < n || len(got.Latencies) < n || len(got.Works) < n) && time.Now().Before(deadline); got = m.get() {
					runtime.Gosched()
				}
				if got.Adds != n || len(got.Latencies) != n || len(got.Works) != n {
					t.Fatalf("round %d: %d adds, %d latencies, %d work durations; want %d each", r, got.Adds, len(got.Latencies), len(got.Works), n)
				}
				if d := got.Depths[len(got.Depths)-1]; d != 0 {
					t.Fatalf("round %d drained: last depth %d", r, d)
				}
				if total, longest := q.UnfinishedWork(); total != 0 || longest != 0 {
					t.Fatalf("round %d drained: UnfinishedWork() = %v, %v", r, total, longest)
				}
			}
			q.ShutDown()
			working.Wait()
			if !noHandoff && q.hand.filled.Load() == 0 {
				t.Error("no key went through the hand-off")
			}
		})
	}
}

// TestHandoffMetricsHeldKeys: workers holding keys they took from the
// hand-off count in the unfinished work from the moment their Get took
// them, and the depth reported is the queue's Len.
func TestHandoffMetricsHeldKeys(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const workers = 8
		m := &recorder{}
		q := mustNew[string](t, Options{Metrics: m})
		queueKeys(q, maxOffer+8)
		release := make(chan struct{})
		var working sync.WaitGroup
		for range workers {
			working.Go(func() {
				k, err := q.Get(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				<-release
				q.Done(k)
			})
		}
		synctest.Wait()
		time.Sleep(3 * time.Second)
		if total, longest := q.UnfinishedWork(); total != workers*3*time.Second || longest != 3*time.Second {
			t.Errorf("UnfinishedWork() = %v, %v; want %v, %v", total, longest, workers*3*time.Second, 3*time.Second)
		}
		got := m.get()
		if d := got.Depths[len(got.Depths)-1]; d != q.Len() || d != maxOffer+8-workers {
			t.Errorf("last depth %d, Len() %d; want %d", d, q.Len(), maxOffer+8-workers)
		}
		if q.hand.filled.Load() == 0 {
			t.Error("no key went through the hand-off")
		}
		close(release)
		working.Wait()
		time.Sleep(time.Second)
		if total, longest := q.UnfinishedWork(); total != 0 || longest != 0 {
			t.Errorf("after Done: UnfinishedWork() = %v, %v", total, longest)
		}
		q.ShutDown()
	})
}

// depthReader is a recorder that reads the depth (DepthReader) instead
// of being told it.
type depthReader struct {
	recorder
	read func() int
}

func (r *depthReader) ReadDepthFrom(depth func() int) { r.read = depth }

// TestDepthReader: a DepthReader is given the depth once and never told
// it; what it reads is Len at every step, the keys waiting in the
// hand-off included, down to 0 once drained by concurrent workers.
func TestDepthReader(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := new(depthReader)
		q, err := New[string](Options{Metrics: m})
		if err != nil {
			t.Fatal(err)
		}
		if m.read == nil {
			t.Fatal("ReadDepthFrom was not called")
		}
		check := func(step string, want int) {
			t.Helper()
			if got, n := m.read(), q.Len(); got != want || n != want {
				t.Errorf("%s: depth read %d, Len %d, want %d", step, got, n, want)
			}
		}
		check("new", 0)
		queueKeys(q, maxOffer+8)
		check("queued", maxOffer+8)
		k, ok := tryGet(t, q) // the keys behind it are offered
		if !ok {
			t.Fatal("nothing queued")
		}
		check("one handed out, the next offered", maxOffer+7)
		q.Add(k) // processing: queued again on Done, not now
		check("added while processing", maxOffer+7)
		q.AddWithOptions("urgent", AddOptions{Priority: 10}) // recalls the offers
		check("a higher priority added", maxOffer+8)
		q.Done(k)
		check("done, queued again", maxOffer+9)
		got, stop := worker(q, time.Millisecond)
		time.Sleep(time.Second)
		stop()
		check("drained", 0)
		if n := len(got()); n != maxOffer+9 {
			t.Errorf("handed out %d keys, want %d", n, maxOffer+9)
		}
		if d := m.get().Depths; len(d) != 0 {
			t.Errorf("Depth was called %d times, want none", len(d))
		}
	})
}
