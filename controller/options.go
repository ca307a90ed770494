package controller

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/workqueue"
)

// Defaults of Options.
const (
	DefaultSyncTimeout           = 2 * time.Minute
	DefaultReadYourWritesTimeout = 10 * time.Second
)

// Options configure a Controller. The zero value is one worker, the
// work queue's default rate limits, no read-your-writes and no logs.
// New refuses values no caller can mean (negative counts and durations,
// an unknown Shard key, invalid Queue options).
type Options struct {
	// Workers is how many Requests are reconciled at once (default 1).
	Workers int
	// Queue configures the work queue: the per-Request backoff after
	// errors (BaseDelay, MaxDelay, Multiplier, Jitter), the overall
	// retry budget (QPS, Burst), priority aging and queue metrics.
	Queue workqueue.Options

	// SyncTimeout bounds the wait, at the start of Run, for every
	// source's cache to hold a full state and for the controller's
	// handlers to have queued it (default DefaultSyncTimeout). A cache
	// the server refuses to fill (RBAC forbids the list or the watch,
	// the resource does not exist) fails Run as soon as the informer
	// reports it, before this timeout.
	SyncTimeout time.Duration

	// ReadYourWrites makes a worker, after Reconcile returns, wait until
	// the controller's sources have observed the writes Reconcile made
	// with its ctx (through any client.Resource: create, update, patch,
	// apply, their status forms; see client.OnWrite) and those it
	// recorded with Wrote, before the Request can be reconciled again.
	// The next Reconcile of the Request then never reads a cache older
	// than its own writes. Deletions are not waited for.
	ReadYourWrites bool
	// ReadYourWritesTimeout bounds that wait (default
	// DefaultReadYourWritesTimeout); when it passes, the worker logs a
	// warning and goes on.
	ReadYourWritesTimeout time.Duration

	// DetectCacheMutations, for tests, makes a Reconcile of NewFor (or
	// ForObject) that changed the cache's object it was given fail with
	// ErrCacheMutated, naming the fields it changed. Such a change is
	// seen by every reader of the cache, and kept when the write after it
	// fails: a controller-runtime habit (its Get returns a copy) that
	// otherwise shows as rare, wrong reconciles. It encodes the object
	// twice per Reconcile. package manager's Options.DetectCacheMutations
	// sets it for every controller.
	DetectCacheMutations bool

	// ResyncPeriod, when positive, queues every primary object again at
	// this period, at low priority.
	ResyncPeriod time.Duration

	// Shard, when set, makes the controller one of several replicas that
	// split the primary objects between them by the hash of this field
	// (client.ShardByUID or client.ShardByNamespace, as in KEP-5866
	// shard selectors): it reconciles only the Requests whose object
	// falls in the part SetShard gives it (nothing until then), and
	// Drain waits for the Reconcile calls of a part given up. Package
	// sharding gives replicas their parts. With ShardByUID a Request is
	// matched through the primary cache: Requests of objects the cache
	// does not hold (and did not see deleted) are dropped as another
	// replica's.
	//
	// Left empty, it is the key the primary informer's cache is split
	// by: New calls informer.Informer.UseFactoryShard, so that under a
	// sharded manager (manager.Options.Sharding) the primary informer
	// and the controller both take the ring's key, named once. Set, it
	// must be the key the primary informer's cache is split by (or its
	// Factory's); a controller reconciling a part its cache does not
	// hold as it is refused: New returns an error matching
	// client.ErrInvalidOptions.
	Shard client.ShardKey

	// Kind is the primary kind, needed by Owns to recognise owner
	// references to it when the informer's objects do not say it
	// themselves (dynamic and metadata-only informers): Group, Kind and
	// Namespaced are read. Typed kinds (client.Kinded) fill it in.
	Kind registry.Kind

	// Metrics, when set, is told about every Reconcile. Nil: none, or
	// the manager's when a manager runs the controller (SetDefaults).
	Metrics Metrics
	// Logger gets the controller's log lines: errors and panics at
	// Error (once per failed Reconcile, with the Request and its
	// reconcileID), slow read-your-writes waits at Warn. Reconcile gets
	// it, with the Request's fields, from Logger(ctx). Nil is the
	// manager's logger when a manager runs the controller (SetDefaults),
	// else slog.Default(); slog.New(slog.DiscardHandler) silences them.
	Logger *slog.Logger
}

// validate checks o as given (before defaults).
func (o Options) validate() error {
	switch {
	case o.Workers < 0:
		return fmt.Errorf("negative Workers %d", o.Workers)
	case o.SyncTimeout < 0:
		return fmt.Errorf("negative SyncTimeout %v", o.SyncTimeout)
	case o.ReadYourWritesTimeout < 0:
		return fmt.Errorf("negative ReadYourWritesTimeout %v", o.ReadYourWritesTimeout)
	case o.ResyncPeriod < 0:
		return fmt.Errorf("negative ResyncPeriod %v", o.ResyncPeriod)
	case o.Shard != "" && o.Shard != client.ShardByUID && o.Shard != client.ShardByNamespace:
		return fmt.Errorf("unknown Shard key %q (want %s or %s)", o.Shard, client.ShardByUID, client.ShardByNamespace)
	}
	if err := o.Queue.Validate(); err != nil {
		return fmt.Errorf("queue options: %w", err)
	}
	return nil
}

// invalidOptions is an error of New about its arguments: it matches
// client.ErrInvalidOptions, and what it wraps (workqueue.ErrInvalidOptions
// for Options.Queue).
type invalidOptions struct{ error }

func (e invalidOptions) Unwrap() error { return e.error }

func (e invalidOptions) Is(target error) bool { return target == client.ErrInvalidOptions }

func (o Options) withDefaults() Options {
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.SyncTimeout <= 0 {
		o.SyncTimeout = DefaultSyncTimeout
	}
	if o.ReadYourWritesTimeout <= 0 {
		o.ReadYourWritesTimeout = DefaultReadYourWritesTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// Outcome is how one Reconcile call ended.
type Outcome int

// The outcomes of a Reconcile call.
const (
	// Success: no error and no RequeueAfter.
	Success Outcome = iota
	// Requeue: no error, queued again after Result.RequeueAfter.
	Requeue
	// Error: Reconcile returned an error; queued again after a backoff.
	Error
	// Panic: Reconcile panicked; recovered, logged with the stack and
	// queued again after a backoff.
	Panic
	// Terminal: Reconcile returned a TerminalError; not queued again
	// until a change.
	Terminal
)

var outcomeNames = [...]string{"success", "requeue", "error", "panic", "terminal"}

func (o Outcome) String() string {
	if o >= 0 && int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return "unknown"
}

// Metrics is told what a Controller does, to feed a metrics library of
// the program's choice (the work queue's own metrics are configured by
// Options.Queue.Metrics). Its methods are called by the workers, from
// several goroutines at once, and must return quickly.
type Metrics interface {
	// Reconciled: a Reconcile call of the named controller ended after
	// d, with outcome.
	Reconciled(controller string, outcome Outcome, d time.Duration)
	// WaitedForWrites: a worker waited d after Reconcile until the
	// caches observed its writes; timedOut when it gave up.
	WaitedForWrites(controller string, d time.Duration, timedOut bool)
}
