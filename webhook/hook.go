package webhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// DefaultMaxRequestBytes bounds a review's body unless
// Options.MaxRequestBytes says otherwise: kube-apiserver takes objects
// of up to 3 MiB, and an update's review carries two of them.
const DefaultMaxRequestBytes = 7 << 20

// ReviewReadTimeout bounds the time a review's body takes to arrive,
// from the start of its read: kube-apiserver gives up on a webhook after
// its timeoutSeconds, at most 30 s, so a body still arriving after that
// comes from a client that is not kube-apiserver (or one that has given
// up); it would otherwise hold a connection and a goroutine for as long
// as it trickles.
const ReviewReadTimeout = 30 * time.Second

// Hook is one webhook endpoint: an http.Handler for the reviews
// kube-apiserver posts to Path. Make one with Mutating, Validating,
// Convert or Admission, and add it to a Server with Register (or mount
// it on a mux of your own: it is an http.Handler).
//
// A Hook is safe for concurrent use once registered; At returns a copy.
type Hook struct {
	path    string
	kind    string // "admission" or "conversion", for errors
	handler func(h *Hook, w http.ResponseWriter, r *http.Request)
	conv    *conversions // conversion hooks only
	err     error        // why the hook cannot work, reported by Register

	maxBytes int64
	log      *slog.Logger
}

// Path is the URL path the Hook is served at: the one controller-gen's
// markers and kubewire-gen write for it by default, or the one At gave.
func (h *Hook) Path() string { return h.path }

// At returns a copy of the Hook served at path instead (a webhook
// marker's path=).
func (h *Hook) At(path string) *Hook {
	c := *h
	c.path = path
	return &c
}

// Err reports why the Hook cannot serve (a conversion whose versions
// disagree, say), nil when it can. Register returns it too.
func (h *Hook) Err() error { return h.err }

// ServeHTTP answers one review.
func (h *Hook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.err != nil {
		writeJSON(w, http.StatusInternalServerError, &metav1.Status{Status: metav1.StatusFailure, Code: http.StatusInternalServerError, Message: h.err.Error()})
		return
	}
	h.handler(h, w, r)
}

func (h *Hook) logf(ctx context.Context, msg string, args ...any) {
	if h.log != nil {
		h.log.Log(ctx, slog.LevelDebug, "webhook: "+msg, append([]any{"path", h.path}, args...)...)
	}
}

// readReviewBody reads a review's body, or says why it cannot, as the
// Status to answer with (its Code is the HTTP status).
func readReviewBody(h *Hook, w http.ResponseWriter, r *http.Request) ([]byte, *metav1.Status) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return nil, &metav1.Status{Code: http.StatusMethodNotAllowed, Reason: metav1.StatusReasonMethodNotAllowed,
			Message: fmt.Sprintf("method %s is not allowed: reviews are POSTed", r.Method)}
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return nil, &metav1.Status{Code: http.StatusUnsupportedMediaType, Reason: metav1.StatusReasonUnsupportedMediaType,
			Message: fmt.Sprintf("Content-Type %q is not supported: reviews are application/json", r.Header.Get("Content-Type"))}
	}
	limit := h.maxBytes
	if limit <= 0 {
		limit = DefaultMaxRequestBytes
	}
	// Not every ResponseWriter has a connection deadline (a recorder in
	// a test has none); http.Server's have, over HTTP/1.1 and HTTP/2.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(ReviewReadTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, &metav1.Status{Code: http.StatusRequestEntityTooLarge, Reason: metav1.StatusReasonRequestEntityTooLarge,
			Message: fmt.Sprintf("the review is larger than the limit of %d bytes", limit)}
	case err != nil:
		return nil, badRequest("cannot read the review: %v", err)
	case len(bytes.TrimSpace(body)) == 0:
		return nil, badRequest("the request body is empty: want a review")
	}
	return body, nil
}

// decodeStrictJSON decodes exactly one JSON value into v.
func decodeStrictJSON(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(v); err != nil {
		return err
	}
	if err := d.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return errors.New("data after the JSON value")
	}
	return nil
}
