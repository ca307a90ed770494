// Command workqueue runs kubewire's workqueue and client-go's typed
// rate-limiting queue (k8s.io/client-go/util/workqueue, with its default
// controller rate limiter) side by side on the same workload and prints
// items per second and allocations per item with their ratios, and PASS
// or FAIL against the targets (throughput at least 2x client-go's,
// allocations at most half).
//
//	cd bench && go run ./cmd/workqueue -rounds 5
//	cd bench && go run ./cmd/workqueue -rounds 5 -metrics   # as a controller manager's queues run
//	cd bench && go run ./cmd/workqueue -variants all          # every workload (see variants.go)
//
// The workload, for each worker count W: one queue per run; W workers
// Get and Done keys with no work in between (what is measured is the
// queue), and P producers add bursts of keys, each key twice in a row
// (the second add is a duplicate of a key still queued, or now and then
// of one just handed out), as an informer's handlers do for the objects
// of a list. A burst is drained before the next one starts (a sentinel
// key added after it reaches a worker), so the queue holds at most one
// burst (bursts alternate between two sets of keys, so a key is never
// still in flight from the burst before; one a worker still holds from
// two bursts before, descheduled with many workers on few cores, absorbs
// the adds of the later burst, as a work queue must). An item is one
// Add; items per second are the adds of the run over its time, from the
// workers' start to their end after ShutDown. Allocations per item are
// runtime.MemStats Mallocs over the run divided by its adds (the harness
// allocates nothing per burst). gets/add shows how many adds became
// reconciles: 0.5 when every duplicate is absorbed (a little under when a
// held key absorbed a later burst's adds). cpu-ns/item is the process's
// CPU time over the run per add, and its ratio client-go's over
// kubewire's: on a machine shared with other work it moves less than
// items/s. mutex-wait-ns/item (time goroutines spent blocked on locks)
// and scheds/item (goroutines readied to run, as the runtime samples
// them) come from runtime/metrics, see proxies.go: load-independent
// proxies of contention and wakeups, with no target. With -metrics both queues record Prometheus workqueue series
// (see metered.go). The SDKs alternate
// run by run, and each figure is the median of the rounds.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"
)

// Targets of the work queue issue.
const (
	targetThroughput  = 2.0 // kubewire items/s over client-go's, at least
	targetAllocations = 0.5 // kubewire allocations per item over client-go's, at most
)

type config struct {
	workers   []int
	producers int
	adds      int // per run, over all producers
	keys      int
	rounds    int
	out       io.Writer
	// check records, per key, the last burst that added it and the last
	// one a Get saw, and fails a run in which a key was not handed out
	// after its last add (an earlier add can be absorbed by a later one
	// while a worker holds the key, so only the last is exact). For
	// tests: it costs an atomic operation or two per add and per get.
	check bool
	// metrics makes each queue record controller-runtime's workqueue
	// series (see metered.go).
	metrics bool
}

// result is one run of one SDK.
type result struct {
	seconds float64
	adds    int
	gets    int // items handed out: fewer than adds, by the duplicates
	mallocs uint64
	cpu     time.Duration // the process's CPU time (user + system) over the run
	proxies proxies       // mutex wait and goroutine schedulings over the run
}

func (r result) itemsPerSecond() float64 { return float64(r.adds) / r.seconds }
func (r result) allocsPerItem() float64  { return float64(r.mallocs) / float64(r.adds) }
func (r result) cpuPerItem() float64     { return float64(r.cpu.Nanoseconds()) / float64(r.adds) }
func (r result) mutexWaitPerItem() float64 {
	return float64(r.proxies.mutexWait.Nanoseconds()) / float64(r.adds)
}
func (r result) schedsPerItem() float64 { return float64(r.proxies.scheds) / float64(r.adds) }

// row is the median figures of one SDK at one worker count.
type row struct {
	itemsPerSecond, allocsPerItem, getsPerAdd float64
	// cpuPerItem is CPU nanoseconds per add: on a machine shared with
	// other work it moves less than items/s (no target: informational).
	cpuPerItem float64
	// mutexWaitPerItem is nanoseconds goroutines spent blocked on a lock
	// per add, schedsPerItem goroutine schedulings (wakeups) per add
	// (sampled by the runtime: relative; informational, see proxies.go).
	mutexWaitPerItem, schedsPerItem float64
}

func main() {
	workers := flag.String("workers", "1,8,64", "worker counts, comma-separated")
	producers := flag.Int("producers", 4, "goroutines adding keys")
	adds := flag.Int("adds", 2_000_000, "adds per run, over all producers (rounded to whole bursts)")
	keys := flag.Int("keys", 10000, "keys per burst, split between the producers; each is added twice")
	rounds := flag.Int("rounds", 3, "runs per SDK and worker count; the median is reported")
	quick := flag.Bool("quick", false, "smoke test: 100,000 adds per run, one round")
	only := flag.String("only", "", "run only this SDK (kubewire or client-go), for profiling")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the runs to this file")
	memProfile := flag.String("memprofile", "", "write an allocation profile of the runs to this file")
	traceFile := flag.String("trace", "", "write a runtime execution trace of the runs to this file (where goroutines park and wake)")
	metered := flag.Bool("metrics", false, "queues record Prometheus workqueue metrics, as a controller manager's do")
	variants := flag.String("variants", "burst", "workloads, comma-separated: burst (the default), list, readd, retry, dedup, stream, or all")
	flag.Parse()
	if *variants == "all" {
		*variants = "burst,list,readd,retry,dedup,stream"
	}
	cfg := config{producers: *producers, adds: *adds, keys: *keys, rounds: *rounds, out: os.Stdout, metrics: *metered}
	if *quick {
		cfg.adds, cfg.rounds = 100_000, 1
	}
	for _, w := range strings.Split(*workers, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "workqueue: bad worker count %q\n", w)
			os.Exit(2)
		}
		cfg.workers = append(cfg.workers, n)
	}
	if *only != "" {
		sdks = slices.DeleteFunc(sdks, func(s sdk) bool { return s.name != *only })
		if len(sdks) == 0 {
			fmt.Fprintf(os.Stderr, "workqueue: unknown SDK %q\n", *only)
			os.Exit(2)
		}
	}
	if *memProfile != "" {
		runtime.MemProfileRate = 1
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "workqueue:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *traceFile != "" {
		f, err := os.Create(*traceFile)
		if err == nil {
			err = trace.Start(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "workqueue:", err)
			os.Exit(1)
		}
		defer trace.Stop()
	}
	if *memProfile != "" {
		defer func() {
			f, err := os.Create(*memProfile)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "workqueue:", err)
			}
		}()
	}
	for n, name := range strings.Split(*variants, ",") {
		if n > 0 {
			fmt.Fprintln(cfg.out)
		}
		var err error
		switch name = strings.TrimSpace(name); name {
		case "burst":
			_, err = run(cfg)
		default:
			i := slices.IndexFunc(workloads, func(wl workload) bool { return wl.name == name })
			if i < 0 {
				err = fmt.Errorf("unknown workload %q", name)
				break
			}
			_, err = runWorkload(cfg, workloads[i])
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "workqueue:", err)
			os.Exit(1)
		}
	}
}

// run measures every worker count and prints the table; it returns the
// rows by worker count, kubewire's first.
func run(cfg config) (map[int][2]row, error) {
	if cfg.producers < 1 || cfg.keys < cfg.producers || cfg.adds < 1 || cfg.rounds < 1 {
		return nil, fmt.Errorf("bad config: %d producers, %d adds, %d keys, %d rounds", cfg.producers, cfg.adds, cfg.keys, cfg.rounds)
	}
	var keys [2][]string
	for i := range 2 * cfg.keys {
		keys[i%2] = append(keys[i%2], fmt.Sprintf("default/pod-%06d", i))
	}
	withMetrics := "no metrics"
	if cfg.metrics {
		withMetrics = "Prometheus workqueue metrics on"
	}
	fmt.Fprintf(cfg.out, "%d producers adding bursts of %d keys (each twice), %d adds per run, no work per item, %s; %s, GOMAXPROCS %d, median of %d rounds\n\n",
		cfg.producers, cfg.keys, max(1, cfg.adds/(2*cfg.keys))*2*(cfg.keys/cfg.producers*cfg.producers), withMetrics, runtime.Version(), runtime.GOMAXPROCS(0), cfg.rounds)
	rows := map[int][2]row{}
	tw := tabwriter.NewWriter(cfg.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workers\tfigure\tkubewire\tclient-go\tratio\ttarget\t\t")
	for _, w := range cfg.workers {
		runs := make([][]result, len(sdks))
		for r := range cfg.rounds {
			for i := range sdks {
				s := (i + r) % len(sdks) // alternate which SDK goes first
				res, err := measure(sdks[s], keys, w, cfg)
				if err != nil {
					return nil, err
				}
				if res.gets == 0 || res.gets > res.adds {
					return nil, fmt.Errorf("%s, %d workers: %d gets for %d adds", sdks[s].name, w, res.gets, res.adds)
				}
				runs[s] = append(runs[s], res)
			}
		}
		if len(sdks) == 1 { // -only: no comparison
			m := medians(runs[0])
			fmt.Fprintf(tw, "%d\titems/s\t%.0f\t\t\t\t\t\n%d\tallocs/item\t%.4f\t\t\t\t\t\n%d\tgets/add\t%.3f\t\t\t\t\t\n",
				w, m.itemsPerSecond, w, m.allocsPerItem, w, m.getsPerAdd)
			printProxies(tw, w, m, nil)
			continue
		}
		kw, cg := medians(runs[0]), medians(runs[1])
		rows[w] = [2]row{kw, cg}
		printRows(tw, w, kw, cg)
	}
	tw.Flush()
	return rows, nil
}

// printRows prints the figures of both SDKs at w workers, with their
// ratios and verdicts.
func printRows(tw io.Writer, w int, kw, cg row) {
	tput, allocs := kw.itemsPerSecond/cg.itemsPerSecond, ratio(kw.allocsPerItem, cg.allocsPerItem)
	fmt.Fprintf(tw, "%d\titems/s\t%.0f\t%.0f\t%.2f\t≥ %.1f\t%s\t\n", w, kw.itemsPerSecond, cg.itemsPerSecond, tput, targetThroughput, verdict(tput >= targetThroughput))
	fmt.Fprintf(tw, "%d\tallocs/item\t%.4f\t%.4f\t%.2f\t≤ %.1f\t%s\t\n", w, kw.allocsPerItem, cg.allocsPerItem, allocs, targetAllocations, verdict(allocs <= targetAllocations))
	fmt.Fprintf(tw, "%d\tgets/add\t%.3f\t%.3f\t\t\t\t\n", w, kw.getsPerAdd, cg.getsPerAdd)
	fmt.Fprintf(tw, "%d\tcpu-ns/item\t%.0f\t%.0f\t%.2f\t\t\t\n", w, kw.cpuPerItem, cg.cpuPerItem, cg.cpuPerItem/kw.cpuPerItem)
	printProxies(tw, w, kw, &cg)
}

// printProxies prints the runtime/metrics proxies of kw and, if not
// nil, of cg.
func printProxies(tw io.Writer, w int, kw row, cg *row) {
	if cg == nil {
		fmt.Fprintf(tw, "%d\tcpu-ns/item\t%.0f\t\t\t\t\t\n", w, kw.cpuPerItem)
		fmt.Fprintf(tw, "%d\tmutex-wait-ns/item\t%.1f\t\t\t\t\t\n", w, kw.mutexWaitPerItem)
		fmt.Fprintf(tw, "%d\tscheds/item\t%.3f\t\t\t\t\t\n", w, kw.schedsPerItem)
		return
	}
	fmt.Fprintf(tw, "%d\tmutex-wait-ns/item\t%.1f\t%.1f\t\t\t\t\n", w, kw.mutexWaitPerItem, cg.mutexWaitPerItem)
	fmt.Fprintf(tw, "%d\tscheds/item\t%.3f\t%.3f\t\t\t\t\n", w, kw.schedsPerItem, cg.schedsPerItem)
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ratio is a/b, 0 when both are 0 (neither allocates).
func ratio(a, b float64) float64 {
	if a == 0 && b == 0 {
		return 0
	}
	return a / b
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func medians(rs []result) row {
	var tput, allocs, gets, cpu, wait, scheds []float64
	for _, r := range rs {
		tput = append(tput, r.itemsPerSecond())
		allocs = append(allocs, r.allocsPerItem())
		gets = append(gets, float64(r.gets)/float64(r.adds))
		cpu = append(cpu, r.cpuPerItem())
		wait = append(wait, r.mutexWaitPerItem())
		scheds = append(scheds, r.schedsPerItem())
	}
	return row{median(tput), median(allocs), median(gets), median(cpu), median(wait), median(scheds)}
}

func median(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

// counter is a count one goroutine adds to and another reads, alone on
// its cache line so that the workload's bookkeeping does not contend.
type counter struct {
	n atomic.Int64
	_ [56]byte
}

func sum(cs []counter) int64 {
	var n int64
	for i := range cs {
		n += cs[i].n.Load()
	}
	return n
}

// sentinel marks the end of a burst: main adds it once the producers
// are done, and the worker that gets it (every key of the burst queued
// before it has then been handed out, the queues being FIFO) tells main.
// An event rather than main polling the workers' counters: on two cores
// a polling loop takes a core's share from the goroutines measured (a
// CPU profile of the one-worker run had 45% of the process's time in it,
// scheduling itself and reading the clock).
const sentinel = "burst-done"

// keyIndex is the i of a key "default/pod-%06d" made by run.
func keyIndex(k string) int {
	i, _ := strconv.Atoi(k[len("default/pod-"):])
	return i
}

// measure runs the workload once on a fresh queue of s: bursts of adds,
// each drained before the next. Bursts alternate between two sets of
// keys, so that a burst's keys are never those of the burst before,
// which may still be finishing (a duplicate add of a key being processed
// queues it again behind the sentinel).
func measure(s sdk, keys [2][]string, workers int, cfg config) (result, error) {
	q := s.queueOf(cfg.metrics)
	burst := len(keys[0])
	bursts := max(1, cfg.adds/(2*burst))
	per := burst / cfg.producers
	gets := make([]counter, workers)
	var added, handed []atomic.Int32 // per key index (check): a burst's number + 1
	if cfg.check {
		added, handed = make([]atomic.Int32, 2*burst), make([]atomic.Int32, 2*burst)
	}
	drained := make(chan struct{}, 1)
	var working sync.WaitGroup
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0, proxies0 := cpuTime(), readProxies()
	start := time.Now()
	for w := range workers {
		working.Go(func() {
			for {
				k, ok := q.Get()
				if !ok {
					return
				}
				if cfg.check && k != sentinel {
					// Gets of one key are serialized by Done, and added
					// only grows: handed only grows too.
					i := keyIndex(k)
					handed[i].Store(added[i].Load())
				}
				q.Done(k)
				if len(k) == len(sentinel) && k == sentinel {
					drained <- struct{}{}
					continue
				}
				gets[w].n.Add(1)
			}
		})
	}
	// Producers live for the whole run (goroutines made per burst would
	// add the harness's allocations to the queue's).
	var producing sync.WaitGroup
	starts := make([]chan int, cfg.producers)
	for p := range starts {
		starts[p] = make(chan int)
		go func() {
			for b := range starts[p] {
				for j, k := range keys[b%2][p*per : (p+1)*per] {
					if cfg.check {
						added[2*(p*per+j)+b%2].Store(int32(b + 1))
					}
					q.Add(k)
					q.Add(k) // a duplicate: the key is still queued (or, rarely, just handed out)
				}
				producing.Done()
			}
		}()
	}
	defer func() {
		for _, c := range starts {
			close(c)
		}
	}()
	stuck := time.NewTimer(time.Hour)
	defer stuck.Stop()
	for b := range bursts {
		producing.Add(cfg.producers)
		for _, c := range starts {
			c <- b
		}
		producing.Wait()
		q.Add(sentinel)
		stuck.Reset(10 * time.Second)
		select {
		case <-drained:
		case <-stuck.C:
			q.ShutDown()
			return result{}, fmt.Errorf("%s: burst %d not drained after 10s (%d gets)", s.name, b, sum(gets))
		}
	}
	q.ShutDown()
	working.Wait()
	elapsed := time.Since(start)
	cpu, proxies := cpuTime()-cpu0, readProxies().since(proxies0)
	runtime.ReadMemStats(&after)
	for i := range added {
		if a, h := added[i].Load(), handed[i].Load(); a != h {
			return result{}, fmt.Errorf("%s, %d workers: key %d added in burst %d, last handed out for burst %d", s.name, workers, i, a-1, h-1)
		}
	}
	return result{seconds: elapsed.Seconds(), adds: bursts * 2 * per * cfg.producers, gets: int(sum(gets)), mallocs: after.Mallocs - before.Mallocs, cpu: cpu, proxies: proxies}, nil
}
