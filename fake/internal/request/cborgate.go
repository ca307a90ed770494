package request

import (
	"context"
	"net/http"
)

// The CBORServingAndStorage feature gate of kube-apiserver v1.36
// (KEP-4222), carried by a request's context so that the functions here
// stay functions of the request.

type cborGateKey struct{}

// WithCBORGate returns ctx marking its request as served by a server
// with the gate on: application/cbor is offered for responses and taken
// for bodies.
func WithCBORGate(ctx context.Context) context.Context {
	return context.WithValue(ctx, cborGateKey{}, true)
}

// CBORGate reports whether req is served with the gate on.
func CBORGate(req *http.Request) bool {
	on, _ := req.Context().Value(cborGateKey{}).(bool)
	return on
}
