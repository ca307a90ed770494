package manager

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/events"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/metrics"
	"github.com/kubewire/kubewire/sharding"
)

// Runnable is what a Manager runs while this replica leads: a
// controller.Controller, or anything with a Run that blocks until ctx
// ends and returns nil then. A Runnable that returns an error ends the
// manager's Run with it. One that also has a Ready() error method (as
// controllers do) is part of /readyz. When ctx ends on a graceful stop,
// the work it has in progress may go on under controller.ShutdownGrace(ctx),
// which ends GracefulShutdownTimeout later (or when leadership is lost).
type Runnable interface {
	Run(ctx context.Context) error
}

// Manager runs what a controller program is made of: an informer
// Factory, shared by its controllers and kept warm on every replica; an
// event recorder; leader election, so that the Runnables (controllers)
// run on one replica at a time; health and readiness endpoints; and
// periodic cache consistency checks. It is a runner, not a framework:
// every part is the package's own type, reachable through its accessor.
//
// Make it with New, add Runnables and checks, then call Run once. Add,
// CheckConsistency, AddHealthzCheck, AddReadyzCheck and the accessors
// are safe for concurrent use; Add and CheckConsistency must be called
// before Run.
type Manager struct {
	opts     Options
	c        *client.Client
	factory  *informer.Factory
	recorder *events.Recorder
	elector  *leaderelection.Elector
	member   sharding.Ring // nil without Options.Sharding
	metrics  *metrics.Metrics
	log      *slog.Logger

	mu        sync.Mutex
	runnables []Runnable
	factories []*informer.Factory // the other clusters' (AddFactory)
	checks    []*check
	healthz   []probe // the program's liveness checks
	readyz    []probe // the program's readiness checks
	started   bool
	addErr    error // a Runnable Add could not take, returned by Run

	synced           atomic.Bool           // the Factory's first sync is done
	syncErr          atomic.Pointer[error] // why the first sync failed, if it did
	runningRunnables atomic.Bool
	termErr          atomic.Pointer[error] // why the Runnables of the current term failed
	healthAddr       atomic.Value          // string, once listening
	metricsAddr      atomic.Value          // string, once listening

	flushEvents func()          // stops the recorder once it wrote what is queued; set by Run
	stopCtx     context.Context // Run's: its end is the graceful stop; set by Run
	term        termState       // shutdown.go
}

// New returns a Manager for the cluster c reaches. It fails with an
// error matching ErrInvalidOptions, events.ErrInvalidOptions or
// leaderelection.ErrInvalidConfig when opts are invalid. It sends
// nothing; Run does.
func New(c *client.Client, opts Options) (*Manager, error) {
	if c == nil {
		return nil, fmt.Errorf("manager: New needs a client: %w", ErrInvalidOptions)
	}
	opts, err := opts.withDefaults(c.Namespace())
	if err != nil {
		return nil, err
	}
	mx := metrics.New()
	if opts.Informers.Metrics == nil {
		opts.Informers.Metrics = mx.Informers()
	}
	m := &Manager{opts: opts, c: c, metrics: mx, log: opts.Logger.With("manager", opts.Name)}
	if sh := opts.Sharding; sh != nil {
		defaults := sharding.Config{Name: opts.Name, Namespace: c.Namespace(), Logger: opts.Logger}
		if m.member, err = sh.Join(c, defaults); err != nil {
			return nil, fmt.Errorf("manager: %w", err)
		}
		// The ring's key is the Factory's: the informer a controller
		// reconciles from holds this replica's part of it.
		key := m.member.Key()
		if k := opts.Informers.Shard; k != "" && k != key {
			return nil, fmt.Errorf("manager: Informers.Shard %q differs from the ring's key %q; leave it empty: %w", k, key, ErrInvalidOptions)
		}
		opts.Informers.Shard = key
		m.opts.Informers.Shard = key
	}
	if m.factory, err = informer.NewFactory(c, opts.Informers); err != nil {
		return nil, fmt.Errorf("manager: Options.Informers: %w", err)
	}
	if m.recorder, err = events.NewRecorder(c, opts.Events); err != nil {
		return nil, fmt.Errorf("manager: %w", err)
	}
	if le := opts.LeaderElection; le != nil {
		le.Callbacks.OnStartedLeading = m.lead
		if m.elector, err = leaderelection.New(c, *le); err != nil {
			return nil, fmt.Errorf("manager: %w", err)
		}
	}
	if err := m.observe(); err != nil {
		return nil, fmt.Errorf("manager: %w", err)
	}
	return m, nil
}

// Client returns the client the manager was made with.
func (m *Manager) Client() *client.Client { return m.c }

// Factory returns the informer factory Run runs; make the controllers'
// informers from it (informer.Shared and friends) before Run.
func (m *Manager) Factory() *informer.Factory { return m.factory }

// AddFactory adds f, a Factory of another cluster's client, to the
// informers Run runs as it runs its own Factory's: on every replica from
// the start (warm standbys), their first sync waited for before the
// election (SyncTimeout), and their failures on /readyz. A controller
// made with the manager's Factory's informer then Watches (or Owns) f's
// informers: one manager, its Lease in the manager's cluster, for a
// program that reconciles across clusters. f is not sharded. It panics
// when called after Run started, a programming error.
func (m *Manager) AddFactory(f *informer.Factory) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started {
		panic("manager: AddFactory called after Run")
	}
	m.factories = append(m.factories, f)
}

// allFactories is the manager's Factory and those AddFactory added.
func (m *Manager) allFactories() []*informer.Factory {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*informer.Factory{m.factory}, m.factories...)
}

// Events returns the event recorder Run runs.
func (m *Manager) Events() *events.Recorder { return m.recorder }

// Elector returns the leader election candidate, nil without
// Options.LeaderElection.
func (m *Manager) Elector() *leaderelection.Elector { return m.elector }

// Member returns the replica's membership of its ring, nil without
// Options.Sharding (or when its Join made another sharding.Ring).
func (m *Manager) Member() *sharding.Member {
	mem, _ := m.member.(*sharding.Member)
	return mem
}

// ShardKey returns the field the ring splits objects by (for
// informer.Scope.Shard and controller.Options.Shard), "" without
// Options.Sharding.
func (m *Manager) ShardKey() client.ShardKey {
	if m.member == nil {
		return ""
	}
	return m.member.Key()
}

// shardedRunnable is a Runnable that works on a part of the hash space:
// a controller made with Options.Shard.
type shardedRunnable interface {
	sharding.Drainer
	Sharded() bool
}

// IsLeader reports whether the Runnables run on this replica now: while
// it leads, or while Run runs them without an election.
func (m *Manager) IsLeader() bool {
	if m.elector == nil {
		return m.runningRunnables.Load()
	}
	return m.elector.IsLeader()
}

// Add adds r to the Runnables run while this replica leads. It panics
// when called after Run started, a programming error.
func (m *Manager) Add(r Runnable) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started {
		panic("manager: Add called after Run")
	}
	m.runnables = append(m.runnables, r)
	m.adopt(r)
}

// Run runs the manager until ctx ends: the Factory, the event recorder
// and the health server on every replica; once the informers have
// synced, the leader election; and the Runnables while this replica
// leads (all of them at once, each with a ctx that ends when leadership
// does). A replica that loses the lead stops its Runnables and stands by
// again, its caches warm.
//
// The end of ctx is a graceful stop (see "Graceful shutdown" in the
// package doc): the Runnables stop taking work, the work in progress
// has Options.GracefulShutdownTimeout to finish, its events are
// written, then the Lease is released and the rest stops.
//
// Run returns nil after ctx ended and every goroutine it started has
// returned. It returns early with an error when the informers cannot
// sync (see Options.SyncTimeout), when a Runnable fails, or when the
// health server cannot listen. Run is called once.
func (m *Manager) Run(ctx context.Context) error {
	m.mu.Lock()
	if m.started {
		m.mu.Unlock()
		return errors.New("manager: Run called twice")
	}
	m.started = true
	m.checkFactory()
	checks, addErr := m.checks, m.addErr
	m.mu.Unlock()
	if addErr != nil {
		return addErr
	}

	healthLn, metricsLn, err := m.listen()
	if err != nil {
		return err
	}
	m.logStart(len(checks))
	g, gctx := errgroup.WithContext(ctx)
	// The recorder outlives the Runnables, so that the events of the
	// Reconcile calls in progress at the end are written too.
	recCtx, stopRecorder := context.WithCancel(context.WithoutCancel(ctx))
	recorded := make(chan error, 1)
	go func() { recorded <- quiet(recCtx, m.recorder.Run(recCtx)) }()
	m.flushEvents = sync.OnceFunc(func() {
		stopRecorder()
		<-recorded
	})
	defer m.flushEvents()
	m.stopCtx = gctx
	// What the Runnables use (the informers, the webhook server, the
	// endpoints) serves until they have drained on a graceful stop.
	pctx, stopParts := context.WithCancel(context.WithoutCancel(gctx))
	defer stopParts()
	if healthLn != nil {
		serve(pctx, g, healthLn, m.Handler(), "health endpoints")
	}
	if metricsLn != nil {
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", m.metrics.Handler())
		serve(pctx, g, metricsLn, mux, "metrics endpoint")
	}
	m.runWebhook(pctx, g)
	for _, f := range m.allFactories() {
		g.Go(func() error { return quiet(pctx, f.Run(pctx)) })
	}
	for _, c := range checks {
		g.Go(func() error { c.loop(gctx, m); return nil })
	}
	g.Go(func() error {
		err := m.runAfterSync(gctx)
		if err == nil {
			<-gctx.Done() // the Runnables returned early: serve on until the end
		}
		stopParts()
		return err
	})
	return quiet(ctx, g.Wait())
}

// runAfterSync runs what runs once the informers synced, until ctx ends
// and the Runnables drained.
func (m *Manager) runAfterSync(ctx context.Context) error {
	if err := m.waitForSync(ctx); err != nil {
		return err
	}
	switch {
	case m.member != nil:
		return m.runSharded(ctx)
	case m.elector == nil:
		return m.runRunnables(ctx, context.WithoutCancel(ctx))
	}
	return m.campaign(ctx)
}

// quiet turns the end of the manager's ctx into a clean nil, whether it
// was canceled or reached its deadline.
func quiet(ctx context.Context, err error) error {
	if errors.Is(err, context.Canceled) || ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return nil
	}
	return err
}

// waitForSync waits for the Factory's first sync, bounded by SyncTimeout.
func (m *Manager) waitForSync(ctx context.Context) error {
	sctx, cancel := context.WithTimeout(ctx, m.opts.SyncTimeout)
	defer cancel()
	start := time.Now()
	var err error
	var failures []error
	for _, f := range m.allFactories() {
		if err = f.WaitForSync(sctx); err != nil {
			failures = append(failures, f.Err())
			break
		}
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		err = withOtherFailures(err, errors.Join(failures...))
		if errors.Is(err, client.ErrNotFound) {
			// A list answered 404: the resource is not served, most
			// often a custom resource whose definition is missing.
			err = fmt.Errorf("%w (a resource not served: a custom resource's CustomResourceDefinition must be installed first, with crd.Install or kubectl apply -f config/crd)", err)
		}
		err = fmt.Errorf("manager %s: informers not synced: %w", m.opts.Name, err)
		m.syncErr.Store(&err)
		return err
	}
	m.synced.Store(true)
	m.log.Info("manager: informers synced", "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// campaign runs the leader election until ctx ends: each term runs the
// Runnables; a term lost is followed by a new campaign.
func (m *Manager) campaign(ctx context.Context) error {
	ectx, stopCampaign := m.term.electorContext(ctx)
	defer stopCampaign()
	for {
		m.termErr.Store(nil)
		err := m.elector.Run(ectx)
		if p := m.termErr.Load(); p != nil {
			return *p // a Runnable failed: the program cannot work
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, leaderelection.ErrLeadershipLost) {
			m.log.Warn("manager: leadership lost; standing by", "error", err)
			continue
		}
		if err != nil {
			return err
		}
	}
}

// lead is OnStartedLeading: it runs the Runnables for one term, ctx
// ending when leadership is lost. Run's ctx ending stops them gracefully
// (see shutdown.go); the events are then flushed before lead returns and
// the elector releases the Lease.
func (m *Manager) lead(ctx context.Context) {
	if !m.term.begin() {
		return // stopping already: the elector releases the Lease
	}
	defer m.term.end()
	m.log.Info("manager: leading; starting the runnables")
	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(m.stopCtx, cancel)()
	if err := m.runRunnables(stop, ctx); err != nil && stop.Err() == nil {
		m.termErr.Store(&err)
	}
	if m.stopCtx.Err() != nil && ctx.Err() == nil {
		m.flushEvents()
	}
}

// runSharded runs the ring membership and every Runnable until ctx ends
// or one fails. The member tells the Factory's sharded informers and the
// sharded controllers their part.
func (m *Manager) runSharded(ctx context.Context) error {
	m.mu.Lock()
	rs := append([]Runnable(nil), m.runnables...)
	m.mu.Unlock()
	m.member.Add(m.factory)
	for _, r := range rs {
		if s, ok := r.(shardedRunnable); ok && s.Sharded() {
			m.member.Add(s)
		}
	}
	// The ring keeps this replica's part until the Runnables drained.
	memberCtx, stopMember := context.WithCancel(context.WithoutCancel(ctx))
	defer stopMember()
	g, gctx := errgroup.WithContext(memberCtx)
	g.Go(func() error { return m.member.Run(gctx) })
	g.Go(func() error {
		defer stopMember()
		stop, cancel := context.WithCancel(ctx)
		defer cancel()
		defer context.AfterFunc(gctx, cancel)()
		return m.runRunnables(stop, gctx)
	})
	err := g.Wait()
	if errors.Is(err, context.Canceled) {
		err = ctx.Err()
	}
	return err
}

// runRunnables runs every Runnable until stop ends or one fails. Their
// work in progress then has GracefulShutdownTimeout to finish, unless
// hard ends first (leadership lost): see controller.WithShutdownGrace.
func (m *Manager) runRunnables(stop, hard context.Context) error {
	grace, endGrace := graceAfter(stop, hard, m.opts.GracefulShutdownTimeout)
	defer endGrace()
	ctx := controller.WithShutdownGrace(stop, grace)
	m.mu.Lock()
	rs := append([]Runnable(nil), m.runnables...)
	m.mu.Unlock()
	m.runningRunnables.Store(true)
	defer m.runningRunnables.Store(false)
	if m.elector == nil {
		m.log.Info("manager: starting the runnables", "runnables", len(rs)) // the elected path says it when leading
	}
	g, gctx := errgroup.WithContext(ctx)
	for _, r := range rs {
		g.Go(func() error {
			if err := r.Run(gctx); err != nil && !errors.Is(err, context.Canceled) {
				return err
			}
			return nil
		})
	}
	err := g.Wait()
	if err == nil {
		err = stop.Err()
	}
	return err
}

// defaultIdentity is the host name and a random suffix, unique for the
// life of the process as leader election requires.
func defaultIdentity() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	if host == "" {
		host = "manager"
	}
	return host + "-" + hex.EncodeToString(b[:])
}

// withOtherFailures joins to err the failures among failures (the
// Factory's, joined) that err does not already tell, so that a refused
// cache is reported once, however many informers know of it.
func withOtherFailures(err, failures error) error {
	if failures == nil {
		return err
	}
	all := []error{failures}
	if j, ok := failures.(interface{ Unwrap() []error }); ok {
		all = j.Unwrap()
	}
	out := []error{err}
	for _, f := range all {
		if !errors.Is(err, f) && !strings.Contains(err.Error(), f.Error()) {
			out = append(out, f)
		}
	}
	if len(out) == 1 {
		return err
	}
	return errors.Join(out...)
}
