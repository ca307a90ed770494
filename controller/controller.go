package controller

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/workqueue"
)

// Controller reconciles the objects of one primary kind T: it queues a
// Request for every change its sources report (the primary informer,
// owned kinds, mapped informers) and hands each to a Reconciler, one
// worker per Request at a time. Make one with New, add sources with
// Owns and Watches, then Run it.
//
// Filter, Owns and Watches must be called before Run. Every other method
// is safe for concurrent use. Run may be called again after it returned
// (for example each time this replica becomes the leader).
type Controller[T client.Object] struct {
	name    string
	r       Reconciler
	opts    Options
	unset   unset // options New had no value for (defaults.go)
	log     *slog.Logger
	primary *watch[T]
	active  atomic.Int32 // Reconcile calls in progress

	mu      sync.Mutex
	sources []source
	running bool
	q       *workqueue.Queue[Request] // the running Run's, else nil

	guard shardGuard // shard.go; with Options.Shard only
}

// New returns a controller named name (for logs, metrics and errors)
// reconciling the objects of primary with r. The informer is not run by
// the controller: run it (or its Factory) beside it, as package manager
// does. NewFor is the common case of a Reconciler that reads the
// primary object from the cache.
//
// New checks every argument and option, so that Run never fails for a
// reason it could have told at once: an empty name, a nil informer or
// Reconciler, or Options it cannot run with (see Options) fail with an
// error matching client.ErrInvalidOptions (and workqueue.ErrInvalidOptions
// for Options.Queue).
func New[T client.Object](name string, primary *informer.Informer[T], r Reconciler, opts Options) (*Controller[T], error) {
	switch {
	case name == "":
		return nil, invalidOptions{errors.New("controller: the name is empty")}
	case primary == nil:
		return nil, invalidOptions{fmt.Errorf("controller %s: the primary informer is nil", name)}
	case r == nil || reflect.ValueOf(r).Kind() == reflect.Func && reflect.ValueOf(r).IsNil():
		return nil, invalidOptions{fmt.Errorf("controller %s: the Reconciler is nil", name)}
	}
	if err := opts.validate(); err != nil {
		return nil, invalidOptions{fmt.Errorf("controller %s: %w", name, err)}
	}
	unset := unsetOf(opts)
	opts = opts.withDefaults()
	key, err := shardKeyOf(name, primary, opts.Shard)
	if err != nil {
		return nil, invalidOptions{err}
	}
	opts.Shard = key
	if k, ok := any(*new(T)).(client.Kinded); ok && opts.Kind.Kind == "" {
		opts.Kind = k.KindInfo() // generated KindInfo methods do not dereference
	}
	c := &Controller[T]{name: name, r: r, opts: opts, unset: unset, log: opts.Logger.With("controller", name)}
	c.primary = newWatch(primary, nil, func(obj T, emit func(Request)) { emit(RequestFor(obj)) }, sourceName(opts.Kind, primary))
	c.primary.primary = true
	if opts.Shard != "" {
		c.guard.sel = client.ShardSelector{Key: opts.Shard}
		c.primary.deleted = c.primaryDeleted
	}
	c.sources = []source{c.primary}
	return c, nil
}

// NewFor returns a controller named name that calls reconcile with each
// object of primary that a change queues, read from primary's cache: New
// with ForObject(primary, reconcile). A Request whose object the cache
// no longer holds (it was deleted) is done without a call; see
// ForObject. It fails as New does.
func NewFor[T client.Object](name string, primary *informer.Informer[T], reconcile func(ctx context.Context, obj T) (Result, error), opts Options) (*Controller[T], error) {
	if primary == nil || reconcile == nil {
		return New[T](name, primary, nil, opts)
	}
	return New(name, primary, ForObject(primary, reconcile), opts)
}

// sourceName names an informer's objects for messages: the resource as
// kubectl names it ("configmaps", "widgets.example.com") when the kind
// is known, else the Go type.
func sourceName[O client.Object](k registry.Kind, inf *informer.Informer[O]) string {
	if kd, ok := any(*new(O)).(client.Kinded); ok {
		k = kd.KindInfo()
	}
	switch {
	case k.Resource != "" && k.Group != "":
		return k.Resource + "." + k.Group
	case k.Resource != "":
		return k.Resource
	case k.Kind != "":
		return k.Kind
	case inf != nil && inf.Resource() != "":
		return inf.Resource() // a dynamic informer: its type names nothing
	}
	return fmt.Sprintf("%T", *new(O))
}

// Name returns the controller's name.
func (c *Controller[T]) Name() string { return c.name }

// Filter adds predicates to the primary informer's events: a change
// queues its Request only if every predicate lets it through (as
// controller-runtime's WithEventFilter called twice). For a change that
// any of them lets through, give one Or:
// Filter(Or[*v1.Widget](GenerationChanged, LabelsChanged)).
func (c *Controller[T]) Filter(preds ...Predicate[T]) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mustNotRun("Filter")
	c.primary.preds = append(c.primary.preds, preds...)
}

// Owns makes changes to the objects of inf queue the Request of their
// controller owner (the ownerReference with controller set, see
// ctrlutil.SetControllerReference) when it is of c's primary kind. It
// panics if the primary kind is unknown (set Options.Kind for dynamic
// and metadata-only primaries), a programming error.
//
// A controller sharded by namespace (client.ShardByNamespace) makes inf,
// when it comes from a Factory sharded the same way, hold only this
// replica's part too (informer.Informer.UseFactoryShard): an owned
// object lives in its owner's namespace. Sharded by uid, owned objects
// hash apart from their owners, and inf keeps every object of its Scope.
func Owns[T, O client.Object](c *Controller[T], inf *informer.Informer[O], preds ...Predicate[O]) {
	k := c.opts.Kind
	if k.Kind == "" {
		panic(fmt.Sprintf("controller %s: Owns needs the primary kind: set Options.Kind", c.name))
	}
	if c.opts.Shard == client.ShardByNamespace {
		inf.UseFactoryShard()
	}
	c.add(newWatch(inf, preds, ownerRequests[O](k.Group, k.Kind, k.Namespaced), sourceName(registry.Kind{}, inf)))
}

// Watches makes changes to the objects of inf queue the Requests that
// requests returns for them (for an update, for the old and the new
// object). requests runs on the informer's handler goroutine and must be
// quick; it reads the cache's object and must not modify it.
func Watches[T, O client.Object](c *Controller[T], inf *informer.Informer[O], requests func(O) []Request, preds ...Predicate[O]) {
	c.add(newWatch(inf, preds, func(obj O, emit func(Request)) {
		for _, r := range requests(obj) {
			emit(r)
		}
	}, sourceName(registry.Kind{}, inf)))
}

func (c *Controller[T]) add(s source) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mustNotRun("Owns or Watches")
	c.sources = append(c.sources, s)
}

// mustNotRun panics if Run is running; c.mu is held.
func (c *Controller[T]) mustNotRun(what string) {
	if c.running {
		panic(fmt.Sprintf("controller %s: %s called while Run runs", c.name, what))
	}
}

// Enqueue queues req, as a change of a source would. It does nothing
// while Run is not running.
func (c *Controller[T]) Enqueue(req Request) {
	c.mu.Lock()
	q := c.q
	c.mu.Unlock()
	if q != nil {
		q.Add(req)
	}
}

// Len returns how many Requests are queued, waiting for a worker (0
// while Run is not running).
func (c *Controller[T]) Len() int {
	c.mu.Lock()
	q := c.q
	c.mu.Unlock()
	if q == nil {
		return 0
	}
	return q.Len()
}

// Run registers the controller's handlers with its sources, waits until
// every source's cache is synced and queued (see Options.SyncTimeout),
// then reconciles with Options.Workers workers until ctx ends. It then
// stops taking Requests, waits for the Reconcile calls in progress
// (their ctx has ended too, unless ctx came from WithShutdownGrace:
// then they may finish their work), removes its handlers, and returns
// nil after every goroutine it started has ended.
//
// Run returns an error matching ErrNotSynced when a cache cannot sync:
// the server refused it (the error also matches the server's, such as
// client.ErrForbidden) or SyncTimeout passed. A cache that loses its
// sync later is reported by Ready, not by Run.
func (c *Controller[T]) Run(ctx context.Context) error {
	c.mu.Lock()
	if c.running {
		c.mu.Unlock()
		return fmt.Errorf("controller %s: Run called while it runs", c.name)
	}
	c.running = true
	c.guard.mu.Lock()
	c.guard.gone = nil // deletions seen by an earlier Run's handlers
	c.guard.mu.Unlock()
	q, err := workqueue.New[Request](c.opts.Queue) // checked by New: no error
	if err != nil {
		c.mu.Unlock()
		return err
	}
	sources := append([]source(nil), c.sources...)
	regs := make([]registered, len(sources))
	for i, s := range sources {
		regs[i] = s.register(q, c.opts.ResyncPeriod)
	}
	c.q = q
	c.mu.Unlock()
	defer func() {
		q.ShutDown()
		for _, r := range regs {
			r.remove()
		}
		c.mu.Lock()
		c.running, c.q = false, nil
		c.mu.Unlock()
	}()

	if err := c.waitForSync(ctx, sources, regs); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while waiting
		}
		return err
	}
	c.log.Debug("controller: caches synced; starting workers", "workers", c.opts.Workers)
	inFlight, stopInFlight := inFlightContext(ctx)
	defer stopInFlight()
	var wg sync.WaitGroup
	for range c.opts.Workers {
		wg.Go(func() { c.work(ctx, inFlight, q, regs) })
	}
	<-ctx.Done()
	q.ShutDown()
	wg.Wait()
	return nil
}

// Ready returns nil when every source's cache holds a full state and
// none reports a persistent failure; otherwise an error naming the
// sources that are not ready. It does not need Run to be running, so a
// standby replica reports its caches too.
func (c *Controller[T]) Ready() error {
	c.mu.Lock()
	sources := append([]source(nil), c.sources...)
	c.mu.Unlock()
	var errs []error
	for _, s := range sources {
		if err := s.failure(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s, err))
		} else if !s.synced() && !s.running() {
			errs = append(errs, fmt.Errorf("%s: not synced: %w", s, errNotRunning))
		} else if !s.synced() {
			errs = append(errs, fmt.Errorf("%s: %w", s, errNotSyncedYet))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("controller %s: %w", c.name, errors.Join(errs...))
	}
	return nil
}

func (c *Controller[T]) String() string { return "controller " + c.name }
