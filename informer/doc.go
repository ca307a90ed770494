// Package informer keeps an indexed, thread-safe local cache of a
// Kubernetes collection in step with the server and calls event handlers
// for every change: the API a controller reads its world through.
//
//	inf := informer.New(client.For[*corev1.Pod](c), informer.Options[*corev1.Pod]{})
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
//     delete and an add.
//   - OnDelete(obj, stateUnknown): after a watch event, obj is the final
//     state. When the deletion was found by a relist (the watch was down
//     and its history expired), stateUnknown is true and obj is the last
//     state the cache held. There are no tombstone wrappers.
//
// # Memory
//
// Objects are decoded by the reflector through one long-lived read-only
// decoder that shares equal strings and maps across objects; the store
// keeps objects grouped by namespace (so the namespace index costs
// nothing) and keys index sets by the objects' own namespace and name
// strings. A relist streams into the store, keeping objects whose
// resourceVersion did not change, so it never holds two copies of the
// collection. Options.Transform (or FactoryOptions.DropManagedFields)
// drops what a program does not read before it is cached.
//
// # Ownership and concurrency
//
// Objects returned by the Store, Lister and passed to handlers are shared
// by everyone reading the cache: never modify them; call DeepCopy first.
// Every method is safe for concurrent use. Run is called once and returns
// after every goroutine it started has ended (a handler call in progress
// is waited for).
//
// Metadata-only informers (NewMetadata, SharedMetadata) cache
// *metav1.PartialObjectMetadata, for controllers that need only names,
// labels, annotations and owners. A Factory shares one informer per type
// and Scope among the controllers of a program.
package informer
