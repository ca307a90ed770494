// Package informer keeps an indexed, thread-safe local cache of a
// Kubernetes collection in step with the server and calls event handlers
// for every change: the API a controller reads its world through.
//
//	inf, err := informer.New(client.For[*corev1.Pod](c), informer.Options[*corev1.Pod]{})
//	inf.AddHandler(informer.HandlerFuncs[*corev1.Pod]{
//		Add:    func(p *corev1.Pod, initial bool) { ... },
//		Update: func(old, p *corev1.Pod) { ... },
//		Delete: func(p *corev1.Pod, stateUnknown bool) { ... },
//	}, informer.HandlerOptions{})
//	go inf.Run(ctx)
//	err := inf.WaitForSync(ctx)
//	pods, err := inf.Lister().Namespace("default").List(client.MatchLabels(map[string]string{"app": "web"}))
//
// # Data flow
//
// A reflector.Reflector lists (or stream-lists) and watches the
// collection and writes into the informer's Store: Begin, Item..., End
// for a full state, then Add, Update, Delete for watch events. Each write
// updates the objects and indexes under the store's lock and, under the
// same lock, appends the change to the queue of every handler. Each
// handler has its own goroutine draining its own unbounded queue, so a
// handler sees changes in the order they happened, once each, and a slow
// handler delays only itself: never the cache, never other handlers.
//
// # What handlers are told
//
//   - OnAdd(obj, initial): initial is true for the objects of the
//     handler's first view (the first full state, or, for a handler added
//     later, the cache's contents replayed to it).
//   - OnUpdate(old, obj): old is the state the handler was last given.
//     A relist that finds an object unchanged tells nothing; a relist
//     that finds an object with the same name but a new UID tells a
//     delete and an add. An object never goes back to an older
//     resourceVersion: a list from a lagging server is refused (see
//     package reflector), and its items older than the cached objects
//     are kept out.
//   - OnDelete(obj, stateUnknown): after a watch event, obj is the final
//     state. When the deletion was found by a relist (the watch was down
//     and its history expired), stateUnknown is true and obj is the last
//     state the cache held. There are no tombstone wrappers.
//
// # When the server refuses
//
// Some failures do not go away by retrying: a token that may list but
// not watch (RBAC), a resource the server does not serve (a CRD not
// installed yet, a misspelt resource), a request the server rejects. The
// informer keeps retrying them (with a relist, never the same watch
// again) and reports them where a program looks, with nothing to
// configure:
//
//   - WaitForSync returns the error at once when the server refuses the
//     list or the watch (400, 401, 403, 404, 405, 422), rather than
//     waiting for its ctx; when ctx ends first it returns ctx's error
//     joined with what kept the cache from syncing. A cache that has
//     listed but cannot watch is not synced for WaitForSync: it would
//     not follow the server.
//   - Err returns the failure going on (a *reflector.PersistentError)
//     as long as it lasts; Factory.Err joins those of every informer.
//   - The Client's logger (client.Config.Logger, unless
//     Options.Reflector.Logger is set) gets a Warn record when such a
//     failure starts, and an Info record when it ends.
//
// The error names the resource and wraps the server's, so errors.Is(err,
// client.ErrForbidden) and errors.As work:
//
//	reflector: cannot watch configmaps (v1) in namespace shop: configmaps is forbidden: User "system:serviceaccount:shop:app" cannot watch resource "configmaps" in API group "" in the namespace "shop"
//
// While only the watch is forbidden the cache follows the server by
// listing again after each backoff (at most Reflector.MaxBackoff, 30 s by
// default, apart). Once the cause is fixed (the CRD installed, the
// permission granted) the informer recovers by itself: Err returns nil,
// and a WaitForSync called again returns nil once the cache holds the
// collection. HasSynced only says that a full state was stored once.
//
// # Stopping
//
// Informer.Run, Factory.Run and reflector.Reflector.Run return ctx's
// error when ctx ends (context.Canceled for a stop as asked), after
// every goroutine they started has ended: they are parts a program
// runs beside others, and the error says why they stopped. The
// runners a program's main calls (controller.Controller.Run,
// manager.Manager.Run, leaderelection and sharding) return nil for a
// stop as asked, so main can treat any error as a failure.
//
// # Sharding
//
// An informer can hold one part of the collection: the objects whose
// uid (or namespace) hashes into the ranges of a client.ShardSelector
// (Options.Reflector.ShardSelector, Scope.Shard in a Factory), so that
// the replicas of a controller each cache a part (package sharding
// assigns the parts). SetShard moves the part while the informer runs:
// objects leaving it are dropped without OnDelete (they were not
// deleted; another replica holds them now), objects entering it arrive
// with OnAdd once listed, and objects of the part deleted meanwhile with
// OnDelete (stateUnknown). A handler keeping state of its own should
// take an OnAdd of a key it knows as an update. The selector is sent to
// the server (KEP-5866) and applied on the client as well, so the cache
// holds only its part even from a server without the feature;
// ShardedOnServer tells which.
//
// # Trusting the cache
//
// Store.Snapshot reads the cached objects and the resourceVersion they
// are the state of under one lock (none while a relist is streaming in).
// Check lists the informer's own scope at exactly that resourceVersion
// and returns a Report of objects missing from the cache, extra in it or
// stale, with a go-cmp diff: where client-go's mutation detector panics,
// an inconsistency is a value for a health endpoint, a metric or a log.
// Factory.Checks hands out the check of every informer of a Factory;
// package manager runs them periodically (manager.Options.CheckPeriod)
// and reports them on /readyz.
//
// # Making one
//
// New, NewMetadata and NewFactory check every option and return an error
// matching client.ErrInvalidOptions for one an informer could not run
// with (a selector that carries an error, an index without a function, a
// negative duration), so that Run never fails for its configuration.
// Shared and its siblings panic on an invalid Scope: like the pattern
// given to regexp.MustCompile, a Scope is written in the program, and
// Scope.Validate checks one built from input.
//
// # Memory
//
// Objects are decoded by the reflector through one long-lived read-only
// decoder that shares equal strings and maps across objects; the store
// keeps objects grouped by namespace (so the namespace index costs
// nothing), each namespace's in a table of the objects themselves (about
// 9 bytes a slot, no key strings: names are read from the objects), and
// keys index sets by the objects' own namespace and name strings. A
// relist streams into the store, keeping objects whose resourceVersion
// did not change, so it never holds two copies of the collection (it
// marks the objects not yet received meanwhile with one bit each).
// Options.Transform (or FactoryOptions.DropManagedFields) drops what a
// program does not read before it is cached.
//
// A dynamic informer (SharedDynamic, or any informer of
// *unstructured.Unstructured) keeps each object frozen: one immutable
// string encoding its JSON tree (unstructured.Frozen), with its name,
// resourceVersion and uid readable without decoding. A decoded object is
// a Go map per JSON object (336 bytes for up to 8 entries, however little
// they hold) and a box per value, even with repeated values shared
// between objects; the frozen form takes half to two thirds of that
// (a Certificate 2.5 kB instead of 5.1 kB). Options.KeepDecoded (FactoryOptions.KeepDecoded) keeps
// the decoded maps instead, for a program that reads the whole cache in
// a hot loop.
//
// # Ownership and concurrency
//
// Objects returned by the Store and Lister of a typed or metadata-only
// informer, and by a dynamic one with KeepDecoded, are shared by everyone
// reading the cache: never modify them; call DeepCopy first. A dynamic
// informer's compact cache builds a new object on every read (Get, List,
// ByIndex, Snapshot, the listers): the caller owns it and may modify it,
// and the next read is unaffected. That costs about a DeepCopy per object
// read, as controller-runtime's cache does by default. Handlers receive
// the objects the informer decoded, shared by every handler (do not
// modify them); the old object of an update from a compact cache is
// built from it when the update is delivered, in the handler's
// goroutine, once for all handlers: equal to the object handlers were
// given before, not the same pointer, read-only like it, and sharing
// with the new object the values that did not change.
// The Store only reads: the informer's reflector is its one writer.
// Every method is safe for concurrent use. Run is called once and returns
// after every goroutine it started has ended (a handler call in progress
// is waited for).
//
// Metadata-only informers (NewMetadata, SharedMetadata) cache
// *metav1.PartialObjectMetadata, for controllers that need only names,
// labels, annotations and owners. A Factory shares one informer per type
// and Scope among the controllers of a program; its Run runs them all and
// returns the first error of their Run. FactoryOptions.Metrics (a small
// interface; package metrics implements it, package manager sets it) is
// told about each informer the Factory makes, with a Cache view to read
// when scraped, and gives its reflector's metrics.
package informer
