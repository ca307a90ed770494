package metrics

import (
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds a program's collectors in a registry of its own. Make it
// with New; the zero value is not usable.
type Metrics struct {
	reg *prometheus.Registry

	client     *clientMetrics
	controller *controllerMetrics
	queue      *queueMetrics
	informer   *informerMetrics
	webhook    *webhookMetrics

	mu       sync.Mutex
	scrape   *scrapeCollector
	withName map[string]bool // controller names added, to refuse a second one
}

// New returns a Metrics whose registry holds every series of the package
// documentation (the Go runtime and process collectors included), all
// at zero.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{reg: reg, withName: map[string]bool{}}
	m.client = newClientMetrics()
	m.controller = newControllerMetrics()
	m.queue = newQueueMetrics()
	m.informer = newInformerMetrics()
	m.webhook = newWebhookMetrics()
	m.scrape = &scrapeCollector{d: newDescs()}
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.client, m.controller, m.queue, m.informer, m.webhook, m.scrape,
	)
	return m
}

// Registry returns the registry the series are in, for the program's
// own collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus exposition formats (as
// /metrics does), negotiated with the scraper. Errors gathering a
// collector are answered with status 500, as client_golang does.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.HTTPErrorOnError})
}
