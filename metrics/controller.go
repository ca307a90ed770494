package metrics

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/workqueue"
)

// controllerMetrics are controller-runtime's reconcile series.
type controllerMetrics struct {
	total, errors, panics, terminal *prometheus.CounterVec
	duration                        *prometheus.HistogramVec
}

// controller-runtime's result labels.
const (
	resultSuccess      = "success"
	resultError        = "error"
	resultRequeue      = "requeue"
	resultRequeueAfter = "requeue_after"
)

func newControllerMetrics() *controllerMetrics {
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	}
	return &controllerMetrics{
		total:    counter("controller_runtime_reconcile_total", "Total number of reconciliations per controller", "controller", "result"),
		errors:   counter("controller_runtime_reconcile_errors_total", "Total number of reconciliation errors per controller", "controller"),
		panics:   counter("controller_runtime_reconcile_panics_total", "Total number of reconciliation panics per controller", "controller"),
		terminal: counter("controller_runtime_terminal_reconcile_errors_total", "Total number of terminal reconciliation errors per controller", "controller"),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "controller_runtime_reconcile_time_seconds",
			Help: "Length of time per reconciliation per controller",
			Buckets: []float64{0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0,
				1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60},
			NativeHistogramBucketFactor:     1.1,
			NativeHistogramMaxBucketNumber:  100,
			NativeHistogramMinResetDuration: time.Hour,
		}, []string{"controller"}),
	}
}

func (c *controllerMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, v := range []*prometheus.CounterVec{c.total, c.errors, c.panics, c.terminal} {
		v.Describe(ch)
	}
	c.duration.Describe(ch)
}

func (c *controllerMetrics) Collect(ch chan<- prometheus.Metric) {
	for _, v := range []*prometheus.CounterVec{c.total, c.errors, c.panics, c.terminal} {
		v.Collect(ch)
	}
	c.duration.Collect(ch)
}

// init makes every series of a controller exist at zero, as
// controller-runtime does when a controller starts, so that rates and
// alerts work before the first error.
func (c *controllerMetrics) init(name string) {
	for _, r := range []string{resultSuccess, resultError, resultRequeue, resultRequeueAfter} {
		c.total.WithLabelValues(name, r)
	}
	c.errors.WithLabelValues(name)
	c.panics.WithLabelValues(name)
	c.terminal.WithLabelValues(name)
}

// Reconciled implements controller.Metrics. A panic and a terminal
// error count as errors too, as controller-runtime counts them.
func (c *controllerMetrics) Reconciled(name string, outcome controller.Outcome, d time.Duration) {
	switch outcome {
	case controller.Success:
		c.total.WithLabelValues(name, resultSuccess).Inc()
	case controller.Requeue:
		c.total.WithLabelValues(name, resultRequeueAfter).Inc()
	case controller.Terminal:
		c.terminal.WithLabelValues(name).Inc()
		c.errors.WithLabelValues(name).Inc()
		c.total.WithLabelValues(name, resultError).Inc()
	case controller.Panic:
		c.panics.WithLabelValues(name).Inc()
		fallthrough
	default:
		c.errors.WithLabelValues(name).Inc()
		c.total.WithLabelValues(name, resultError).Inc()
	}
	c.duration.WithLabelValues(name).Observe(d.Seconds())
}

// WaitedForWrites implements controller.Metrics; read-your-writes waits
// are part of the work duration, not a series of their own.
func (c *controllerMetrics) WaitedForWrites(string, time.Duration, bool) {}

// Controllers returns the controller.Metrics feeding the reconcile
// series, for controller.Options.Metrics (one serves every controller:
// the series are labelled with the controller's name).
func (m *Metrics) Controllers() controller.Metrics { return m.controller }

// queueMetrics are controller-runtime's work queue series. The adds
// and retries counters and the two histograms are this package's
// sharded ones (counter, histogram): the queue's workers call them
// from every goroutine at once, where client_golang's own keep every
// observation on a few shared cache lines (see doc.go, "Histograms").
type queueMetrics struct {
	depth                        *prometheus.GaugeVec
	adds, retries, latency, work *prometheus.Desc
	histogram                    histogramOpts

	mu     sync.Mutex
	queues map[string]*queueOf // by name, as a Vec has its children
	names  []string            // the keys of queues, in the order made
}

func newQueueMetrics() *queueMetrics {
	labels := []string{"name", "controller"}
	desc := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName("", "workqueue", name), help, labels, nil)
	}
	return &queueMetrics{
		depth: prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: "workqueue", Name: "depth",
			Help: "Current depth of workqueue by workqueue and priority"}, []string{"name", "controller", "priority"}),
		adds:    desc("adds_total", "Total number of adds handled by workqueue"),
		retries: desc("retries_total", "Total number of items added to the workqueue with a non-zero delay (rate-limited requeues, explicit RequeueAfter or AddAfter calls)"),
		latency: desc("queue_duration_seconds", "How long in seconds an item stays in workqueue before being requested"),
		work:    desc("work_duration_seconds", "How long in seconds processing an item from workqueue takes."),
		histogram: histogramOpts{
			buckets:          prometheus.ExponentialBuckets(10e-9, 10, 12),
			bucketFactor:     1.1,
			maxBuckets:       100,
			minResetDuration: time.Hour,
		},
		queues: map[string]*queueOf{},
	}
}

func (q *queueMetrics) Describe(ch chan<- *prometheus.Desc) {
	q.depth.Describe(ch)
	for _, d := range []*prometheus.Desc{q.adds, q.retries, q.latency, q.work} {
		ch <- d
	}
}

func (q *queueMetrics) Collect(ch chan<- prometheus.Metric) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, name := range q.names {
		if read := q.queues[name].readDepth; read != nil {
			q.queues[name].depth.Set(float64(read()))
		}
	}
	q.depth.Collect(ch)
	for _, name := range q.names {
		of := q.queues[name]
		ch <- of.adds
		ch <- of.retries
		ch <- of.latency
		ch <- of.work
	}
}

// queueOf is one queue's workqueue.Metrics: the series of its labels.
type queueOf struct {
	m             *queueMetrics
	depth         prometheus.Gauge
	adds, retries *counter
	latency, work *histogram
	readDepth     func() int // the queue's depth, read when scraped; guarded by m.mu
}

func (q *queueOf) Add()                         { q.adds.Inc() }
func (q *queueOf) Depth(n int)                  { q.depth.Set(float64(n)) }
func (q *queueOf) QueueLatency(d time.Duration) { q.latency.Observe(d.Seconds()) }
func (q *queueOf) WorkDuration(d time.Duration) { q.work.Observe(d.Seconds()) }
func (q *queueOf) Retry()                       { q.retries.Inc() }

// ReadDepthFrom implements workqueue.DepthReader: the depth gauge is set
// from depth when scraped, so Adds and Gets do not publish it.
func (q *queueOf) ReadDepthFrom(depth func() int) {
	q.m.mu.Lock()
	q.readDepth = depth
	q.m.mu.Unlock()
}

// ConcurrentSafe: the series are safe for concurrent use, so the queue
// may call them without its lock (workqueue.ConcurrentMetrics).
func (q *queueOf) ConcurrentSafe() {}

// Queue returns the workqueue.Metrics of the queue of the controller
// name, for controller.Options.Queue.Metrics (the name and controller
// labels are both name, as controller-runtime has them). A Queue made
// with it has its depth read when scraped (workqueue.DepthReader, its
// Len under its lock); m holds the queue weakly (a collected queue reads
// 0) and keeps its series (about 12 KiB per core, at most 100 KiB: the
// shards of its histograms, see doc.go) for as long as m lives. The
// unfinished
// work and longest running processor gauges are read from the
// controller when scraped: see AddController. Queue called again with
// a name returns the same series, whose depth is read from the last
// queue made with it.
func (m *Metrics) Queue(name string) workqueue.Metrics {
	q := m.queue
	q.mu.Lock()
	defer q.mu.Unlock()
	if of, ok := q.queues[name]; ok {
		return of
	}
	of := &queueOf{
		m:       q,
		depth:   q.depth.WithLabelValues(name, name, ""),
		adds:    newCounter(q.adds, name, name),
		retries: newCounter(q.retries, name, name),
		latency: newHistogram(q.latency, q.histogram, name, name),
		work:    newHistogram(q.work, q.histogram, name, name),
	}
	q.queues[name] = of
	q.names = append(q.names, name)
	return of
}

// StatsReader is what AddController reads when scraped: a
// *controller.Controller.
type StatsReader interface {
	Name() string
	Stats() controller.Stats
}

// AddController makes the scrape read c's figures:
// controller_runtime_max_concurrent_reconciles, _active_workers, and
// the queue's unfinished work and longest running processor. It also
// makes c's reconcile series exist at zero. It fails when a controller
// of the same name was added: their series would be one.
func (m *Metrics) AddController(c StatsReader) error {
	name := c.Name()
	if err := m.claim("controller", name); err != nil {
		return err
	}
	m.controller.init(name)
	m.scrape.add(controllerStats{c})
	return nil
}

// controllerStats emits a controller's gauges at scrape time.
type controllerStats struct{ c StatsReader }

func (s controllerStats) collect(d *descs, ch chan<- prometheus.Metric) {
	name, st := s.c.Name(), s.c.Stats()
	ch <- prometheus.MustNewConstMetric(d.maxReconciles, prometheus.GaugeValue, float64(st.Workers), name)
	ch <- prometheus.MustNewConstMetric(d.activeWorkers, prometheus.GaugeValue, float64(st.Active), name)
	ch <- prometheus.MustNewConstMetric(d.unfinished, prometheus.GaugeValue, st.Unfinished.Seconds(), name, name)
	ch <- prometheus.MustNewConstMetric(d.longest, prometheus.GaugeValue, st.Longest.Seconds(), name, name)
}
