package webhook

import (
	"context"
	"log/slog"
	"sync/atomic"
)

// lateHandler is the handler of a Server made without a logger: it
// discards until Inherit gives it the program's (package manager does),
// so that the lines logged through the copies taken at NewServer and
// Register reach that logger too.
type lateHandler struct {
	target *atomic.Pointer[slog.Handler]
	derive func(slog.Handler) slog.Handler // WithAttrs and WithGroup calls, nil for none
}

func (h lateHandler) current() slog.Handler {
	p := h.target.Load()
	if p == nil {
		return slog.DiscardHandler
	}
	if h.derive != nil {
		return h.derive(*p)
	}
	return *p
}

func (h lateHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.current().Enabled(ctx, level)
}

func (h lateHandler) Handle(ctx context.Context, r slog.Record) error {
	return h.current().Handle(ctx, r)
}

func (h lateHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return h.then(func(t slog.Handler) slog.Handler { return t.WithAttrs(attrs) })
}

func (h lateHandler) WithGroup(name string) slog.Handler {
	return h.then(func(t slog.Handler) slog.Handler { return t.WithGroup(name) })
}

func (h lateHandler) then(next func(slog.Handler) slog.Handler) slog.Handler {
	prev := h.derive
	return lateHandler{target: h.target, derive: func(t slog.Handler) slog.Handler {
		if prev != nil {
			t = prev(t)
		}
		return next(t)
	}}
}

// Inherit gives the Server a logger where its Options had none: the
// first non-nil call wins, and a logger set in Options is kept. Package
// manager calls it with the program's logger, so that an expired
// certificate or a rotation that does not load is not silent. Call it
// before Run: lines logged before it are discarded, and Run itself
// inherits slog.Default() when nothing was given.
func (s *Server) Inherit(logger *slog.Logger) {
	if logger == nil || s.inherited == nil {
		return
	}
	h := logger.Handler()
	s.inherited.CompareAndSwap(nil, &h)
}
