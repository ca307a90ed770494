package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/fake"
)

// faultInjector applies the fault flags in front of the fake server:
// latency on every request, errors at random on resource requests (the
// highest of --error-rate and the rates for the request's verb and
// resource), and a 410 Expired ERROR event ending each watch after
// --watch-expire-every events. Discovery, /version and OpenAPI requests
// are delayed but never failed, so clients can still find their way.
type faultInjector struct {
	opts faultOptions
	next http.Handler

	mu  sync.Mutex
	rng *rand.Rand
}

func newFaultInjector(opts faultOptions, next http.Handler) *faultInjector {
	seed := opts.seed
	if seed == 0 {
		seed = rand.Uint64()
	}
	return &faultInjector{opts: opts, next: next, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

func (f *faultInjector) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if d := f.opts.latency; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-req.Context().Done():
			t.Stop()
			return
		}
	}
	info := parseRequest(req)
	if info.resource && f.fail(info) {
		writeInjectedError(w, f.opts.errorCode)
		return
	}
	if info.verb == "watch" && f.opts.expireEvery > 0 {
		ctx, cancel := context.WithCancel(req.Context())
		defer cancel()
		ew := &expiringWriter{ResponseWriter: w, every: f.opts.expireEvery, cancel: cancel}
		f.next.ServeHTTP(ew, req.WithContext(ctx))
		return
	}
	f.next.ServeHTTP(w, req)
}

// fail draws whether to fail a resource request.
func (f *faultInjector) fail(info requestInfo) bool {
	rate := f.opts.errorRate
	rate = max(rate, f.opts.perVerb[info.verb])
	rate = max(rate, f.opts.perResource[info.resourceKey])
	if plural, _, ok := cutDot(info.resourceKey); ok {
		rate = max(rate, f.opts.perResource[plural])
	}
	if rate <= 0 {
		return false
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rng.Float64() < rate
}

func cutDot(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == '.' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// injectedStatus is the Status kube-apiserver answers with for code.
func injectedStatus(code int) *metav1.Status {
	st := &metav1.Status{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   "Failure",
		Code:     int32(code),
	}
	switch code {
	case http.StatusTooManyRequests:
		st.Reason = "TooManyRequests"
		st.Message = "the server has received too many requests and has asked us to try again later (injected by kubewire-fake)"
		st.Details = &metav1.StatusDetails{RetryAfterSeconds: 1}
	case http.StatusServiceUnavailable:
		st.Reason = "ServiceUnavailable"
		st.Message = "the server is currently unable to handle the request (injected by kubewire-fake)"
	case http.StatusGatewayTimeout:
		st.Reason = "Timeout"
		st.Message = "the server was unable to return a response in the time allotted, but may still be processing the request (injected by kubewire-fake)"
	case http.StatusGone:
		st.Reason = "Expired"
		st.Message = "too old resource version (injected by kubewire-fake --watch-expire-every)"
	case http.StatusInternalServerError:
		st.Reason = "InternalError"
		st.Message = "Internal error occurred: injected by kubewire-fake"
		st.Details = &metav1.StatusDetails{Causes: []metav1.StatusCause{{Message: "injected by kubewire-fake"}}}
	default:
		// any other code: the fake's answer, with kube-apiserver's
		// reason for it
		fs := fake.FaultStatus(code)
		st.Reason, st.Details = fs.Reason, fs.Details
		st.Message = fs.Message + " (injected by kubewire-fake)"
	}
	return st
}

func writeInjectedError(w http.ResponseWriter, code int) {
	b, _ := json.Marshal(injectedStatus(code))
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-cache, private")
	if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
		h.Set("Retry-After", strconv.Itoa(1))
	}
	w.WriteHeader(code)
	_, _ = w.Write(b)
}
