package workqueue

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestDepthReaderKeepsNoCounter: with a DepthReader, Adds and Gets (on
// the lock and through the hand-off) leave the shared depth counter
// untouched, while the depth read stays Len.
func TestDepthReaderKeepsNoCounter(t *testing.T) {
	m := new(depthReader)
	q := mustNew[string](t, Options{Metrics: m})
	queueKeys(q, maxOffer+8)
	for range 3 { // the first on the lock, the others from the hand-off
		k, ok := tryGet(t, q)
		if !ok {
			t.Fatal("nothing queued")
		}
		q.Done(k)
	}
	if got, want := m.read(), maxOffer+5; got != want {
		t.Errorf("depth read %d, want %d", got, want)
	}
	if n := q.tm.depth.n.Load(); n != 0 {
		t.Errorf("depth counter = %d, want 0 (never written for a DepthReader)", n)
	}
}

// TestDepthReaderDoesNotHoldQueue: the depth function a DepthReader
// keeps does not keep its queue alive, and reads 0 once it is gone.
func TestDepthReaderDoesNotHoldQueue(t *testing.T) {
	m := new(depthReader)
	var collected atomic.Bool
	func() {
		q := mustNew[string](t, Options{Metrics: m})
		queueKeys(q, 5)
		if got := m.read(); got != 5 {
			t.Fatalf("depth read %d, want 5", got)
		}
		runtime.AddCleanup(q, func(b *atomic.Bool) { b.Store(true) }, &collected)
	}()
	for i := 0; i < 100 && !collected.Load(); i++ {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if !collected.Load() {
		t.Fatal("the queue was not collected while its depth function was held")
	}
	if got := m.read(); got != 0 {
		t.Errorf("depth read %d after the queue was collected, want 0", got)
	}
}

// TestDepthReaderScrapedWhileWorking: reading the depth while producers
// and workers run neither deadlocks nor races (run with -race), never
// reads a negative or impossible depth, and reads 0 once all is done.
func TestDepthReaderScrapedWhileWorking(t *testing.T) {
	const producers, workers, keys = 4, 8, 2000
	m := new(depthReader)
	q := mustNew[string](t, Options{Metrics: m})
	var work, scrape sync.WaitGroup
	stop := make(chan struct{})
	scrape.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if d := m.read(); d < 0 || d > producers*keys {
				t.Errorf("depth read %d, outside [0, %d]", d, producers*keys)
				return
			}
		}
	})
	for p := range producers {
		work.Go(func() {
			for i := range keys {
				q.Add(fmt.Sprintf("%d-%d", p, i))
			}
		})
	}
	var handed atomic.Int64
	var workersDone sync.WaitGroup
	for range workers {
		workersDone.Go(func() {
			for {
				k, err := q.Get(t.Context())
				if err != nil {
					return
				}
				handed.Add(1)
				q.Done(k)
			}
		})
	}
	work.Wait()
	if err := q.ShutDownWithDrain(t.Context()); err != nil {
		t.Fatalf("ShutDownWithDrain: %v", err)
	}
	workersDone.Wait()
	close(stop)
	scrape.Wait()
	if n := handed.Load(); n != producers*keys {
		t.Errorf("handed out %d keys, want %d", n, producers*keys)
	}
	if got := m.read(); got != 0 {
		t.Errorf("depth read %d after the drain, want 0", got)
	}
}
