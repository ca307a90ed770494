package leaderelection

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/client"
)

// ErrLeadershipLost is returned by Run when this candidate led and could
// not renew the Lease within RenewDeadline, or found another holder in
// it.
var ErrLeadershipLost = errors.New("leadership lost")

// errAlreadyRunning is returned by a Run that overlaps another.
var errAlreadyRunning = errors.New("leaderelection: Run is already running on this Elector")

// Elector is one candidate for one Lease. Create it with New and call Run.
//
// IsLeader, Leader and Record may be called from any goroutine at any
// time. Run may be called again after it returned (a new campaign), but
// not concurrently.
type Elector struct {
	cfg    Config
	leases *client.Resource[*coordinationv1.Lease]
	log    *slog.Logger

	running atomic.Bool
	leading atomic.Bool

	mu      sync.Mutex
	seen    Record // last record read
	refusal error  // the last 401/403 to a Lease request, nil after a success
}

// New returns a candidate for the Lease cfg names, reached through c. It
// fails with an error matching ErrInvalidConfig when cfg is invalid. New
// sends nothing; Run does.
func New(c *client.Client, cfg Config) (*Elector, error) {
	if c == nil {
		return nil, invalid("New needs a client")
	}
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Elector{
		cfg:    cfg,
		leases: client.For[*coordinationv1.Lease](c).Namespace(cfg.Namespace),
		log:    cfg.Logger.With("lease", cfg.Namespace+"/"+cfg.Name, "identity", cfg.Identity),
	}, nil
}

// Run campaigns for the Lease until this candidate leads, then leads
// until ctx ends, leadership is lost or OnStartedLeading returns. It
// blocks, and returns after every goroutine it started has exited and
// every callback it called has returned:
//
//   - nil when ctx ended, or when OnStartedLeading returned on its own.
//     A leader then releases the Lease (unless KeepOnCancel), after
//     OnStartedLeading returned, so that a successor leads at once.
//   - an error matching ErrLeadershipLost when the term ended because
//     renewing failed for RenewDeadline or another candidate holds the
//     Lease. Call Run again to campaign again, or exit.
//
// Errors talking to the server are logged and retried every RetryPeriod;
// they never end Run by themselves.
func (e *Elector) Run(ctx context.Context) error {
	if !e.running.CompareAndSwap(false, true) {
		return errAlreadyRunning
	}
	defer e.running.Store(false)
	c := &candidate{Elector: e, notify: newNotifier(e.cfg.Callbacks.OnNewLeader)}
	defer c.notify.stop()
	sent, err := c.campaign(ctx)
	if err != nil {
		return nil // ctx ended before we led
	}
	return c.lead(ctx, sent)
}

// IsLeader reports whether this candidate leads now: from just before
// OnStartedLeading is called until just before its ctx is canceled.
func (e *Elector) IsLeader() bool { return e.leading.Load() }

// Leader is the holder this candidate last saw in the Lease ("" before
// the first read, or when the Lease is released).
func (e *Elector) Leader() string { return e.Record().Holder }

// Record is the leadership record this candidate last read or wrote.
func (e *Elector) Record() Record {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.seen
}

// Refused returns the server's last refusal of this candidate's Lease
// requests, an error matching client.ErrForbidden or
// client.ErrUnauthorized (its identity lacks RBAC permission to get,
// create or update the Lease), or nil when the last answer was no
// refusal. A refused candidate retries as for any error, but cannot lead
// until the permission is granted: the manager's /readyz shows it.
func (e *Elector) Refused() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.refusal
}

// noteAnswer records whether a Lease request (err nil: it succeeded) was
// refused, and logs a refusal louder than other errors: retrying cannot
// fix it.
func (c *candidate) noteAnswer(err error, what string, attrs ...any) {
	refused := errors.Is(err, client.ErrForbidden) || errors.Is(err, client.ErrUnauthorized)
	c.mu.Lock()
	switch {
	case err == nil:
		c.refusal = nil
	case refused:
		c.refusal = err
	}
	c.mu.Unlock()
	switch {
	case err == nil:
	case refused:
		c.log.Warn("leaderelection: "+what+": refused; this candidate cannot lead until its identity may get, create and update the Lease (RBAC)", append([]any{"err", err}, attrs...)...)
	default:
		c.log.Info("leaderelection: "+what, append([]any{"err", err}, attrs...)...)
	}
}

// Identity is this candidate's holderIdentity (Config.Identity, or the
// default New chose).
func (e *Elector) Identity() string { return e.cfg.Identity }

// String names the candidate and its Lease, for logs.
func (e *Elector) String() string {
	return fmt.Sprintf("%s for lease %s/%s", e.cfg.Identity, e.cfg.Namespace, e.cfg.Name)
}

// candidate is the state of one Run.
type candidate struct {
	*Elector
	obs    observation
	notify *notifier
}

// observe records a read (or write) of the Lease at now and tells
// OnNewLeader about a new holder.
func (c *candidate) observe(l *coordinationv1.Lease, now time.Time) {
	before := c.obs.record.Holder
	first := !c.obs.anything
	if !c.obs.observe(l, now) {
		return
	}
	r := c.obs.record
	c.mu.Lock()
	c.seen = r
	c.mu.Unlock()
	if r.Holder != "" && (first || r.Holder != before) {
		c.log.Debug("leaderelection: new holder", "holder", r.Holder)
		c.notify.notify(r.Holder)
	}
}
