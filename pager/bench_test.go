package pager

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kubewire/kubewire/client"
)

// spin keeps the CPU busy for d, as a caller's work on an item does.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// timeList ranges over every item with the given read-ahead, spending
// work per item, and returns how long it took.
func timeList[T client.Object](b *testing.B, list ListFunc[T], readAhead int, work time.Duration) time.Duration {
	start := time.Now()
	n := 0
	for _, err := range mustNew(b, list, Options{ReadAhead: readAhead}).Items(context.Background()) {
		if err != nil {
			b.Fatal(err)
		}
		n++
		spin(work)
	}
	if n == 0 {
		b.Fatal("no items")
	}
	return time.Since(start)
}

// sideBySide lists with read-ahead off, 1 and 3 in each round and reports
// the three times per list and the speed-up of read-ahead 1 over none.
func sideBySide[T client.Object](b *testing.B, list ListFunc[T], work time.Duration) {
	var off, one, three time.Duration
	for b.Loop() {
		off += timeList(b, list, ReadAheadOff, work)
		one += timeList(b, list, 1, work)
		three += timeList(b, list, 3, work)
	}
	n := float64(b.N)
	b.ReportMetric(float64(off)/1e6/n, "off-ms/list")
	b.ReportMetric(float64(one)/1e6/n, "readahead1-ms/list")
	b.ReportMetric(float64(three)/1e6/n, "readahead3-ms/list")
	b.ReportMetric(float64(off)/float64(one), "speedup-x")
}

// BenchmarkReadAhead lists 10,000 objects in 20 pages from a list
// function with a latency per page, while the caller spends some time
// on each item: read-ahead overlaps the two.
func BenchmarkReadAhead(b *testing.B) {
	for _, latency := range []time.Duration{0, time.Millisecond, 5 * time.Millisecond} {
		for _, perPage := range []time.Duration{200 * time.Microsecond, time.Millisecond, 5 * time.Millisecond} {
			b.Run(fmt.Sprintf("latency=%v/work=%v", latency, perPage), func(b *testing.B) {
				m := &memList{n: 10_000, quiet: true}
				list := func(ctx context.Context, o client.ListOptions) (*client.List[obj], error) {
					if latency > 0 {
						time.Sleep(latency)
					}
					return m.list(ctx, o)
				}
				sideBySide(b, list, perPage/DefaultPageSize)
			})
		}
	}
}

// BenchmarkReadAheadFake lists 5,000 ConfigMaps (protobuf) from the fake
// API server over HTTP in 10 pages, the server adding latency to each
// request, while the caller spends some time per page: read-ahead
// overlaps the waiting and the decoding with the caller's work. The
// server runs in the same process, so it competes for the CPU.
func BenchmarkReadAheadFake(b *testing.B) {
	cl := startCluster(b, false, 5_000, client.Config{})
	for _, latency := range []time.Duration{0, 2 * time.Millisecond} {
		for _, perPage := range []time.Duration{time.Millisecond, 5 * time.Millisecond} {
			b.Run(fmt.Sprintf("latency=%v/work=%v", latency, perPage), func(b *testing.B) {
				cl.srv.Faults().SetLatency(latency)
				sideBySide(b, cl.typed().List, perPage/DefaultPageSize)
			})
		}
	}
}
