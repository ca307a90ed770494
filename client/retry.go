package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/internal/runtime/backoffpolicy"
)

// tries records the attempts of one request, for the retry policy and for
// the error that says how often the client tried. It travels in the
// request's context because go-retryablehttp's hooks see only that.
type tries struct {
	start time.Time
	count int
	safe  bool // the request may be repeated even if the server got it
	// no5xxRetry: a 5xx without Retry-After is final (request.no5xxRetry)
	no5xxRetry bool
}

type triesKey struct{}

func withTries(ctx context.Context, t *tries) context.Context {
	return context.WithValue(ctx, triesKey{}, t)
}

// newRetryClient wraps hc in go-retryablehttp with policy p. Its logging is
// off: requests carry credentials, and the client logs through slog.
func newRetryClient(hc *http.Client, p RetryPolicy) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:   hc,
		RetryWaitMin: p.MinWait,
		RetryWaitMax: p.MaxWait,
		RetryMax:     p.MaxAttempts - 1,
		CheckRetry:   p.checkRetry,
		Backoff:      p.backoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
}

// checkRetry decides whether to try again. It also enforces MaxAttempts
// and MaxElapsed itself, so that giving up returns the last response
// rather than go-retryablehttp's generic error.
func (p RetryPolicy) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	t, _ := ctx.Value(triesKey{}).(*tries)
	if t == nil {
		t = &tries{start: time.Now()}
	}
	t.count++
	if ctx.Err() != nil {
		if err != nil && errors.Is(err, ctx.Err()) {
			return false, err // says what the request was waiting for (an exec plugin, a dial)
		}
		return false, ctx.Err()
	}
	if !p.retryable(t, resp, err) {
		return false, err
	}
	wait := p.wait(0, t.count-1, resp)
	if t.count >= p.MaxAttempts || time.Since(t.start)+wait > p.MaxElapsed {
		return false, err
	}
	return true, nil
}

func (p RetryPolicy) retryable(t *tries, resp *http.Response, err error) bool {
	if err != nil {
		if permanentError(err) {
			return false
		}
		return t.safe || neverSent(err)
	}
	switch code := resp.StatusCode; {
	case code == http.StatusTooManyRequests:
		return true
	case code >= 500 && code != http.StatusNotImplemented && code != http.StatusHTTPVersionNotSupported:
		return t.safe && (!t.no5xxRetry || resp.Header.Get("Retry-After") != "")
	}
	return false
}

// backoff is go-retryablehttp's Backoff hook: the server's Retry-After
// when it gave one (capped at MaxWait), else exponential with jitter.
func (p RetryPolicy) backoff(_, _ time.Duration, attempt int, resp *http.Response) time.Duration {
	return p.wait(rand.Float64(), attempt, resp)
}

// wait is the pause before try attempt+2. jitter in [0,1) shortens the
// exponential wait by up to half; 0 gives the longest wait.
func (p RetryPolicy) wait(jitter float64, attempt int, resp *http.Response) time.Duration {
	if d, ok := retryAfter(resp); ok && d > 0 {
		return min(d, p.MaxWait) // Retry-After: 0 gets the backoff floor below
	}
	// The growth is the project's one backoff policy's, without its
	// jitter: this one only shortens, so that a wait never passes MaxWait
	// and checkRetry can reckon with the longest.
	d := backoffpolicy.Policy{Initial: p.MinWait, Max: p.MaxWait, Jitter: -1}.Wait(attempt)
	return d - time.Duration(jitter*float64(d)/2)
}

// retryAfter reads a Retry-After header of a 429 or 5xx answer, in
// seconds (kube-apiserver's form) or as an HTTP date.
func retryAfter(resp *http.Response) (time.Duration, bool) {
	if resp == nil || (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500) {
		return 0, false
	}
	v := strings.TrimSpace(resp.Header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if isDigits(v) {
		// Saturate: a number of seconds too large for a Duration is
		// still "wait as long as you may", never a negative wait.
		s, err := strconv.ParseInt(v, 10, 64)
		if err != nil || s > maxRetryAfterSeconds {
			return maxRetryAfter, true
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return min(max(time.Until(t), 0), maxRetryAfter), true
	}
	return 0, false
}

// maxRetryAfter is the longest Retry-After the client represents; every
// wait it leads to is capped far below it anyway (RetryPolicy.MaxWait,
// the reflector's MaxServerWait).
const (
	maxRetryAfterSeconds = math.MaxInt32
	maxRetryAfter        = maxRetryAfterSeconds * time.Second
)

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// statusError is the error for a non-2xx answer. A Retry-After header the
// Status body does not repeat (a proxy's 503, say) goes into the Status's
// details, so that whoever retries later, a reflector for one, sees it.
func statusError(resp *http.Response, body []byte) *codec.StatusError {
	se := codec.ErrorFromResponse(resp.StatusCode, resp.Header.Get("Content-Type"), body)
	if _, ok := se.RetryAfter(); ok {
		return se
	}
	if d, ok := retryAfter(resp); ok {
		if se.Status.Details == nil {
			se.Status.Details = &metav1.StatusDetails{}
		}
		// d is at most maxRetryAfter, so the rounding cannot overflow.
		se.Status.Details.RetryAfterSeconds = int32(min((d+time.Second-1)/time.Second, maxRetryAfterSeconds))
	}
	return se
}

// neverSent reports errors that happened before the request left: a
// failed dial or proxy connect. Any request may be repeated after them.
func neverSent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && (op.Op == "dial" || op.Op == "proxyconnect") {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns) && dns.IsTemporary
}

// permanentError reports errors that a retry cannot fix: TLS verification
// failures and the like, and answers the client refused (over
// MaxResponseBytes, or malformed): the server would send them again, and
// each try would cost as much as the first.
func permanentError(err error) bool {
	if errors.Is(err, codec.ErrTooLarge) || errors.Is(err, codec.ErrMalformed) {
		return true
	}
	var unknownAuth x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var verify *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	var creds *credentialError
	var enc *encodingError
	return errors.As(err, &creds) || errors.As(err, &enc) || errors.As(err, &unknownAuth) || errors.As(err, &hostname) || errors.As(err, &invalid) ||
		errors.As(err, &verify) || errors.As(err, &record) || proxyRefused(err)
}

// proxyRefused reports whether err is an HTTP proxy's refusal of the
// tunnel that each try would get again (see proxyConnectError.permanent).
// A proxy's 502 or 503 (the server unreachable behind it) stays
// retryable. On a Config.Transport without checkProxyConnect, net/http
// returns the CONNECT answer's status text as a bare error: then only
// the texts of 407 and 403 are known.
func proxyRefused(err error) bool {
	if pe, ok := errors.AsType[*proxyConnectError](err); ok {
		return pe.permanent()
	}
	for e := err; e != nil; e = errors.Unwrap(e) {
		if errors.Unwrap(e) == nil {
			msg := e.Error()
			return msg == http.StatusText(http.StatusProxyAuthRequired) || msg == http.StatusText(http.StatusForbidden)
		}
	}
	return false
}

// safeMethod reports methods a client may repeat without changing the
// outcome of the first try.
func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}
