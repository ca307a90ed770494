package informer

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// ErrStopped is returned by WaitForSync when the informer stopped (or the
// handler was removed) before the wait was over.
var ErrStopped = errors.New("informer: stopped")

// Options configure an Informer. The zero value caches the whole
// collection with NamespaceIndex only.
type Options[T client.Object] struct {
	// Reflector configures the list and watch: selectors, streaming
	// lists, timeouts and backoff.
	Reflector reflector.Options
	// Indexes to build beside NamespaceIndex; more can be added later
	// with Store().AddIndexes.
	Indexes map[string]IndexFunc[T]
	// Transform, when set, is applied to every object before it is
	// cached and handed to handlers, for example to drop managedFields
	// and save memory (see reflector.TransformStore). It receives a
	// freshly decoded object and may set its fields and return it, but
	// must not modify maps or slices in place: the decoder shares equal
	// maps (labels, for example) between objects.
	Transform func(T) T
	// KeepDecoded, for an informer of *unstructured.Unstructured only,
	// keeps cached objects as decoded maps that every read shares
	// (read-only), instead of the default compact form from which every
	// read (Get, List, ByIndex, Snapshot, listers) builds a new object
	// the caller owns. The compact form holds an object in half to two
	// thirds of the heap; building one costs about as much as a DeepCopy. Set it
	// for a program that reads the whole cache in a hot loop and has the
	// memory. Set for any other T it is an error: those informers always
	// keep decoded objects.
	KeepDecoded bool
}

// Informer keeps an indexed cache of a collection in step with the
// server and tells registered handlers about every change. Make one with
// New; run it once with Run. All other methods are safe for concurrent
// use, before, during and after Run.
type Informer[T client.Object] struct {
	store     *Store[T]
	reflector *reflector.Reflector[T]
	factory   *Factory            // the Factory that made it, nil for New
	src       reflector.Source[T] // for Check
	opts      reflector.Options   // for Check: the selectors
	scope     scopeFilter         // for Covers

	handlers []*Registration[T] // guarded by store.mu, so changes and registrations are ordered

	mu      sync.Mutex
	started bool
	running bool
	runCtx  context.Context
	wg      sync.WaitGroup
	stopped chan struct{} // closed when Run returns
}

// New returns an Informer caching the collection src lists and watches:
// a *client.Resource[T] (typed, dynamic or metadata-only; namespaced
// with Namespace(ns) or across namespaces). It fails with an error
// matching client.ErrInvalidOptions when src is nil, opts.Indexes names
// NamespaceIndex or has a nil function, opts.KeepDecoded is set for a T
// other than *unstructured.Unstructured, or opts.Reflector is invalid
// (see reflector.Options.Validate): Run never fails for its options.
func New[T client.Object](src reflector.Source[T], opts Options[T]) (*Informer[T], error) {
	if _, dynamic := any(*new(T)).(*unstructured.Unstructured); opts.KeepDecoded && !dynamic {
		return nil, fmt.Errorf("informer: Options.KeepDecoded is for informers of *unstructured.Unstructured, not %T: %w", *new(T), client.ErrInvalidOptions)
	}
	store, err := newStore(opts.Indexes, opts.KeepDecoded)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, client.ErrInvalidOptions)
	}
	inf := &Informer[T]{store: store, stopped: make(chan struct{}), src: src, opts: opts.Reflector,
		scope: newScopeFilter("", opts.Reflector.LabelSelector, opts.Reflector.FieldSelector)}
	store.notify = inf.dispatch
	w := reflector.TransformStore[T](writer[T]{store}, opts.Transform)
	if inf.reflector, err = reflector.New(src, w, opts.Reflector); err != nil {
		return nil, fmt.Errorf("informer: %w", err)
	}
	return inf, nil
}

// Store returns the informer's cache, for reads and for adding indexes;
// only the informer writes it.
func (inf *Informer[T]) Store() *Store[T] { return inf.store }

// Lister returns a read view of the cache with selector queries.
func (inf *Informer[T]) Lister() Lister[T] { return inf.store.Lister() }

// Reflector returns the reflector feeding the cache (for its State).
func (inf *Informer[T]) Reflector() *reflector.Reflector[T] { return inf.reflector }

// RetryNow tells the informer that the server answers again: one waiting
// after failures tries again at once (see reflector.Reflector.RetryNow).
func (inf *Informer[T]) RetryNow() { inf.reflector.RetryNow() }

// HasSynced reports whether the cache holds a first full state. It
// stays true once it is: see Err for whether the cache still follows the
// server.
func (inf *Informer[T]) HasSynced() bool { return inf.store.HasSynced() }

// Err returns the persistent failure keeping the cache from following
// the server, or nil: a *reflector.PersistentError naming the resource
// and wrapping the server's error (errors.Is(err, client.ErrForbidden)
// works), with the time it started. See the package documentation,
// "When the server refuses".
func (inf *Informer[T]) Err() error { return inf.reflector.Err() }

// WaitForSync blocks until the cache holds a full state and follows the
// server (a watch from that state was accepted, and no persistent
// failure is going on), and returns nil. It returns early with the
// persistent failure (see Err) when the server refused the list or the
// watch (400, 401, 403, 404, 405, 422): the informer keeps retrying, and
// a later WaitForSync returns nil once the cause is fixed. When ctx ends
// first it returns ctx's error joined with the failure that kept the
// cache from syncing, if any (errors.Is matches both); when Run returns
// first, ErrStopped, or nil if the cache had synced. It does not wait
// for handlers; see Registration.WaitForSync. An informer whose Run was
// never called (the commonest first-day mistake) cannot sync: the error
// then says so.
func (inf *Informer[T]) WaitForSync(ctx context.Context) error {
	err := inf.reflector.WaitForSync(ctx)
	if errors.Is(err, reflector.ErrStopped) {
		return ErrStopped
	}
	if err != nil && ctx.Err() != nil && !inf.wasStarted() {
		what := "the informer"
		if s, ok := any(inf.src).(fmt.Stringer); ok {
			what += " of " + s.String()
		}
		return fmt.Errorf("%w; %s was never run (call its Run, or its Factory's)", err, what)
	}
	return err
}

// wasStarted reports whether Run has been called.
func (inf *Informer[T]) wasStarted() bool {
	inf.mu.Lock()
	defer inf.mu.Unlock()
	return inf.started
}

// Run fills the cache and keeps it in step, and delivers changes to the
// handlers, until ctx ends; it then returns ctx's error after every
// goroutine it started (the reflector's and one per handler) has ended.
// New checked the options, so it does not return early for them. Run
// may be called once.
func (inf *Informer[T]) Run(ctx context.Context) error {
	inf.mu.Lock()
	if inf.started {
		inf.mu.Unlock()
		return errors.New("informer: Run called twice")
	}
	inf.started = true
	inf.mu.Unlock()
	defer close(inf.stopped)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	inf.store.mu.Lock()
	inf.mu.Lock()
	inf.running, inf.runCtx = true, ctx
	for _, r := range inf.handlers {
		inf.startLocked(r)
	}
	inf.mu.Unlock()
	inf.store.mu.Unlock()

	err := inf.reflector.Run(ctx)

	inf.mu.Lock()
	inf.running = false
	inf.mu.Unlock()
	cancel()
	inf.wg.Wait()
	return err
}

// startLocked starts r's goroutine; inf.mu is held.
func (inf *Informer[T]) startLocked(r *Registration[T]) {
	if r.started {
		return
	}
	r.started = true
	ctx := inf.runCtx
	inf.wg.Go(func() { r.run(ctx) })
}

// AddHandler registers h. It is first called with OnAdd(obj, true) for
// every object already cached (nothing, before the first sync), then for
// every change after; so a handler added at any time sees a consistent
// history. A handler added before Run starts with Run.
func (inf *Informer[T]) AddHandler(h Handler[T], opts HandlerOptions) *Registration[T] {
	r := &Registration[T]{
		inf: inf, handler: h, opts: opts, q: newQueue[T](),
		synced: make(chan struct{}), stop: make(chan struct{}),
	}
	s := inf.store
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, obj := range s.objs.all() {
		r.q.push(change[T]{kind: changeAdd, flag: true, obj: obj})
	}
	if s.synced {
		r.q.push(change[T]{kind: changeSynced})
	}
	inf.handlers = append(inf.handlers, r)
	inf.mu.Lock()
	if inf.running {
		inf.startLocked(r)
	}
	inf.mu.Unlock()
	return r
}

// dispatch queues c for every handler; called by the store under its
// lock, so queues receive changes in the order they were made.
func (inf *Informer[T]) dispatch(c change[T]) {
	for _, r := range inf.handlers {
		r.q.push(c)
	}
}

// queueResync queues OnUpdate(obj, obj) for every cached object for r.
func (inf *Informer[T]) queueResync(r *Registration[T]) {
	s := inf.store
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.synced {
		return
	}
	for _, obj := range s.objs.all() {
		r.q.push(change[T]{kind: changeUpdate, old: obj, obj: obj})
	}
}

// String names the informer for messages: its collection, its size and
// whether it has synced.
func (inf *Informer[T]) String() string {
	if r := inf.Resource(); r != "" {
		return fmt.Sprintf("informer of %s (%d objects, synced %v)", r, inf.store.Len(), inf.HasSynced())
	}
	return fmt.Sprintf("informer(%d objects, synced %v)", inf.store.Len(), inf.HasSynced())
}

// Resource names the collection the informer caches as its source names
// it ("widgets (example.com/v1) in all namespaces" for a
// *client.Resource), or "" for a source that names nothing: for
// messages, where a dynamic informer's type says nothing.
func (inf *Informer[T]) Resource() string {
	if s, ok := inf.src.(fmt.Stringer); ok {
		return s.String()
	}
	return ""
}
