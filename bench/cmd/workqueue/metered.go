package main

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubewire/kubewire/metrics"
	"github.com/kubewire/kubewire/workqueue"
	"github.com/prometheus/client_golang/prometheus"
	cgworkqueue "k8s.io/client-go/util/workqueue"
)

// With -metrics each queue records the metrics a controller manager's
// queues record, into Prometheus collectors of the same shape on both
// sides (controller-runtime's workqueue series: depth, adds, queue and
// work duration histograms, unfinished work, longest running processor,
// retries): kubewire's through its metrics package, client-go's through
// a MetricsProvider built as controller-runtime's is. client-go's queue
// updates the unfinished-work gauges itself every 500 ms; kubewire's are
// read by the program, here polled at the same period.

// unfinishedPeriod is client-go's period for the unfinished work gauges.
const unfinishedPeriod = 500 * time.Millisecond

// runs numbers the queues made, so each has series of its own.
var runs atomic.Int64

func queueName() string { return fmt.Sprintf("bench-%d", runs.Add(1)) }

// meteredKubewire is a kubewire queue with metrics and the poller of its
// unfinished work gauges, stopped by ShutDown.
type meteredKubewire struct {
	kubewireQueue
	reg      prometheus.Gatherer
	stop     chan struct{}
	stopOnce *sync.Once
	polling  *sync.WaitGroup
}

func newMeteredKubewire() queue { return newMeteredKubewireWith(workqueue.Options{}) }

// newMeteredKubewireWith is newMeteredKubewire with opts (but Metrics).
func newMeteredKubewireWith(opts workqueue.Options) queue {
	m := metrics.New()
	name := queueName()
	opts.Metrics = m.Queue(name)
	q, err := workqueue.New[string](opts)
	if err != nil {
		panic(err) // default options: no error
	}
	unfinished := prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: "workqueue", Name: "unfinished_work_seconds", Help: "unfinished"}, []string{"name", "controller"}).WithLabelValues(name, name)
	longest := prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: "workqueue", Name: "longest_running_processor_seconds", Help: "longest"}, []string{"name", "controller"}).WithLabelValues(name, name)
	kq := meteredKubewire{kubewireQueue: kubewireQueue{q, backgroundCtx}, reg: m.Registry(), stop: make(chan struct{}), stopOnce: new(sync.Once), polling: new(sync.WaitGroup)}
	kq.polling.Go(func() {
		t := time.NewTicker(unfinishedPeriod)
		defer t.Stop()
		for {
			select {
			case <-kq.stop:
				return
			case <-t.C:
				total, max := q.UnfinishedWork()
				unfinished.Set(total.Seconds())
				longest.Set(max.Seconds())
			}
		}
	})
	return kq
}

func (q meteredKubewire) ShutDown() {
	q.kubewireQueue.ShutDown()
	q.stopOnce.Do(func() { close(q.stop) })
	q.polling.Wait()
}

// promProvider is a client-go MetricsProvider with controller-runtime's
// series, in a registry of its own.
type promProvider struct {
	reg                 *prometheus.Registry
	depth               *prometheus.GaugeVec
	adds, retries       *prometheus.CounterVec
	latency, work       *prometheus.HistogramVec
	unfinished, longest *prometheus.GaugeVec
}

func newPromProvider() promProvider {
	labels := []string{"name", "controller"}
	histogram := func(name string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Subsystem: "workqueue", Name: name, Help: name,
			Buckets:                         prometheus.ExponentialBuckets(10e-9, 10, 12),
			NativeHistogramBucketFactor:     1.1,
			NativeHistogramMaxBucketNumber:  100,
			NativeHistogramMinResetDuration: time.Hour,
		}, labels)
	}
	gauge := func(name string, labels ...string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Subsystem: "workqueue", Name: name, Help: name}, labels)
	}
	counter := func(name string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Subsystem: "workqueue", Name: name, Help: name}, labels)
	}
	p := promProvider{
		reg:        prometheus.NewRegistry(),
		depth:      gauge("depth", "name", "controller", "priority"),
		adds:       counter("adds_total"),
		retries:    counter("retries_total"),
		latency:    histogram("queue_duration_seconds"),
		work:       histogram("work_duration_seconds"),
		unfinished: gauge("unfinished_work_seconds", labels...),
		longest:    gauge("longest_running_processor_seconds", labels...),
	}
	p.reg.MustRegister(p.depth, p.adds, p.retries, p.latency, p.work, p.unfinished, p.longest)
	return p
}

func (p promProvider) NewDepthMetric(name string) cgworkqueue.GaugeMetric {
	return p.depth.WithLabelValues(name, name, "")
}

func (p promProvider) NewAddsMetric(name string) cgworkqueue.CounterMetric {
	return p.adds.WithLabelValues(name, name)
}

func (p promProvider) NewLatencyMetric(name string) cgworkqueue.HistogramMetric {
	return p.latency.WithLabelValues(name, name)
}

func (p promProvider) NewWorkDurationMetric(name string) cgworkqueue.HistogramMetric {
	return p.work.WithLabelValues(name, name)
}

func (p promProvider) NewUnfinishedWorkSecondsMetric(name string) cgworkqueue.SettableGaugeMetric {
	return p.unfinished.WithLabelValues(name, name)
}

func (p promProvider) NewLongestRunningProcessorSecondsMetric(name string) cgworkqueue.SettableGaugeMetric {
	return p.longest.WithLabelValues(name, name)
}

func (p promProvider) NewRetriesMetric(name string) cgworkqueue.CounterMetric {
	return p.retries.WithLabelValues(name, name)
}

// meteredClientGo is client-go's queue with its provider's registry.
type meteredClientGo struct {
	clientGoQueue
	reg prometheus.Gatherer
}

func newMeteredClientGo() queue {
	return newMeteredClientGoWith(cgworkqueue.DefaultTypedControllerRateLimiter[string]())
}

// newMeteredClientGoWith is newMeteredClientGo with rate limiter rl.
func newMeteredClientGoWith(rl cgworkqueue.TypedRateLimiter[string]) queue {
	p := newPromProvider()
	return meteredClientGo{clientGoQueue{cgworkqueue.NewTypedRateLimitingQueueWithConfig(rl,
		cgworkqueue.TypedRateLimitingQueueConfig[string]{Name: queueName(), MetricsProvider: p})}, p.reg}
}
