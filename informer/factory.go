package informer

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"golang.org/x/sync/errgroup"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/reflector"
)

// Scope is the part of a collection an informer caches.
type Scope struct {
	// Namespace limits the cache to one namespace; "" caches all.
	Namespace string
	// LabelSelector and FieldSelector limit it further (nil: no limit).
	LabelSelector client.Selector
	FieldSelector client.Selector
	// Shard, when set, makes the informer hold one part of the hash
	// space of this field (client.ShardByUID or ShardByNamespace), the
	// part Factory.SetShard gives; until then it holds nothing (and is
	// synced). Package sharding gives replicas their parts. Left empty
	// in a sharded Factory (FactoryOptions.Shard), the informer holds
	// the whole collection unless a controller reconciles its objects
	// (see Informer.UseFactoryShard): that is the usual way to shard
	// one, and Shard is for the unusual case, an informer sharded
	// that no controller of this program reconciles from.
	Shard client.ShardKey
}

// Validate reports a Scope no informer can cache: a selector that
// carries an error (client.LabelSelector's builders record one), or a
// Shard key other than client.ShardByUID and client.ShardByNamespace.
// The error matches client.ErrInvalidOptions. Shared panics on such a
// Scope; check one built from input (flags, configuration) first.
func (s Scope) Validate() error {
	ropts := reflector.Options{LabelSelector: s.LabelSelector, FieldSelector: s.FieldSelector}
	if s.Shard != "" {
		ropts.ShardSelector = client.ShardSelector{Key: s.Shard}
	}
	if err := ropts.Validate(); err != nil {
		return fmt.Errorf("informer: Scope: %w", err)
	}
	return nil
}

// describe names an informer of s reading res (the source's String,
// which says the namespace), for Checks.
func (s Scope) describe(res string, obj any) string {
	name := res
	// A type switch, not reflect.TypeFor: a type made into a
	// reflect.Type keeps all its codec methods in every binary, and
	// these two would cost a program caching neither about 60 kB.
	switch obj.(type) {
	case *metav1.PartialObjectMetadata:
		name += ", metadata only"
	case *unstructured.Unstructured:
		name += ", dynamic"
	}
	if s.LabelSelector != nil && s.LabelSelector.String() != "" {
		name += " with labels " + s.LabelSelector.String()
	}
	if s.FieldSelector != nil && s.FieldSelector.String() != "" {
		name += " with fields " + s.FieldSelector.String()
	}
	if s.Shard != "" {
		name += " sharded by " + string(s.Shard)
	}
	return name
}

func (s Scope) String() string {
	str := func(sel client.Selector) string {
		if sel == nil {
			return ""
		}
		return sel.String()
	}
	return s.Namespace + "\x00" + str(s.LabelSelector) + "\x00" + str(s.FieldSelector) + "\x00" + string(s.Shard)
}

// FactoryOptions configure every informer a Factory makes.
type FactoryOptions struct {
	// Reflector is the base reflector configuration; the Scope's
	// selectors replace its LabelSelector and FieldSelector.
	Reflector reflector.Options
	// DropManagedFields removes metadata.managedFields from every cached
	// object, which is often a third of a Pod's size. Controllers rarely
	// read it.
	DropManagedFields bool
	// Shard is the field the replicas of this program split their
	// objects by (client.ShardByUID or ShardByNamespace), or "" when
	// they do not: package manager sets it from its sharding config.
	// The informer a controller reconciles from then holds only this
	// replica's part (Informer.UseFactoryShard, which controller.New
	// calls), with no Scope.Shard to write.
	Shard client.ShardKey
	// Metrics, when set, is told about every informer the Factory makes
	// and gives the reflector metrics of each.
	Metrics Metrics
	// KeepDecoded makes the dynamic informers (SharedDynamic) keep
	// decoded objects that reads share, read-only, rather than the
	// compact form that reads build new objects from; see
	// Options.KeepDecoded. Other informers always keep decoded objects.
	KeepDecoded bool
}

// Factory shares informers: asking it twice for the same type (or
// resource) and Scope returns the same Informer, so that the controllers
// of one program cache each collection once. Run starts every informer
// made so far and, while it runs, every informer made later. A Factory
// is safe for concurrent use.
type Factory struct {
	c    *client.Client
	opts FactoryOptions

	mu        sync.Mutex
	informers map[factoryKey]runner
	order     []runner
	names     []named                                  // as order
	sharded   []shardedRunner                          // informers with a Scope.Shard
	shards    map[client.ShardKey]client.ShardSelector // the last SetShard of each key
	runCtx    context.Context
	running   bool
	group     *errgroup.Group
}

type runner interface {
	Run(ctx context.Context) error
	WaitForSync(ctx context.Context) error
	Err() error
	RetryNow()
	Check(ctx context.Context) (Report, error)
}

type shardedRunner interface {
	runner
	Shard() client.ShardSelector
	SetShard(sel client.ShardSelector) error
}

type factoryKey struct {
	typ   reflect.Type
	gvr   client.GroupVersionResource
	scope string
}

// named is an informer of the factory and how Checks names it.
type named struct {
	name string
	r    runner
}

// NewFactory returns a Factory making informers that read through c. It
// fails with an error matching client.ErrInvalidOptions when c is nil or
// opts.Reflector is invalid (see reflector.Options.Validate; its
// selectors are the Scopes'), so that no informer it makes fails for its
// options.
func NewFactory(c *client.Client, opts FactoryOptions) (*Factory, error) {
	if c == nil {
		return nil, fmt.Errorf("informer: NewFactory needs a client: %w", client.ErrInvalidOptions)
	}
	base := opts.Reflector
	base.LabelSelector, base.FieldSelector, base.ShardSelector = nil, nil, client.ShardSelector{}
	if err := base.Validate(); err != nil {
		return nil, fmt.Errorf("informer: FactoryOptions.Reflector: %w", err)
	}
	return &Factory{c: c, opts: opts, informers: map[factoryKey]runner{}}, nil
}

// Shared returns the factory's informer of the built-in or generated kind
// T in scope, making it on first use.
//
// Shared, SharedMetadata and SharedDynamic panic if scope is invalid (see
// Scope.Validate): a Scope is written in the program, like a regular
// expression given to regexp.MustCompile, and one that cannot work is a
// programming error found at the first run. Validate a Scope built from
// input before.
func Shared[T client.Kinded](f *Factory, scope Scope) *Informer[T] {
	var zero T
	info := zero.KindInfo()
	gvr := client.GroupVersionResource{Group: info.Group, Version: info.Version, Resource: info.Resource}
	return shared(f, gvr, scope, func() *client.Resource[T] { return client.For[T](f.c) })
}

// SharedMetadata returns the factory's metadata-only informer of gvr in
// scope: objects are *metav1.PartialObjectMetadata (names, labels,
// annotations, owners, finalizers), a fraction of the full objects' size,
// whose kind is PartialObjectMetadata (see NewMetadata).
func SharedMetadata(f *Factory, gvr client.GroupVersionResource, scope Scope) *Informer[*metav1.PartialObjectMetadata] {
	return shared(f, gvr, scope, func() *client.Resource[*metav1.PartialObjectMetadata] {
		return MetadataResource(f.c, gvr)
	})
}

// SharedDynamic returns the factory's informer of gvr in scope, reading
// objects as Unstructured (custom resources, or kinds without Go types).
func SharedDynamic(f *Factory, gvr client.GroupVersionResource, scope Scope) *Informer[*unstructured.Unstructured] {
	return shared(f, gvr, scope, func() *client.Resource[*unstructured.Unstructured] {
		return client.Dynamic(f.c, gvr)
	})
}

func shared[T client.Object](f *Factory, gvr client.GroupVersionResource, scope Scope, res func() *client.Resource[T]) *Informer[T] {
	k := factoryKey{typ: reflect.TypeFor[T](), gvr: gvr, scope: scope.String()}
	f.mu.Lock()
	defer f.mu.Unlock()
	if inf, ok := f.informers[k]; ok {
		return inf.(*Informer[T])
	}
	if err := scope.Validate(); err != nil {
		panic(fmt.Sprintf("informer: Shared with an invalid Scope (a programming error): %v", err))
	}
	ropts := f.opts.Reflector
	ropts.LabelSelector, ropts.FieldSelector = scope.LabelSelector, scope.FieldSelector
	if scope.Shard != "" {
		ropts.ShardSelector = client.ShardSelector{Key: scope.Shard}
		if sel, ok := f.shards[scope.Shard]; ok {
			ropts.ShardSelector = sel
		}
	}
	var cache *cacheOf[T]
	if f.opts.Metrics != nil {
		cache = &cacheOf[T]{}
		if m := f.opts.Metrics.Informer(gvr, scope, cache); m != nil {
			ropts.Metrics = m
		}
	}
	opts := Options[T]{Reflector: ropts}
	if _, dynamic := any(*new(T)).(*unstructured.Unstructured); dynamic {
		opts.KeepDecoded = f.opts.KeepDecoded
	}
	if f.opts.DropManagedFields {
		opts.Transform = DropManagedFields[T]
	}
	src := res().Namespace(scope.Namespace)
	inf, err := New[T](src, opts)
	if err != nil { // NewFactory and the check above leave nothing to refuse
		panic(fmt.Sprintf("informer: Shared: %v", err))
	}
	inf.factory = f
	inf.scope.namespace = scope.Namespace
	if cache != nil {
		cache.inf.Store(inf)
	}
	f.informers[k] = inf
	f.order = append(f.order, inf)
	f.names = append(f.names, named{scope.describe(src.String(), *new(T)), inf})
	if scope.Shard != "" {
		f.sharded = append(f.sharded, inf)
	}
	if f.running {
		f.startLocked(inf)
	}
	return inf
}

// shardLater makes inf, made without a Scope.Shard, one of the sharded
// informers, holding the part of key given last (nothing before the
// first).
func (f *Factory) shardLater(r shardedRunner, key client.ShardKey, set func(client.ShardSelector) error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	sel, ok := f.shards[key]
	if !ok {
		sel = client.ShardSelector{Key: key}
	}
	if err := set(sel); err != nil {
		return err
	}
	f.sharded = append(f.sharded, r)
	return nil
}

// SetShard gives the informers made with a Scope.Shard of sel.Key the
// part sel (see Informer.SetShard), and those made later with it start
// with it. It does not wait. A selector the client cannot send (or the
// zero one, which has no key) is refused with an error matching
// client.ErrInvalidOptions.
func (f *Factory) SetShard(sel client.ShardSelector) error {
	if err := sel.Validate(); err != nil {
		return err
	}
	if sel.Key == "" {
		return fmt.Errorf("informer: Factory.SetShard needs a shard key: %w", client.ErrInvalidOptions)
	}
	f.mu.Lock()
	if f.shards == nil {
		f.shards = map[client.ShardKey]client.ShardSelector{}
	}
	f.shards[sel.Key] = sel
	var rs []shardedRunner
	for _, r := range f.sharded {
		if r.Shard().Key == sel.Key {
			rs = append(rs, r)
		}
	}
	f.mu.Unlock()
	for _, r := range rs {
		if err := r.SetShard(sel); err != nil {
			return err
		}
	}
	return nil
}

// DropManagedFields clears metadata.managedFields of obj; use it as an
// Options.Transform. It works alike for typed, metadata-only and dynamic
// caches.
func DropManagedFields[T client.Object](obj T) T {
	obj.SetManagedFields(nil)
	return obj
}

func (f *Factory) startLocked(r runner) {
	ctx := f.runCtx
	f.group.Go(func() error {
		// Informers return ctx's error when they stop as asked; any other
		// error (invalid options) ends the factory's Run.
		if err := r.Run(ctx); err != nil && ctx.Err() == nil {
			return err
		}
		return nil
	})
}

// Run runs every informer of the factory, including those made while it
// runs, until ctx ends or an informer's Run fails (only for options the
// client rejects, client.ErrInvalidOptions), which stops the others. It
// returns once every informer has stopped: that informer's error, or
// ctx's. Failures the server keeps answering do not end Run: informers
// retry them, and Err and WaitForSync report them. Run may be called
// once.
func (f *Factory) Run(ctx context.Context) error {
	f.mu.Lock()
	if f.group != nil {
		f.mu.Unlock()
		return errors.New("informer: Factory.Run called twice")
	}
	g, gctx := errgroup.WithContext(ctx)
	f.group, f.runCtx, f.running = g, gctx, true
	for _, r := range f.order {
		f.startLocked(r)
	}
	f.mu.Unlock()
	<-gctx.Done()
	f.mu.Lock()
	f.running = false // no informer starts after this: Wait below sees them all
	f.mu.Unlock()
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// RetryNow tells every informer of the factory that the server answers
// again (see Informer.RetryNow); package sharding calls it when its
// member's Lease write succeeds after failing, so that caches do not
// wait out a backoff grown during an API server outage.
func (f *Factory) RetryNow() {
	f.mu.Lock()
	rs := append([]runner(nil), f.order...)
	f.mu.Unlock()
	for _, r := range rs {
		r.RetryNow()
	}
}

// WaitForSync waits until every informer made so far has synced and
// follows the server, and returns nil; it returns the first error of
// their WaitForSync (a refused list or watch, at once; ErrStopped; or
// ctx's error with the failure behind it), and then stops waiting for
// the others.
func (f *Factory) WaitForSync(ctx context.Context) error {
	f.mu.Lock()
	rs := append([]runner(nil), f.order...)
	f.mu.Unlock()
	g, gctx := errgroup.WithContext(ctx)
	for _, r := range rs {
		g.Go(func() error { return r.WaitForSync(gctx) })
	}
	return g.Wait()
}

// Checks returns the consistency check (Informer.Check) of every
// informer the factory made so far, by name: the resource, its kind of
// informer and its Scope, such as "configmaps (v1) in namespace shop
// with labels app=web". Package manager runs them periodically.
func (f *Factory) Checks() map[string]func(ctx context.Context) (Report, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]func(context.Context) (Report, error), len(f.names))
	for _, n := range f.names {
		out[n.name] = n.r.Check
	}
	return out
}

// Err returns the persistent failures of the factory's informers (see
// Informer.Err), joined, or nil when every informer follows the server
// or retries failures that did not repeat.
func (f *Factory) Err() error {
	f.mu.Lock()
	rs := append([]runner(nil), f.order...)
	f.mu.Unlock()
	var errs []error
	for _, r := range rs {
		if err := r.Err(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
