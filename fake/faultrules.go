package fake

import (
	"net/http"
	"slices"
	"time"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/fake/internal/apierr"
	"github.com/kubewire/kubewire/fake/internal/request"
)

// Fault is a failure aimed at the API requests its Match selects, for
// Faults.Add. Discovery, health and OpenAPI requests are never matched.
type Fault struct {
	// Match selects the requests (the zero Match: every API request).
	Match Match
	// Times is how many matching requests the fault hits; 0 means every
	// one until it is removed.
	Times int
	// Code is the status code to answer with (429, 500, 503, 504, or a
	// refusal such as 403, 404, 409), with the reason kube-apiserver gives
	// that code (Forbidden, NotFound, Conflict...) and a Status naming
	// the request's resource and object; 0 serves the request (after
	// Latency).
	Code int
	// Message replaces the Status's message.
	Message string
	// RetryAfter, rounded up to whole seconds, is sent as Retry-After
	// (and, for 429, as details.retryAfterSeconds) when positive.
	RetryAfter time.Duration
	// Latency delays the matching requests before they are served or
	// failed.
	Latency time.Duration
}

// FaultStatus is the Status the fake answers a Fault of code with for a
// request naming no resource: the reason kube-apiserver gives that code
// (BadRequest, Unauthorized, Forbidden, NotFound, Conflict, Invalid,
// InternalError for the 5xx it has no other for...) and a message in its
// words. Front ends that inject faults themselves (cmd/kubewire-fake)
// answer with it.
func FaultStatus(code int) metav1.Status {
	return apierr.Server(code, registry.Kind{}, "").Status
}

// faultRule is an added Fault and what is left of it.
type faultRule struct {
	Fault
	left int // -1 for every request
}

// Add injects a fault and returns a function that removes it (calling
// it again does nothing). Faults are tried in the order they were
// added; the first that matches a request and has hits left takes it.
// Clear removes every fault.
func (f *Faults) Add(fault Fault) (remove func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := &faultRule{Fault: fault, left: fault.Times}
	if fault.Times <= 0 {
		r.left = -1
	}
	f.rules = append(f.rules, r)
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.rules = slices.DeleteFunc(f.rules, func(x *faultRule) bool { return x == r })
	}
}

// forRequest takes the fault, if any, that a routed request matches,
// and returns its error and latency.
func (f *Faults) forRequest(ri request.Info) (*apierr.Error, time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, r := range f.rules {
		if r.left == 0 || !r.Match.matches(ri) {
			continue
		}
		if r.left > 0 {
			r.left--
			if r.left == 0 {
				f.rules = slices.Delete(f.rules, i, i+1)
			}
		}
		if r.Code == 0 {
			return nil, r.Latency
		}
		secs := int((r.RetryAfter + time.Second - 1) / time.Second)
		var e *apierr.Error
		if r.Code == http.StatusTooManyRequests {
			e = apierr.TooManyRequests(max(secs, 1))
		} else {
			e = apierr.Server(r.Code, registry.Kind{Group: ri.Group, Resource: ri.Resource}, ri.Name)
			e.RetryAfter = secs
		}
		if r.Message != "" {
			e.Status.Message = r.Message
		}
		return e, r.Latency
	}
	return nil, 0
}
