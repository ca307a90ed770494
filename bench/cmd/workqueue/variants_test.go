package main

import (
	"io"
	"os"
	"testing"
)

// TestWorkloads runs every workload of -variants briefly on both queues,
// without metrics and with them: each burst must drain, every failing
// key come back, every key be handed out after its last add (check), and
// the gets per add be what the workload makes (one per add but for
// dedup, whose duplicates are absorbed). Throughput is not checked here:
// timing, which a test on a shared machine cannot promise.
func TestWorkloads(t *testing.T) {
	for _, metered := range []bool{false, true} {
		for _, wl := range workloads {
			name := wl.name
			if metered {
				name += "/metrics"
			}
			t.Run(name, func(t *testing.T) {
				cfg := config{workers: []int{1, 8, 64}, producers: 4, adds: 40_000, keys: 2000, rounds: 1, out: io.Discard, check: true, metrics: metered}
				if testing.Short() {
					cfg.adds = 10_000
				}
				if testing.Verbose() {
					cfg.out = os.Stdout
				}
				rows, err := runWorkload(cfg, wl)
				if err != nil {
					t.Fatal(err)
				}
				for _, w := range cfg.workers {
					for i, r := range rows[w] {
						low, high := 0.95, 1.0 // a key held across bursts absorbs a later add now and then
						if wl.name == "dedup" {
							low, high = 0.001, 0.9
						}
						if r.itemsPerSecond <= 0 || r.getsPerAdd < low || r.getsPerAdd > high {
							t.Errorf("%s, %d workers: %+v", sdks[i].name, w, r)
						}
					}
				}
			})
		}
	}
}

// TestStreamNeedsKeys: the stream workload refuses fewer keys than its
// producer may run ahead by twice, with which it could wait forever.
func TestStreamNeedsKeys(t *testing.T) {
	for _, wl := range workloads {
		if wl.steady {
			cfg := config{workers: []int{1}, producers: 1, adds: 1000, keys: streamAhead, rounds: 1, out: io.Discard}
			if _, err := runWorkload(cfg, wl); err == nil {
				t.Fatalf("%s with %d keys: no error", wl.name, cfg.keys)
			}
		}
	}
}
