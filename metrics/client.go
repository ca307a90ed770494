package metrics

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kubewire/kubewire/client"
)

// clientMetrics are client-go's REST client series.
type clientMetrics struct {
	results *prometheus.CounterVec
	latency *prometheus.HistogramVec
}

func newClientMetrics() *clientMetrics {
	return &clientMetrics{
		results: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "rest_client_requests_total",
			Help: "Number of HTTP requests, partitioned by status code, method, and host.",
		}, []string{"code", "method", "host"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "rest_client_request_duration_seconds",
			Help:    "Request latency in seconds. Broken down by verb, and host.",
			Buckets: []float64{0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0},
		}, []string{"verb", "host"}),
	}
}

func (c *clientMetrics) Describe(ch chan<- *prometheus.Desc) {
	c.results.Describe(ch)
	c.latency.Describe(ch)
}

func (c *clientMetrics) Collect(ch chan<- prometheus.Metric) {
	c.results.Collect(ch)
	c.latency.Collect(ch)
}

// Request implements client.Metrics.
func (c *clientMetrics) Request(host, method string, code int, took time.Duration) {
	label := "<error>" // client-go's label for a request no answer came to
	if code != 0 {
		label = strconv.Itoa(code)
	}
	c.results.WithLabelValues(label, method, host).Inc()
	c.latency.WithLabelValues(method, host).Observe(took.Seconds())
}

// Client returns the client.Metrics feeding rest_client_requests_total
// and rest_client_request_duration_seconds, for client.Config.Metrics
// or Client.Inherit.
func (m *Metrics) Client() client.Metrics {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.client
}

// ServeClientOf makes the registry serve the rest_client series that
// cm feeds, in place of its own, when cm is the Client of another
// Metrics: a client reports to one Metrics (the first that reached
// it), and every registry serving those series shows its requests,
// each counted once. Client then returns cm. It reports false, and
// changes nothing, for a client.Metrics of another kind, whose series
// are the program's to serve.
func (m *Metrics) ServeClientOf(cm client.Metrics) bool {
	other, ok := cm.(*clientMetrics)
	if !ok {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if other == m.client {
		return true
	}
	m.reg.Unregister(m.client)
	if err := m.reg.Register(other); err != nil {
		m.reg.MustRegister(m.client) // it was registered a moment ago
		return false
	}
	m.client = other
	return true
}
