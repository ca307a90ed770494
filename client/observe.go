package client

import (
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"
)

// Metrics is told about the requests a Client sends, for a metrics
// library of the program's choice (package metrics implements it with
// client-go's series). Its method is called from the goroutine that
// sent the request, from many at once, and must return quickly.
type Metrics interface {
	// Request: a request to host (the server's "host:port") ended.
	// method is the HTTP method; code is the status code of the final
	// answer, or 0 when none came (a connection error, or ctx ended
	// first). took runs from the first try to the final answer's
	// headers, retries and their waits included; for a watch, to the
	// stream's headers.
	Request(host, method string, code int, took time.Duration)
}

// observer holds a Client's logger and metrics: set by its Config, or
// later by Inherit when the Config left them nil.
type observer struct {
	log        atomic.Pointer[slog.Logger]
	metrics    atomic.Pointer[Metrics]
	ownLog     bool        // Config.Logger was set: Inherit keeps it
	ownMetrics bool        // Config.Metrics was set
	logSet     atomic.Bool // Inherit set the logger
}

func newObserver(cfg *Config) *observer {
	o := &observer{ownLog: cfg.Logger != nil, ownMetrics: cfg.Metrics != nil}
	l := cfg.Logger
	if l == nil {
		l = slog.Default() // logs on by default, as client-go's klog is
	}
	o.log.Store(l)
	if cfg.Metrics != nil {
		o.metrics.Store(&cfg.Metrics)
	}
	return o
}

func (o *observer) logger() *slog.Logger { return o.log.Load() }

// request reports a request that ended with resp (nil when no answer
// came) after it started at start.
func (o *observer) request(host, method string, resp *http.Response, start time.Time) {
	m := o.metrics.Load()
	if m == nil {
		return
	}
	code := 0
	if resp != nil {
		code = resp.StatusCode
	}
	(*m).Request(host, method, code, time.Since(start))
}

// Inherit gives the Client a logger and metrics where its Config had
// none: a nil Config.Logger is replaced by logger, a nil Config.Metrics
// by m (nil arguments change nothing); what the Config set is kept, and
// the first call that fills a slot wins. Package manager calls it, so
// that the logger and metrics of a program reach the client it was
// given. The Client's own log lines (server warnings, content type
// fallbacks), and those of the informers reading through it, go to the
// new logger from then on. Inherit is safe for concurrent use.
func (c *Client) Inherit(logger *slog.Logger, m Metrics) {
	o := c.obs
	if logger != nil && !o.ownLog && o.logSet.CompareAndSwap(false, true) {
		o.log.Store(logger)
	}
	if m != nil && !o.ownMetrics {
		o.metrics.CompareAndSwap(nil, &m)
	}
}

// Metrics returns what the Client reports its requests to: its
// Config.Metrics, else what the first Inherit gave, else nil. Package
// manager reads it so that a second manager sharing the Client serves
// the same series rather than none.
func (c *Client) Metrics() Metrics {
	if m := c.obs.metrics.Load(); m != nil {
		return *m
	}
	return nil
}
