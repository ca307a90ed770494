package controller

import (
	"log/slog"
	"time"

	"github.com/kubewire/kubewire/workqueue"
)

// Defaults are what the program running a Controller (package manager)
// gives it for the options it was made without.
type Defaults struct {
	// Logger replaces a nil Options.Logger.
	Logger *slog.Logger
	// Metrics replaces a nil Options.Metrics.
	Metrics Metrics
	// QueueMetrics replaces a nil Options.Queue.Metrics.
	QueueMetrics workqueue.Metrics
	// DetectCacheMutations, when true, turns Options.DetectCacheMutations
	// on.
	DetectCacheMutations bool
}

// unset remembers which options New was given without.
type unset struct{ logger, metrics, queueMetrics bool }

func unsetOf(o Options) unset {
	return unset{logger: o.Logger == nil, metrics: o.Metrics == nil, queueMetrics: o.Queue.Metrics == nil}
}

// SetDefaults fills the options New was given without from d (nil
// fields of d change nothing): package manager's Add gives its logger
// and metrics this way. It panics when called while Run runs, a
// programming error.
func (c *Controller[T]) SetDefaults(d Defaults) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mustNotRun("SetDefaults")
	if d.Logger != nil && c.unset.logger {
		c.opts.Logger = d.Logger
		c.log = d.Logger.With("controller", c.name)
	}
	if d.Metrics != nil && c.unset.metrics {
		c.opts.Metrics = d.Metrics
	}
	if d.QueueMetrics != nil && c.unset.queueMetrics {
		c.opts.Queue.Metrics = d.QueueMetrics
	}
	if d.DetectCacheMutations {
		c.opts.DetectCacheMutations = true
	}
}

// Stats are a Controller's figures at one moment, for a metrics library
// to read when scraped.
type Stats struct {
	// Workers is Options.Workers; Active counts the Reconcile calls in
	// progress.
	Workers, Active int
	// Queued counts the Requests waiting for a worker (0 while Run is
	// not running).
	Queued int
	// Unfinished is how long the Requests being reconciled have been,
	// in total, and Longest the longest of them (measured only when the
	// queue has metrics, see workqueue.Queue.UnfinishedWork).
	Unfinished, Longest time.Duration
}

// Stats returns the controller's figures now. It is safe for concurrent
// use and takes time proportional to the queued Requests.
func (c *Controller[T]) Stats() Stats {
	c.mu.Lock()
	q, workers := c.q, c.opts.Workers
	c.mu.Unlock()
	s := Stats{Workers: workers, Active: int(c.active.Load())}
	if q != nil {
		s.Queued = q.Len()
		s.Unfinished, s.Longest = q.UnfinishedWork()
	}
	return s
}
