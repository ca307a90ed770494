package metrics

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkObserve compares, side by side, an observation into
// client_golang's histogram and into this package's sharded one with
// the work queue's options, from GOMAXPROCS goroutines and from 32 per
// P (64 on 2 cores, the bench's most workers). Run with -cpu 1,2.
func BenchmarkObserve(b *testing.B) {
	for _, perP := range []int{1, 32} {
		for _, kind := range []string{"client_golang", "sharded"} {
			b.Run(kind+"/goroutines-per-P-"+fmt.Sprint(perP), func(b *testing.B) {
				tw := newTwins(1.1, 0)
				observe := tw.want.Observe
				if kind == "sharded" {
					observe = tw.got.Observe
				}
				b.SetParallelism(perP)
				b.RunParallel(func(pb *testing.PB) {
					rng := rand.New(rand.NewPCG(rand.Uint64(), 0))
					// Queue latencies and work durations: 1 µs to 10 ms.
					values := make([]float64, 1024)
					for i := range values {
						values[i] = 1e-6 * float64(1+rng.IntN(10000))
					}
					i := 0
					for pb.Next() {
						observe(values[i&1023])
						i++
					}
				})
			})
		}
	}
}

// BenchmarkInc compares a client_golang counter's Inc with the sharded
// counter's, as BenchmarkObserve does.
func BenchmarkInc(b *testing.B) {
	for _, perP := range []int{1, 32} {
		for _, kind := range []string{"client_golang", "sharded"} {
			b.Run(kind+"/goroutines-per-P-"+fmt.Sprint(perP), func(b *testing.B) {
				var inc func()
				if kind == "sharded" {
					inc = newCounter(testCounterDesc(), "q").Inc
				} else {
					inc = testClientCounter().Inc
				}
				b.SetParallelism(perP)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						inc()
					}
				})
			})
		}
	}
}
