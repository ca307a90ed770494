package workqueue

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestSteadyStateAllocatesNothing: once the queue has held its keys,
// Add, Get and Done, and their parked-Get and delayed variants, allocate
// nothing.
func TestSteadyStateAllocatesNothing(t *testing.T) {
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = fmt.Sprintf("default/pod-%d", i)
	}
	q := mustNew[string](t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cycle := func() {
		for _, k := range keys {
			q.Add(k)
			q.Add(k)
		}
		for range keys {
			k, err := q.Get(ctx)
			if err != nil {
				t.Fatal(err)
			}
			q.Add(k) // again, while processing
			q.Done(k)
		}
		for range keys {
			k, _ := q.Get(ctx)
			q.Done(k)
		}
	}
	cycle()
	if n := testing.AllocsPerRun(20, cycle); n != 0 {
		t.Errorf("Add/Get/Done: %v allocations per %d keys", n, len(keys))
	}

	// A Get that parks (with a ctx already watched) and is woken.
	got := make(chan string)
	go func() {
		for {
			k, err := q.Get(ctx)
			if err != nil {
				return
			}
			q.Done(k)
			got <- k
		}
	}()
	parked := func() {
		for _, k := range keys[:100] {
			for q.parked() == 0 {
				time.Sleep(time.Microsecond)
			}
			q.Add(k)
			<-got
		}
	}
	parked()
	if n := testing.AllocsPerRun(10, parked); n != 0 {
		t.Errorf("parked Get woken by Add: %v allocations per 100 keys", n)
	}
}

// parked returns how many Gets are parked.
func (q *Queue[K]) parked() int {
	q.lock()
	defer q.unlock()
	return len(q.waiters)
}

func BenchmarkQueue(b *testing.B) {
	keys := make([]string, 10000)
	for i := range keys {
		keys[i] = fmt.Sprintf("default/pod-%d", i)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.Run("add-add-get-done", func(b *testing.B) {
		q := mustNew[string](b, Options{})
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			k := keys[i%len(keys)]
			q.Add(k)
			q.Add(k)
			k, _ = q.Get(ctx)
			q.Done(k)
		}
	})
	b.Run("parallel", func(b *testing.B) {
		q := mustNew[string](b, Options{})
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				k := keys[i%len(keys)]
				q.Add(k)
				k, _ = q.Get(ctx)
				q.Done(k)
			}
		})
	})
	b.Run("add-after", func(b *testing.B) {
		q := mustNew[string](b, Options{})
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			q.AddAfter(keys[i%len(keys)], time.Hour)
		}
		q.ShutDown()
	})
}
