package main

import (
	"runtime/metrics"
	"time"
)

// Load-independent proxies of a run's cost, read from runtime/metrics
// before and after it: on a machine shared with other work items/s
// moves with the load, these much less.
const (
	// mutexWaitMetric is the time goroutines spent blocked on a
	// sync.Mutex (or a runtime-internal lock): contention, not holding.
	mutexWaitMetric = "/sync/mutex/wait/total:seconds"
	// schedMetric is a histogram of the time goroutines spent runnable
	// before running, which the runtime samples (a fraction of the
	// transitions): its count is a relative figure of how often
	// goroutines were woken or rescheduled, to compare runs by.
	schedMetric = "/sched/latencies:seconds"
)

// proxies is a reading of the runtime's cumulative counters.
type proxies struct {
	mutexWait time.Duration
	scheds    uint64
}

// readProxies reads them now.
func readProxies() proxies {
	s := []metrics.Sample{{Name: mutexWaitMetric}, {Name: schedMetric}}
	metrics.Read(s)
	var p proxies
	if s[0].Value.Kind() == metrics.KindFloat64 {
		p.mutexWait = time.Duration(s[0].Value.Float64() * 1e9)
	}
	if s[1].Value.Kind() == metrics.KindFloat64Histogram {
		for _, n := range s[1].Value.Float64Histogram().Counts {
			p.scheds += n
		}
	}
	return p
}

// since is what was counted from p0 to p.
func (p proxies) since(p0 proxies) proxies {
	return proxies{p.mutexWait - p0.mutexWait, p.scheds - p0.scheds}
}
