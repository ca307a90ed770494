package metrics

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/reflector"
)

// informerLabels name an informer's series.
var informerLabels = []string{"resource", "namespace", "label_selector", "field_selector"}

// informerMetrics are kubewire's informer series: counters fed by each
// reflector, gauges read from each cache when scraped.
type informerMetrics struct {
	lists    *prometheus.CounterVec
	listTime *prometheus.HistogramVec
	events   *prometheus.CounterVec
	restarts *prometheus.CounterVec

	objects, synced, failing, age *prometheus.Desc

	mu        sync.Mutex
	informers []*informerOf
}

func newInformerMetrics() *informerMetrics {
	with := func(extra ...string) []string { return append(append([]string(nil), informerLabels...), extra...) }
	desc := func(name, help string) *prometheus.Desc { return prometheus.NewDesc(name, help, informerLabels, nil) }
	return &informerMetrics{
		lists: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubewire_informer_lists_total",
			Help: "Full-state reads (lists and streaming lists) started, by reason; a reason other than initial is a relist."}, with("reason")),
		listTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "kubewire_informer_list_duration_seconds",
			Help:    "How long full-state reads took, until the state was complete or the read failed.",
			Buckets: []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120}}, informerLabels),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubewire_informer_watch_events_total",
			Help: "Watch events applied to the cache, by type."}, with("type")),
		restarts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubewire_informer_watch_restarts_total",
			Help: "Watches that ended (closed by the server, timed out, refused or failed) and were resumed or replaced."}, informerLabels),
		objects: desc("kubewire_informer_objects", "Objects in the informer's cache."),
		synced:  desc("kubewire_informer_synced", "1 once the informer's cache held a full state."),
		failing: desc("kubewire_informer_failing", "1 while a persistent failure (a refused list or watch, or the same error again and again) keeps the cache from following the server."),
		age:     desc("kubewire_informer_resource_version_age_seconds", "Seconds since the server last moved the cache to a new resourceVersion (a complete list, a watch event or a bookmark)."),
	}
}

func (im *informerMetrics) Describe(ch chan<- *prometheus.Desc) {
	im.lists.Describe(ch)
	im.listTime.Describe(ch)
	im.events.Describe(ch)
	im.restarts.Describe(ch)
	ch <- im.objects
	ch <- im.synced
	ch <- im.failing
	ch <- im.age
}

// Collect emits the counters and, per label set, the caches' gauges
// (two informers of one resource and scope, typed and metadata-only for
// example, are summed: objects add up, synced needs both, failing and the
// age take the worse).
func (im *informerMetrics) Collect(ch chan<- prometheus.Metric) {
	im.lists.Collect(ch)
	im.listTime.Collect(ch)
	im.events.Collect(ch)
	im.restarts.Collect(ch)
	im.mu.Lock()
	infs := append([]*informerOf(nil), im.informers...)
	im.mu.Unlock()
	type gauges struct {
		labels                        []string
		objects, synced, failing, age float64
	}
	var order []string
	byKey := map[string]*gauges{}
	now := time.Now()
	for _, inf := range infs {
		key := strings.Join(inf.labels, "\x00")
		g := byKey[key]
		if g == nil {
			g = &gauges{labels: inf.labels, synced: 1}
			byKey[key] = g
			order = append(order, key)
		}
		g.objects += float64(inf.cache.Len())
		if !inf.cache.HasSynced() {
			g.synced = 0
		}
		if inf.cache.Err() != nil {
			g.failing = 1
		}
		if at := inf.progressed.Load(); at != 0 {
			g.age = max(g.age, now.Sub(time.Unix(0, at)).Seconds())
		}
	}
	for _, key := range order {
		g := byKey[key]
		ch <- prometheus.MustNewConstMetric(im.objects, prometheus.GaugeValue, g.objects, g.labels...)
		ch <- prometheus.MustNewConstMetric(im.synced, prometheus.GaugeValue, g.synced, g.labels...)
		ch <- prometheus.MustNewConstMetric(im.failing, prometheus.GaugeValue, g.failing, g.labels...)
		ch <- prometheus.MustNewConstMetric(im.age, prometheus.GaugeValue, g.age, g.labels...)
	}
}

// Informer implements informer.Metrics.
func (im *informerMetrics) Informer(gvr client.GroupVersionResource, scope informer.Scope, cache informer.Cache) reflector.Metrics {
	resource := gvr.Resource
	if gvr.Group != "" {
		resource += "." + gvr.Group
	}
	sel := func(s client.Selector) string {
		if s == nil {
			return ""
		}
		return s.String()
	}
	inf := &informerOf{labels: []string{resource, scope.Namespace, sel(scope.LabelSelector), sel(scope.FieldSelector)}, cache: cache}
	inf.listTime = im.listTime.WithLabelValues(inf.labels...)
	inf.restarts = im.restarts.WithLabelValues(inf.labels...)
	inf.lists, inf.events = im.lists, im.events
	for _, t := range []client.EventType{client.Added, client.Modified, client.Deleted, client.Bookmark} {
		im.events.WithLabelValues(append(inf.labels[:4:4], string(t))...)
	}
	im.lists.WithLabelValues(append(inf.labels[:4:4], string(reflector.ReasonInitial))...)
	im.mu.Lock()
	im.informers = append(im.informers, inf)
	im.mu.Unlock()
	return inf
}

// informerOf is one informer's reflector.Metrics.
type informerOf struct {
	labels        []string
	cache         informer.Cache
	lists, events *prometheus.CounterVec
	listTime      prometheus.Observer
	restarts      prometheus.Counter
	progressed    atomic.Int64 // unix nanoseconds of the last new resourceVersion, 0 before
}

func (i *informerOf) ListStarted(_ reflector.State, why reflector.Reason) {
	i.lists.WithLabelValues(append(i.labels[:4:4], string(why))...).Inc()
}

func (i *informerOf) ListDone(_ reflector.State, _ int, took time.Duration, err error) {
	i.listTime.Observe(took.Seconds())
	if err == nil {
		i.progressed.Store(time.Now().UnixNano())
	}
}

func (i *informerOf) WatchEvent(typ client.EventType) {
	i.events.WithLabelValues(append(i.labels[:4:4], string(typ))...).Inc()
	i.progressed.Store(time.Now().UnixNano())
}

func (i *informerOf) WatchEnded(time.Duration, int, error) { i.restarts.Inc() }

func (i *informerOf) BackingOff(time.Duration, error) {}

// Informers returns the informer.Metrics of the kubewire_informer_
// series, for informer.FactoryOptions.Metrics.
func (m *Metrics) Informers() informer.Metrics { return m.informer }
