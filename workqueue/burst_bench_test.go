package workqueue

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BenchmarkBursts is the workload of bench/cmd/workqueue in small: four
// producers add bursts of keys (each twice) while W workers Get and Done
// them, a burst drained before the next. It reports, besides ns per add,
// the process's CPU time per add (user + system), which a loaded machine
// moves less than wall time.
func BenchmarkBursts(b *testing.B) {
	const producers, burst = 4, 4000
	var keys [2][]string
	for i := range 2 * burst {
		keys[i%2] = append(keys[i%2], fmt.Sprintf("default/pod-%06d", i))
	}
	for _, workers := range []int{1, 8, 64} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			q := mustNew[string](b, Options{})
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
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkBurstSerial is one goroutine adding a burst of keys (each
// twice), then getting and finishing them: the queue's own cost per key,
// without contention. It reports CPU time per key.
func BenchmarkBurstSerial(b *testing.B) {
	const burst = 10000
	keys := make([]string, burst)
	for i := range keys {
		keys[i] = fmt.Sprintf("default/pod-%06d", i)
	}
	q := mustNew[string](b, Options{})
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
