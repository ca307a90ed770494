package metrics

import (
	"strconv"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// webhookMetrics are controller-runtime's webhook server series, one
// set per path served, and its certwatcher series. They are in the
// registry from New on; a program that serves no webhook has no child of
// them and reads no certificate, so shows none.
type webhookMetrics struct {
	requests *prometheus.CounterVec   // webhook, code
	latency  *prometheus.HistogramVec // webhook, code
	inFlight *prometheus.GaugeVec     // webhook

	certReads, certErrors prometheus.Counter
	servesTLS             atomic.Bool // a server reports: show the certwatcher series
}

func newWebhookMetrics() *webhookMetrics {
	return &webhookMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "controller_runtime_webhook_requests_total",
			Help: "Total number of admission requests by HTTP status code.",
		}, []string{"webhook", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "controller_runtime_webhook_latency_seconds",
			Help: "Histogram of the latency of processing admission requests",
		}, []string{"webhook", "code"}),
		inFlight: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "controller_runtime_webhook_requests_in_flight",
			Help: "Current number of admission requests being served.",
		}, []string{"webhook"}),
		certReads: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "certwatcher_read_certificate_total",
			Help: "Total number of certificate reads",
		}),
		certErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "certwatcher_read_certificate_errors_total",
			Help: "Total number of certificate read errors",
		}),
	}
}

func (w *webhookMetrics) Describe(ch chan<- *prometheus.Desc) {
	w.requests.Describe(ch)
	w.latency.Describe(ch)
	w.inFlight.Describe(ch)
	w.certReads.Describe(ch)
	w.certErrors.Describe(ch)
}

func (w *webhookMetrics) Collect(ch chan<- prometheus.Metric) {
	w.requests.Collect(ch)
	w.latency.Collect(ch)
	w.inFlight.Collect(ch)
	if w.servesTLS.Load() {
		w.certReads.Collect(ch)
		w.certErrors.Collect(ch)
	}
}

// WebhookServing makes a path's in-flight gauge and its 200 and 500
// counters exist at zero, as controller-runtime does when it registers
// a webhook, so that error-rate alerts work before the first error.
func (w *webhookMetrics) WebhookServing(path string) {
	w.servesTLS.Store(true)
	w.inFlight.WithLabelValues(path)
	w.requests.WithLabelValues(path, "200")
	w.requests.WithLabelValues(path, "500")
}

func (w *webhookMetrics) WebhookStarted(path string) { w.inFlight.WithLabelValues(path).Inc() }

func (w *webhookMetrics) WebhookFinished(path string, code int, took time.Duration) {
	c := strconv.Itoa(code)
	w.requests.WithLabelValues(path, c).Inc()
	w.latency.WithLabelValues(path, c).Observe(took.Seconds())
	w.inFlight.WithLabelValues(path).Dec()
}

// WebhookCertificateRead counts a read of the serving certificate's
// files, and its failure.
func (w *webhookMetrics) WebhookCertificateRead(err error) {
	w.servesTLS.Store(true)
	w.certReads.Inc()
	if err != nil {
		w.certErrors.Inc()
	}
}

// Webhooks returns what observes a webhook server's reviews (it
// implements webhook.Metrics without this package linking package
// webhook), for webhook.Options.Metrics; package manager gives it to
// its Options.Webhook. The series, labelled with the path served:
//
//	controller_runtime_webhook_requests_total{webhook,code}
//	controller_runtime_webhook_latency_seconds{webhook,code}  histogram
//	controller_runtime_webhook_requests_in_flight{webhook}
//	certwatcher_read_certificate_total         every read of the certificate files
//	certwatcher_read_certificate_errors_total  the reads that failed (the previous certificate still serves)
func (m *Metrics) Webhooks() interface {
	WebhookServing(path string)
	WebhookStarted(path string)
	WebhookFinished(path string, code int, took time.Duration)
	WebhookCertificateRead(err error)
} {
	return m.webhook
}
