package main

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

// A workload is one way controllers use a queue, run on both SDKs with
// the same calls (-variants). The default workload (measure) is "burst".
// Each runs in bursts of the run's keys as measure does (alternating
// between two sets; a sentinel added after a burst ends it), except
// stream, whose one producer never waits for the workers. An item is one
// add of any kind (Add, AddLow, AddRateLimited), by producers or workers.
type workload struct {
	name, about string
	// produce is producer p's adds of burst b: stamp(i) before adding
	// the key of index i, and the count of adds made.
	produce func(q queue, keys []string, per, p, b int, stamp func(i int)) int
	// work is what a worker does with key i before Done, the first time
	// it is handed out in its burst (first) or after; it returns how many
	// adds it made.
	work func(q queue, k string, i int, first bool) int
	// retried reports whether key i fails once in each burst: the burst
	// ends once each such key was handed out again (after the sentinel,
	// the retries being delayed).
	retried func(i int) bool
	// lowSentinel: the sentinel is added as the burst's keys are
	// (AddLow), so that it comes after them.
	lowSentinel bool
	retrying    bool // queues with a 1 ns backoff and no bucket
	steady      bool // one producer adds every burst without waiting
}

// retryEvery: in the retry workload one key in retryEvery fails once.
const retryEvery = 10

// retries reports whether key i fails once per burst in the retry
// workload.
func retries(i int) bool { return (i>>1)%retryEvery == 0 }

// hotShare: in the dedup workload the producers add keys of a hot set
// this many times smaller than a burst.
const hotShare = 50

var workloads = []workload{
	{
		name:  "list",
		about: "an informer's initial list or a resync: each key added once below priority 0 (kubewire workqueue.LowPriority, as package controller adds them; client-go Add)",
		produce: func(q queue, keys []string, per, p, b int, stamp func(int)) int {
			for j, k := range keys[p*per : (p+1)*per] {
				stamp(2*(p*per+j) + b%2)
				q.AddLow(k)
			}
			return per
		},
		lowSentinel: true,
	},
	{
		name:  "readd",
		about: "each key added once; every other key is added again by its worker while processing it (queued again after Done, then handed out a second time)",
		produce: func(q queue, keys []string, per, p, b int, stamp func(int)) int {
			for j, k := range keys[p*per : (p+1)*per] {
				stamp(2*(p*per+j) + b%2)
				q.Add(k)
			}
			return per
		},
		work: func(q queue, k string, i int, first bool) int {
			if first && (i>>1)%2 == 0 {
				q.Add(k)
				return 1
			}
			return 0
		},
	},
	{
		name:  "retry",
		about: fmt.Sprintf("each key added once; one in %d fails once: AddRateLimited (1 ns base backoff, no overall bucket), and Forget after its retry succeeds; Forget after every success, as a controller's worker does", retryEvery),
		produce: func(q queue, keys []string, per, p, b int, stamp func(int)) int {
			for j, k := range keys[p*per : (p+1)*per] {
				stamp(2*(p*per+j) + b%2)
				q.Add(k)
			}
			return per
		},
		work: func(q queue, k string, i int, first bool) int {
			if first && retries(i) {
				q.AddRateLimited(k)
				return 1
			}
			q.Forget(k)
			return 0
		},
		retried:  retries,
		retrying: true,
	},
	{
		name:  "dedup",
		about: fmt.Sprintf("every producer adds keys of the same hot set (1/%d of a burst), as many adds per burst as it has keys: most adds find the key queued or processing", hotShare),
		produce: func(q queue, keys []string, per, p, b int, stamp func(int)) int {
			hot := max(1, len(keys)/hotShare)
			for j := range per {
				h := (j + p*hot/4) % hot
				stamp(2*h + b%2)
				q.Add(keys[h])
			}
			return per
		},
	},
	{
		name:  "stream",
		about: fmt.Sprintf("one producer adds distinct keys one after another while the workers take them, at most %d ahead of them (no bursts, no pre-filled queue, as an informer delivers events): each add may wake a parked worker", streamAhead),
		produce: func(q queue, keys []string, per, p, b int, stamp func(int)) int {
			for j, k := range keys {
				stamp(2*j + b%2)
				q.Add(k)
			}
			return len(keys)
		},
		steady: true,
	},
}

// streamAhead is how many keys the stream workload's producer adds ahead
// of the workers' gets at most, in steps of streamStep: the workers give
// the producer a token every streamStep gets, and the producer waits for
// one every streamStep adds (parked, not spinning, so that it takes no
// core from the workers).
const streamAhead, streamStep = 256, 32

// pacer holds the stream workload's producer back.
type pacer struct {
	gets   atomic.Int64
	tokens chan struct{}
}

func newPacer() *pacer {
	p := &pacer{tokens: make(chan struct{}, 1<<16)}
	for range streamAhead / streamStep {
		p.tokens <- struct{}{}
	}
	return p
}

// got counts a get.
func (p *pacer) got() {
	if p.gets.Add(1)%streamStep == 0 {
		p.tokens <- struct{}{}
	}
}

// stamp is the stamp of burst b, waiting for a token every streamStep
// adds; n counts the adds of the run.
func (p *pacer) stamp(added []atomic.Int32, b int, track bool, n *int) func(int) {
	return func(i int) {
		if track {
			added[i].Store(int32(b + 1))
		}
		if *n++; *n%streamStep == 0 {
			<-p.tokens
		}
	}
}

// runWorkload is run for workload wl.
func runWorkload(cfg config, wl workload) (map[int][2]row, error) {
	if cfg.producers < 1 || cfg.keys < cfg.producers || cfg.adds < 1 || cfg.rounds < 1 {
		return nil, fmt.Errorf("bad config: %d producers, %d adds, %d keys, %d rounds", cfg.producers, cfg.adds, cfg.keys, cfg.rounds)
	}
	if wl.steady && cfg.keys < 2*streamAhead {
		// Fewer keys than that and adds are absorbed by keys still
		// queued, so the gets may never catch up with the producer.
		return nil, fmt.Errorf("workload %s needs at least %d keys", wl.name, 2*streamAhead)
	}
	var keys [2][]string
	for i := range 2 * cfg.keys {
		keys[i%2] = append(keys[i%2], fmt.Sprintf("default/pod-%06d", i))
	}
	withMetrics := "no metrics"
	if cfg.metrics {
		withMetrics = "Prometheus workqueue metrics on"
	}
	producers := cfg.producers
	if wl.steady {
		producers = 1
	}
	fmt.Fprintf(cfg.out, "workload %s: %s.\n%d producers, bursts of %d keys, about %d adds per run, no work per item, %s; %s, GOMAXPROCS %d, median of %d rounds\n\n",
		wl.name, wl.about, producers, cfg.keys, cfg.adds, withMetrics, runtime.Version(), runtime.GOMAXPROCS(0), cfg.rounds)
	rows := map[int][2]row{}
	tw := tabwriter.NewWriter(cfg.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "workers\tfigure\tkubewire\tclient-go\tratio\ttarget\t\t")
	for _, w := range cfg.workers {
		runs := make([][]result, len(sdks))
		for r := range cfg.rounds {
			for i := range sdks {
				s := (i + r) % len(sdks)
				res, err := measureWorkload(sdks[s], wl, keys, w, producers, cfg)
				if err != nil {
					return nil, err
				}
				if res.gets == 0 || res.gets > res.adds {
					return nil, fmt.Errorf("%s %s, %d workers: %d gets for %d adds", wl.name, sdks[s].name, w, res.gets, res.adds)
				}
				runs[s] = append(runs[s], res)
			}
		}
		if len(sdks) == 1 {
			m := medians(runs[0])
			fmt.Fprintf(tw, "%d\titems/s\t%.0f\t\t\t\t\t\n%d\tgets/add\t%.3f\t\t\t\t\t\n", w, m.itemsPerSecond, w, m.getsPerAdd)
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

// measureWorkload runs wl once on a fresh queue of s with workers
// workers and the given number of producers.
func measureWorkload(s sdk, wl workload, keys [2][]string, workers, producers int, cfg config) (result, error) {
	var q queue
	if wl.retrying {
		q = s.retrying(cfg.metrics)
	} else {
		q = s.queueOf(cfg.metrics)
	}
	burst := len(keys[0])
	bursts := max(1, cfg.adds/burst)
	per := burst / producers
	// added is, per key index, the number (+1) of the last burst that
	// added it; seen the last burst whose key a worker took first (a
	// workload's first handing out); handed (check) the one the last Get
	// saw.
	added, seen := make([]atomic.Int32, 2*burst), make([]atomic.Int32, 2*burst)
	// track: the burst numbers of the adds are needed, by the workers'
	// work or by the check.
	track := wl.work != nil || cfg.check
	var handed []atomic.Int32
	if cfg.check {
		handed = make([]atomic.Int32, 2*burst)
	}
	gets, workerAdds := make([]counter, workers), make([]counter, workers)
	// succeeded is, per key index, the burst (+1) of the last handing out
	// after the first (the retry workload's success).
	succeeded := make([]atomic.Int32, 2*burst)
	drained := make(chan struct{}, 1)
	var pace *pacer
	if wl.steady {
		pace = newPacer()
	}
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
				if len(k) == len(sentinel) && k == sentinel {
					q.Done(k)
					drained <- struct{}{}
					continue
				}
				if !track {
					q.Done(k)
					gets[w].n.Add(1)
					if pace != nil {
						pace.got()
					}
					continue
				}
				i := keyIndex(k)
				a := added[i].Load()
				if cfg.check {
					handed[i].Store(a)
				}
				if wl.work != nil {
					first := seen[i].Swap(a) != a
					workerAdds[w].n.Add(int64(wl.work(q, k, i, first)))
					if !first {
						succeeded[i].Store(a)
					}
				}
				q.Done(k)
				gets[w].n.Add(1)
				if pace != nil {
					pace.got()
				}
			}
		})
	}
	var producing sync.WaitGroup
	var produced atomic.Int64
	paced := 0 // adds of the stream workload's one producer
	starts := make([]chan int, producers)
	for p := range starts {
		starts[p] = make(chan int)
		go func() {
			for b := range starts[p] {
				stamp := func(i int) { added[i].Store(int32(b + 1)) }
				if !track {
					// Not measured: producers adding one hot set would
					// contend for its stamps' cache lines.
					stamp = func(int) {}
				}
				if pace != nil {
					stamp = pace.stamp(added, b, track, &paced)
				}
				n := wl.produce(q, keys[b%2], per, p, b, stamp)
				produced.Add(int64(n))
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
	endBurst := func(b int) error {
		if wl.lowSentinel {
			q.AddLow(sentinel)
		} else {
			q.Add(sentinel)
		}
		stuck.Reset(10 * time.Second)
		select {
		case <-drained:
		case <-stuck.C:
			q.ShutDown()
			return fmt.Errorf("%s %s: burst %d not drained after 10s (%d gets)", wl.name, s.name, b, sum(gets))
		}
		// Retries come back after the sentinel: wait for them (a sleep,
		// so as not to take a core from the workers). Per key, not by a
		// count: a worker descheduled after its Get may make its key's
		// first call after the sentinel, even in a later burst.
		if wl.retried == nil {
			return nil
		}
		for deadline, i := time.Now().Add(10*time.Second), b%2; i < 2*burst; i += 2 {
			for wl.retried(i) && succeeded[i].Load() != int32(b+1) {
				if time.Now().After(deadline) {
					q.ShutDown()
					return fmt.Errorf("%s %s: key %d of burst %d not retried after 10s", wl.name, s.name, i, b)
				}
				time.Sleep(20 * time.Microsecond)
			}
		}
		return nil
	}
	for b := range bursts {
		producing.Add(producers)
		for _, c := range starts {
			c <- b
		}
		producing.Wait()
		if wl.steady && b < bursts-1 {
			continue
		}
		if err := endBurst(b); err != nil {
			return result{}, err
		}
	}
	q.ShutDown()
	working.Wait()
	elapsed := time.Since(start)
	cpu, proxies := cpuTime()-cpu0, readProxies().since(proxies0)
	runtime.ReadMemStats(&after)
	for i := range handed {
		if a, h := added[i].Load(), handed[i].Load(); a != h {
			return result{}, fmt.Errorf("%s %s, %d workers: key %d added in burst %d, last handed out for burst %d", wl.name, s.name, workers, i, a-1, h-1)
		}
	}
	adds := int(produced.Load() + sum(workerAdds))
	return result{seconds: elapsed.Seconds(), adds: adds, gets: int(sum(gets)), mallocs: after.Mallocs - before.Mallocs, cpu: cpu, proxies: proxies}, nil
}
