package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// The child runs one SDK's informer through the three phases, driven by
// commands on its standard input, and writes one line per phase on its
// standard output: the phase's name, a space, and the figures in JSON.
//
//	(start)       -> "sync {...}"
//	"relist"      -> "ready", then, once the relist is over, "relist {...}"
//	"events M"    -> "ready", then, once M updates reached the handler, "events {...}"
//	(stdin ends)  -> exit

// syncFigures are measured from the informer's start to a synced cache
// whose handler has seen every object.
type syncFigures struct {
	Items        int     `json:"items"`
	Seconds      float64 `json:"seconds"`        // start to cache synced
	CPUSeconds   float64 `json:"cpu_seconds"`    // user+system CPU time, start to handler drained
	HeapPerPod   float64 `json:"heap_per_pod"`   // live heap after GC, minus the baseline before start, per Pod
	AllocsPerPod float64 `json:"allocs_per_pod"` // Mallocs delta start to handler drained, per Pod
	BytesPerPod  float64 `json:"bytes_per_pod"`  // TotalAlloc delta, per Pod
	PeakRSS      uint64  `json:"peak_rss"`       // VmHWM
	PeakLive     uint64  `json:"peak_live"`      // largest /gc/heap/live:bytes seen while syncing
	PeakHeap     uint64  `json:"peak_heap"`      // largest heap in objects (garbage included) seen
	Steady       uint64  `json:"steady"`         // live heap after GC once synced
}

// relistFigures are measured from the forced relist's trigger to its end.
type relistFigures struct {
	Seconds  float64 `json:"seconds"`
	Steady   uint64  `json:"steady"`    // live heap after GC before the relist
	PeakLive uint64  `json:"peak_live"` // largest /gc/heap/live:bytes during the relist
	PeakHeap uint64  `json:"peak_heap"` // largest heap in objects during the relist
	PeakRSS  uint64  `json:"peak_rss"`  // VmHWM, reset before the relist
}

type eventsFigures struct {
	Events  int     `json:"events"`
	Seconds float64 `json:"seconds"` // first to last update reaching the handler
}

// sampler records the peaks of the live heap (as of the last GC) and of
// the heap in objects (garbage not yet collected included), every 5 ms.
type sampler struct {
	live, heap atomic.Uint64
}

var sampleNames = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}

func (s *sampler) run(ctx context.Context) {
	samples := append([]metrics.Sample(nil), sampleNames...)
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		metrics.Read(samples)
		raise(&s.live, samples[0].Value.Uint64())
		raise(&s.heap, samples[1].Value.Uint64())
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func raise(a *atomic.Uint64, v uint64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}

// reset starts the peaks over from the current values.
func (s *sampler) reset() {
	samples := append([]metrics.Sample(nil), sampleNames...)
	metrics.Read(samples)
	s.live.Store(samples[0].Value.Uint64())
	s.heap.Store(samples[1].Value.Uint64())
}

// liveAfterGC collects garbage and returns the live heap.
func liveAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func childMain(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("child", flag.ContinueOnError)
	sdk := fs.String("sdk", "", "kubewire or client-go")
	url := fs.String("url", "", "the server's URL")
	token := fs.String("token", "", "the server's token")
	mode := fs.String("mode", "watchlist", "watchlist or list")
	pods := fs.Int("pods", 0, "Pods the server holds")
	pageSize := fs.Int64("pagesize", 0, "kubewire's reflector.Options.PageSize (0: the default)")
	inPages := fs.Bool("pages", false, "kubewire lists in pages (reflector.Options.ListInPages)")
	profile := fs.String("profile", "", "write CPU and heap profiles of each phase to files starting with this")
	if err := fs.Parse(args); err != nil {
		return err
	}
	prof := profiler(*profile)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := newCounters()
	sub, err := newSubject(*sdk, *url, *token, *mode, *pageSize, *inPages, c)
	if err != nil {
		return err
	}
	var samp sampler
	go samp.run(ctx)
	in := bufio.NewScanner(stdin)
	out := bufio.NewWriter(stdout)
	say := func(phase string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s %s\n", phase, b)
		return out.Flush()
	}
	waitFor := func(what string, limit time.Duration, cond func() bool) error {
		deadline := time.Now().Add(limit)
		for !cond() {
			if time.Now().After(deadline) {
				return fmt.Errorf("%s %s: no %s within %v (%s)", *sdk, *mode, what, limit, sub.progress())
			}
			time.Sleep(time.Millisecond)
		}
		return nil
	}

	// Sync.
	base := liveAfterGC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	samp.reset()
	stopCPU := prof.cpu("sync")
	cpu0 := cpuTime()
	start := time.Now()
	go sub.run(ctx)
	syncCtx, cancelSync := context.WithTimeout(ctx, 10*time.Minute)
	err = sub.waitSynced(syncCtx)
	cancelSync()
	if err != nil {
		return fmt.Errorf("waiting for sync: %w", err)
	}
	took := time.Since(start)
	if err := waitFor("handler adds", 5*time.Minute, func() bool { return c.adds.Load() >= int64(*pods) }); err != nil {
		return err
	}
	runtime.ReadMemStats(&m1)
	cpu := cpuTime() - cpu0
	stopCPU()
	sf := syncFigures{
		Items:      sub.cached(),
		Seconds:    took.Seconds(),
		CPUSeconds: cpu.Seconds(),
		PeakLive:   samp.live.Load(), PeakHeap: samp.heap.Load(),
	}
	sf.Steady = liveAfterGC()
	n := float64(max(*pods, 1))
	sf.HeapPerPod = (float64(sf.Steady) - float64(base)) / n
	sf.AllocsPerPod = float64(m1.Mallocs-m0.Mallocs) / n
	sf.BytesPerPod = float64(m1.TotalAlloc-m0.TotalAlloc) / n
	sf.PeakRSS = peakRSS()
	prof.heap("steady")
	if err := say("sync", sf); err != nil {
		return err
	}

	for in.Scan() {
		cmd, arg, _ := strings.Cut(in.Text(), " ")
		switch cmd {
		case "relist":
			rf := relistFigures{Steady: liveAfterGC()}
			resetPeakRSS()
			samp.reset()
			mark := sub.relistMark()
			stopCPU := prof.cpu("relist")
			stopPeaks := prof.heapAtPeaks(ctx, "relist-peak", &samp)
			start := time.Now()
			if err := say("ready", struct{}{}); err != nil {
				return err
			}
			if err := waitFor("relist", 5*time.Minute, func() bool { return sub.relisted(mark) }); err != nil {
				return err
			}
			rf.Seconds = time.Since(start).Seconds()
			stopPeaks()
			stopCPU()
			rf.PeakLive, rf.PeakHeap, rf.PeakRSS = samp.live.Load(), samp.heap.Load(), peakRSS()
			if err := say("relist", rf); err != nil {
				return err
			}
		case "events":
			m, err := strconv.Atoi(arg)
			if err != nil {
				return fmt.Errorf("events %q: %w", arg, err)
			}
			b := c.updates.Load()
			c.first.Store(0)
			c.last.Store(0)
			c.firstAt.Store(b + 1)
			c.lastAt.Store(b + int64(m))
			stopCPU := prof.cpu("events")
			if err := say("ready", struct{}{}); err != nil {
				return err
			}
			if err := waitFor("updates", 5*time.Minute, func() bool { return c.last.Load() != 0 }); err != nil {
				return err
			}
			stopCPU()
			ef := eventsFigures{Events: int(c.updates.Load() - b), Seconds: float64(c.last.Load()-c.first.Load()) / 1e9}
			if err := say("events", ef); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unknown command %q", in.Text())
		}
	}
	if err := in.Err(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// peakRSS is the process's peak resident set (VmHWM), or 0 when unknown.
func peakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// cpuTime is the user and system CPU time the process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS sets VmHWM to the current resident set (Linux 4.0+), so
// that a phase's peak can be read on its own.
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// profiler writes profiles to files named prefix-PHASE.KIND.pprof; the
// empty prefix writes none.
type profiler string

// cpu starts a CPU profile of a phase and returns its stop.
func (p profiler) cpu(phase string) func() {
	if p == "" {
		return func() {}
	}
	f, err := os.Create(string(p) + "-" + phase + ".cpu.pprof")
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// heap writes a heap profile (as of the last GC).
func (p profiler) heap(name string) {
	if p == "" {
		return
	}
	f, err := os.Create(string(p) + "-" + name + ".heap.pprof")
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
	}
}

// heapAtPeaks writes a heap profile each time the sampled live heap
// reaches a new peak (the profile then shows what the GC that found the
// peak marked live), until the returned stop is called.
func (p profiler) heapAtPeaks(ctx context.Context, name string, s *sampler) func() {
	if p == "" {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		last := s.live.Load()
		for ctx.Err() == nil {
			if v := s.live.Load(); v > last {
				last = v
				p.heap(name)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	return func() { cancel(); <-done }
}
