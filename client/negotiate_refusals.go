package client

import (
	"sync"
	"time"
)

// refusalHold is how long a refused media type stays refused for a
// resource. Servers change under a long-lived client (a feature gate
// turned on again, a proxy replaced, a rolling upgrade), so a refusal
// is not kept for the client's life: after this long one request offers
// the refused type again, and a second refusal holds it for another
// interval. One wasted round trip per resource per interval is the cost.
const refusalHold = 5 * time.Minute

// refusals remembers, per resource, when its server last refused a
// media type: a 406 to an Accept offering it, or a 415 to a body in it.
// The zero value is ready to use.
type refusals struct {
	at sync.Map // GroupVersionResource -> time.Time of the refusal
}

// refuse records that gvr's server refused the media type now.
func (r *refusals) refuse(gvr GroupVersionResource) {
	r.at.Store(gvr, time.Now())
}

// refused reports whether requests to gvr must avoid the media type.
// Once the hold has passed it answers false to exactly one caller,
// which probes the server with the type and reports the outcome with
// refuse or accepted; meanwhile the others keep avoiding it for another
// hold.
func (r *refusals) refused(gvr GroupVersionResource) bool {
	v, ok := r.at.Load(gvr)
	if !ok {
		return false
	}
	now := time.Now()
	if now.Sub(v.(time.Time)) < refusalHold {
		return true
	}
	return !r.at.CompareAndSwap(gvr, v, now)
}

// accepted records that gvr's server took the media type: the refusal,
// if any, is over.
func (r *refusals) accepted(gvr GroupVersionResource) {
	if _, ok := r.at.Load(gvr); ok {
		r.at.Delete(gvr)
	}
}

// answered reports whether err is the server's own answer to a request
// (a Status), which means it took the request's media types.
func answered(err error) bool {
	_, ok := StatusOf(err)
	return ok
}
