package controller

import (
	"context"
	"encoding/hex"
	"log/slog"
	"math/rand/v2"
)

// loggerKey is the context key of a Reconcile's logger.
type loggerKey struct{}

// Logger returns the logger of the Reconcile call ctx belongs to: the
// controller's logger (Options.Logger, or the manager's) with the
// controller's name, the Request's namespace and name, and a reconcileID
// unique to the call, so that every line of one Reconcile can be found
// together. Outside a Reconcile it returns slog.Default().
func Logger(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// reconcileLogger returns ctx with the logger of one Reconcile of req,
// and that logger.
func (c *Controller[T]) reconcileLogger(ctx context.Context, req Request) (context.Context, *slog.Logger) {
	l := c.log.With("namespace", req.Namespace, "name", req.Name, "reconcileID", newReconcileID())
	return context.WithValue(ctx, loggerKey{}, l), l
}

// newReconcileID returns a random identifier in the form of a UUID, as
// controller-runtime's reconcileID. It needs to be unique, not secret.
func newReconcileID() string {
	var b [16]byte
	for i := 0; i < 16; i += 8 {
		v := rand.Uint64()
		for j := range 8 {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:])
	return string(s[:])
}
