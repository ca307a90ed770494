// Package run is the child process of the CR informer benchmark: it
// runs one SDK's informer, driven by commands on its standard input, and
// writes its figures on its standard output. It imports no SDK: the
// caller passes the constructor of the informer measured, so that a child
// of kubewire links no client-go and one of client-go no kubewire.
package run

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
	"time"

	"github.com/kubewire/kubewire/bench/internal/crgen"
	"github.com/kubewire/kubewire/bench/internal/procstat"
)

// The child runs one SDK's informer, driven by commands on its standard
// input, and writes one line per phase on its standard output: the
// phase's name, a space, and the figures in JSON.
//
//	(start)      -> "sync {...}"
//	"events M"   -> "ready", then, once M updates reached the handler, "events {...}"
//	(stdin ends) -> exit

// SyncFigures are measured from the informer's start to a synced cache
// whose handler has seen every object.
type SyncFigures struct {
	Items           int     `json:"items"`
	Seconds         float64 `json:"seconds"`
	CPUSeconds      float64 `json:"cpu_seconds"`
	HeapPerObject   float64 `json:"heap_per_object"`   // live heap after GC minus the baseline, per object
	AllocsPerObject float64 `json:"allocs_per_object"` // mallocs, start to handler drained, per object
	BytesPerObject  float64 `json:"bytes_per_object"`  // bytes allocated, likewise
	PeakRSS         uint64  `json:"peak_rss"`
	PeakLive        uint64  `json:"peak_live"`
}

// EventsFigures are measured over the events phase.
type EventsFigures struct {
	Events  int     `json:"events"`
	Seconds float64 `json:"seconds"` // first to last update reaching the handler
	// CPUSeconds is the process's CPU time from the events' request to
	// the last update reaching the handler: unlike Seconds, it does not
	// move with how the machine's cores are shared.
	CPUSeconds float64 `json:"cpuSeconds"`
}

// Subject is one SDK's informer of a shape's kind with one counting
// handler.
type Subject interface {
	Run(ctx context.Context)
	WaitSynced(ctx context.Context) error
}

// NewSubject builds the informer of sdk for kind ("typed" or "dynamic")
// and shape, whose handler counts into c.
type NewSubject func(sdk, kind string, shape crgen.Shape, url, token, mode string, c *Counters) (Subject, error)

// Main runs the child: args are its flags.
func Main(args []string, stdin io.Reader, stdout io.Writer, newSubject NewSubject) error {
	fs := flag.NewFlagSet("child", flag.ContinueOnError)
	sdk := fs.String("sdk", "", "kubewire or client-go")
	kind := fs.String("kind", "typed", "typed or dynamic")
	shapeName := fs.String("shape", "typical", "the objects' shape (its kind's types)")
	url := fs.String("url", "", "the server's URL")
	token := fs.String("token", "", "the server's token")
	mode := fs.String("mode", "watchlist", "watchlist or list")
	format := fs.String("format", "json", "what kubewire reads: json or cbor (client-go's comes from its feature gates)")
	objects := fs.Int("objects", 0, "objects the server holds")
	profile := fs.String("profile", "", "write a CPU profile of the sync and a heap profile after it to files starting with this")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *profile != "" {
		// Sample every 4 KiB, not every 512 KiB: the heap profile is read
		// per cached object, where a field is tens of bytes.
		runtime.MemProfileRate = 4096
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	shape, err := crgen.ParseShape(*shapeName)
	if err != nil {
		return err
	}
	c := NewCounters()
	sub, err := newSubject(*sdk, *kind, shape, *url, *token, *mode+"/"+*format, c)
	if err != nil {
		return err
	}
	var peakLive atomic.Uint64
	go sampleLive(ctx, &peakLive)
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
				return fmt.Errorf("%s %s: no %s within %v", *sdk, *kind, what, limit)
			}
			time.Sleep(time.Millisecond)
		}
		return nil
	}

	base := procstat.LiveAfterGC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	stopCPU := startCPUProfile(*profile)
	cpu0 := procstat.CPUTime()
	start := time.Now()
	go sub.Run(ctx)
	syncCtx, cancelSync := context.WithTimeout(ctx, 10*time.Minute)
	err = sub.WaitSynced(syncCtx)
	cancelSync()
	if err != nil {
		return fmt.Errorf("waiting for sync: %w", err)
	}
	took := time.Since(start)
	if err := waitFor("handler adds", 5*time.Minute, func() bool { return c.Adds.Load() >= int64(*objects) }); err != nil {
		return err
	}
	runtime.ReadMemStats(&m1)
	stopCPU()
	sf := SyncFigures{Items: int(c.Adds.Load()), Seconds: took.Seconds(), CPUSeconds: (procstat.CPUTime() - cpu0).Seconds()}
	n := float64(max(*objects, 1))
	sf.HeapPerObject = (float64(procstat.LiveAfterGC()) - float64(base)) / n
	sf.AllocsPerObject = float64(m1.Mallocs-m0.Mallocs) / n
	sf.BytesPerObject = float64(m1.TotalAlloc-m0.TotalAlloc) / n
	sf.PeakRSS, sf.PeakLive = procstat.PeakRSS(), peakLive.Load()
	writeHeapProfile(*profile)
	if err := say("sync", sf); err != nil {
		return err
	}

	in := bufio.NewScanner(stdin)
	for in.Scan() {
		cmd, arg, _ := strings.Cut(in.Text(), " ")
		if cmd != "events" {
			return fmt.Errorf("unknown command %q", in.Text())
		}
		m, err := strconv.Atoi(arg)
		if err != nil {
			return fmt.Errorf("events %q: %w", arg, err)
		}
		b := c.updates.Load()
		c.first.Store(0)
		c.last.Store(0)
		c.firstAt.Store(b + 1)
		c.lastAt.Store(b + int64(m))
		stopCPU := startCPUProfileNamed(*profile, "events")
		cpu0 := procstat.CPUTime()
		if err := say("ready", struct{}{}); err != nil {
			return err
		}
		if err := waitFor("updates", 5*time.Minute, func() bool { return c.last.Load() != 0 }); err != nil {
			return err
		}
		stopCPU()
		ef := EventsFigures{Events: int(c.updates.Load() - b), Seconds: float64(c.last.Load()-c.first.Load()) / 1e9, CPUSeconds: (procstat.CPUTime() - cpu0).Seconds()}
		if err := say("events", ef); err != nil {
			return err
		}
	}
	if err := in.Err(); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return nil
}

// sampleLive records the largest live heap (as of the last GC) every 5 ms.
func sampleLive(ctx context.Context, peak *atomic.Uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		metrics.Read(s)
		if v := s[0].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// startCPUProfile profiles the CPU into prefix-sync.cpu.pprof until the
// returned stop; the empty prefix profiles nothing.
func startCPUProfile(prefix string) (stop func()) { return startCPUProfileNamed(prefix, "sync") }

// startCPUProfileNamed profiles the CPU into prefix-phase.cpu.pprof
// until the returned stop (the events phase has one per events command,
// the last one kept).
func startCPUProfileNamed(prefix, phase string) (stop func()) {
	if prefix == "" {
		return func() {}
	}
	f, err := os.Create(prefix + "-" + phase + ".cpu.pprof")
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

// writeHeapProfile writes prefix-steady.heap.pprof (allocations since
// the start, and what is live after the last GC).
func writeHeapProfile(prefix string) {
	if prefix == "" {
		return
	}
	f, err := os.Create(prefix + "-steady.heap.pprof")
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
	}
}
