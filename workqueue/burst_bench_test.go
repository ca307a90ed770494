package workqueue

import (
	"context"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// BenchmarkBursts is the workload of bench/cmd/workqueue in small: four
// producers add bursts of keys (each twice) while W workers Get and Done
// them, a burst drained before the next. It reports, besides ns per add,
// the process's CPU time per add (user + system), which a loaded machine
// moves less than wall time.
//
// The metrics/ runs record metrics into atomicMetrics, which costs about
// what Prometheus collectors do.
func BenchmarkBursts(b *testing.B) {
	const burst = 4000
	var keys [2][]string
	for i := range 2 * burst {
		keys[i%2] = append(keys[i%2], fmt.Sprintf("default/pod-%06d", i))
	}
	for _, workers := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) { benchBursts(b, keys, workers, Options{}) })
		b.Run(fmt.Sprintf("metrics/workers=%d", workers), func(b *testing.B) {
			benchBursts(b, keys, workers, Options{Metrics: new(atomicMetrics)})
		})
	}
}

func benchBursts(b *testing.B, keys [2][]string, workers int, opts Options) {
	const producers = 4
	burst := len(keys[0])
	q := mustNew[string](b, opts)
	ctx := context.Background()
	drained := make(chan struct{}, 1)
	var working sync.WaitGroup
	for range workers {
		working.Go(func() {
			for {
				k, err := q.Get(ctx)
				if err != nil {
					return
				}
				q.Done(k)
				if k == "end" {
					drained <- struct{}{}
				}
			}
		})
	}
	per := burst / producers
	bursts := max(1, b.N/(2*burst))
	cpu0 := cpuTime()
	b.ResetTimer()
	for n := range bursts {
		var producing sync.WaitGroup
		for p := range producers {
			producing.Go(func() {
				for _, k := range keys[n%2][p*per : (p+1)*per] {
					q.Add(k)
					q.Add(k)
				}
			})
		}
		producing.Wait()
		q.Add("end")
		<-drained
	}
	b.StopTimer()
	adds := float64(bursts * 2 * burst)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/adds, "ns/add")
	b.ReportMetric(float64(cpuTime()-cpu0)/adds, "cpu-ns/add")
	q.ShutDown()
	working.Wait()
}

// atomicMetrics counts what a Queue reports with atomic operations, as a
// Prometheus counter, gauge and histograms (one bucket per power of two
// of nanoseconds) would.
type atomicMetrics struct {
	adds, retries, depth atomic.Int64
	latency, work        atomicHistogram
}

type atomicHistogram struct {
	count, sum atomic.Int64
	buckets    [64]atomic.Int64
}

func (h *atomicHistogram) observe(d time.Duration) {
	h.buckets[bits.Len64(uint64(max(d, 0)))%64].Add(1)
	h.sum.Add(int64(d))
	h.count.Add(1)
}

func (m *atomicMetrics) Add()                         { m.adds.Add(1) }
func (m *atomicMetrics) Depth(n int)                  { m.depth.Store(int64(n)) }
func (m *atomicMetrics) QueueLatency(d time.Duration) { m.latency.observe(d) }
func (m *atomicMetrics) WorkDuration(d time.Duration) { m.work.observe(d) }
func (m *atomicMetrics) Retry()                       { m.retries.Add(1) }

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBurstSerial is one goroutine adding a burst of keys (each
// twice), then getting and finishing them: the queue's own cost per key,
// without contention, without metrics and with them. It reports CPU time
// per key.
func BenchmarkBurstSerial(b *testing.B) {
	b.Run("no-metrics", func(b *testing.B) { benchBurstSerial(b, Options{}) })
	b.Run("metrics", func(b *testing.B) { benchBurstSerial(b, Options{Metrics: new(atomicMetrics)}) })
}

func benchBurstSerial(b *testing.B, opts Options) {
	const burst = 10000
	keys := make([]string, burst)
	for i := range keys {
		keys[i] = fmt.Sprintf("default/pod-%06d", i)
	}
	q := mustNew[string](b, opts)
	ctx := context.Background()
	cpu0 := cpuTime()
	n := 0
	for b.Loop() {
		for _, k := range keys {
			q.Add(k)
			q.Add(k)
		}
		for range keys {
			k, _ := q.Get(ctx)
			q.Done(k)
		}
		n += burst
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(n), "cpu-ns/key")
}
