package workqueue

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"
)

// The paths a controller takes besides plain adds: its initial list
// queued below priority 0, Forget after each success while some key has
// a backoff, and a failure retried at once. ns/op is per key.
//
//	go test -run - -bench 'List|Forget|Retry' -cpu 1,2 ./workqueue

// BenchmarkListDrain queues a list of keys at LowPriority, then takes
// them with Get and Done on one goroutine.
func BenchmarkListDrain(b *testing.B) {
	keys := benchKeys(1000)
	q := mustNew[string](b, Options{})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range keys {
			q.AddWithOptions(k, AddOptions{Priority: LowPriority})
		}
		for range keys {
			k, _ := q.Get(ctx)
			q.Done(k)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
}

// BenchmarkForgetSucceeded calls Forget for keys without a backoff from
// every goroutine while one key has a backoff.
func BenchmarkForgetSucceeded(b *testing.B) {
	keys := benchKeys(1024)
	q := mustNew[string](b, Options{BaseDelay: time.Hour, QPS: math.Inf(1)})
	defer q.ShutDown()
	q.AddRateLimited("failing")
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			q.Forget(keys[i%len(keys)])
			i++
		}
	})
	if q.NumRequeues("failing") != 1 {
		b.Fatal("Forget of other keys cleared a backoff")
	}
}

// BenchmarkRetryCycle: a key fails once with a nanosecond backoff and
// succeeds on its retry: Get, AddRateLimited, Done, Get, Forget, Done.
func BenchmarkRetryCycle(b *testing.B) {
	keys := benchKeys(1000)
	q := mustNew[string](b, Options{BaseDelay: time.Nanosecond, QPS: math.Inf(1)})
	defer q.ShutDown()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range keys {
			q.Add(k)
		}
		for range keys {
			k, _ := q.Get(ctx)
			q.AddRateLimited(k)
			q.Done(k)
		}
		for range keys {
			k, _ := q.Get(ctx)
			q.Forget(k)
			q.Done(k)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
}

func benchKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("default/pod-%06d", i)
	}
	return keys
}

// BenchmarkAddQueued adds keys already queued, on one goroutine: what a
// duplicate Add costs without contention (the dedup workload's most
// common call).
func BenchmarkAddQueued(b *testing.B) {
	keys := benchKeys(200)
	q := mustNew[string](b, Options{})
	for _, k := range keys {
		q.Add(k)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, k := range keys {
			q.Add(k)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(keys)), "ns/key")
}
