package webhook

import (
	"net/http"
	"time"
)

// Metrics observes the reviews a Server answers and its reads of the
// certificate files, for controller-runtime's webhook and certwatcher
// series (package metrics implements it,
// metrics.Metrics.Webhooks, and package manager gives the manager's to
// the server). It is an alias of an unnamed interface of plain types so
// that packages that must not link this one (manager, metrics) can
// implement it and hand it over without naming it.
//
// Every method may be called from many goroutines at once.
type Metrics = interface {
	// WebhookServing is called once for each path the Server serves,
	// when it starts to observe it, before that path's first review.
	WebhookServing(path string)
	// WebhookStarted is called when a review of path starts, before its
	// body is read.
	WebhookStarted(path string)
	// WebhookFinished is called when the answer to a review of path is
	// written: its HTTP status and how long it took from
	// WebhookStarted.
	WebhookFinished(path string, code int, took time.Duration)
	// WebhookCertificateRead is called each time the Server reads its
	// certificate files (when Run starts, at every poll, and on
	// ReloadCertificates), with nil or with why they did not load (the
	// certificate in use then stays): a rotation that keeps failing
	// shows before the certificate expires.
	WebhookCertificateRead(err error)
}

// InheritMetrics gives the Server metrics where its Options had none:
// the first non-nil call wins. Package manager calls it with its own.
// Call it before Run: reviews answered before it are not observed.
func (s *Server) InheritMetrics(m Metrics) {
	if m == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.metrics == nil {
		s.metrics = m
		for p := range s.hooks {
			m.WebhookServing(p)
		}
	}
}

// observed serves a review of h at path, observed by m.
func observed(m Metrics, path string, h http.Handler, w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	m.WebhookStarted(path)
	sw := &statusWriter{ResponseWriter: w}
	defer func() {
		// A handler that panics (net/http recovers it and drops the
		// connection) is counted as a 500 and leaves the in-flight gauge.
		code := sw.code
		if code == 0 {
			code = http.StatusInternalServerError
		}
		m.WebhookFinished(path, code, time.Since(start))
	}()
	h.ServeHTTP(sw, r)
	if sw.code == 0 {
		sw.code = http.StatusOK // nothing written: net/http answers 200
	}
}

// statusWriter remembers the status a handler answers with.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 && code >= 200 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer underneath (for
// http.MaxBytesReader's connection handling and flushes).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
