// Package controller runs a reconcile loop for one primary kind: the
// part of a Kubernetes controller between its informers and its
// business logic.
//
//	widgets := informer.Shared[*v1.Widget](factory, informer.Scope{})
//	configMaps := informer.Shared[*corev1.ConfigMap](factory, informer.Scope{})
//	ctl, err := controller.NewFor("widgets", widgets, reconcile, controller.Options{Workers: 4})
//	ctl.Filter(controller.GenerationChanged)  // spec changes only
//	controller.Owns(ctl, configMaps)          // a ConfigMap's change reconciles its Widget
//	go factory.Run(ctx)
//	err := ctl.Run(ctx)
//
// # The loop
//
// Sources turn cache events into Requests (namespace and name of a
// primary object) in a work queue (package workqueue): the primary
// informer queues the object's own Request, Owns queues the controller
// owner named in an object's ownerReferences, Watches queues what a map
// function returns. Predicates drop events not worth a reconcile. The
// queue de-duplicates: ten changes before a worker gets to an object
// cost one Reconcile, and one Request is never reconciled by two workers
// at once. Objects of the initial list, replayed when Run starts, and
// periodic resyncs are queued at workqueue.LowPriority, so that real
// changes go first after a restart without starving the rest.
//
// Reconcile returns a Result and an error. An error (or a panic, which
// is recovered and logged with its stack) queues the Request again after
// a per-Request exponential backoff, bounded overall by the queue's
// token bucket (Options.Queue), unless the error is a TerminalError
// (a spec retrying cannot fix: logged, counted, and left until a
// change); Result.RequeueAfter queues it again after a delay (ignored
// with an error: the backoff decides); success forgets its backoff.
//
// # Starting and stopping
//
// Run registers the controller's handlers, waits until every source's
// cache holds a full state and has been queued, and only then starts the
// workers, so the first Reconcile never reads a half-filled cache. A
// cache the server refuses to fill fails Run with ErrNotSynced and the
// informer's error (a forbidden watch, a missing CRD), and so does one
// still empty after Options.SyncTimeout: a controller reports that it
// cannot work instead of waiting forever. When ctx ends, the queue stops
// handing out Requests, the Reconcile calls in progress see their ctx
// end (or, with WithShutdownGrace, as package manager runs controllers,
// finish first, for a bounded time), and Run returns once they and every
// goroutine it started have returned; its handlers are removed, so Run
// can be called again (each time a replica becomes the leader, see
// package manager). Ready tells a readiness probe whether the caches are
// synced and healthy.
//
// Owns and Watches are called before Run. A source of a kind known only
// at run time (the kinds a GitOps engine applied) is an informer of its
// own, run with its own ctx, whose handler calls Enqueue; ending that
// ctx stops watching the kind (see the Enqueue example).
//
// # Reading your own writes
//
// An informer sees a controller's write a moment after the write
// returns. A Reconcile that runs again in that moment reads its object
// as it was before its own write, and typically fails with a conflict or
// repeats the work. With Options.ReadYourWrites the worker waits, after
// Reconcile returns and before the Request can be handed out again,
// until the caches have observed the resourceVersion of every write the
// Reconcile made with its ctx, through any client.Resource (a plain
// Update counts as much as package ctrlutil's helpers; client.OnWrite
// reports them), and of any it recorded with Wrote (writes made
// otherwise); WaitForCache does the same outside a Reconcile. This is what
// KEP-5647 adds to client-go; like it, it relies on kube-apiserver's
// resourceVersions being integers that grow with every write.
//
// # Making one
//
// New takes a Reconciler of Requests (a deleted object is reconciled
// too, by name); NewFor takes a function of the primary object, read
// from the primary informer's cache. Both check every argument and
// option and return an error matching client.ErrInvalidOptions for one
// a controller could not run with, so that Run never fails or panics
// for its configuration (under a manager, Run starts at the first
// leadership: a bad option would otherwise surface at failover). Owns
// panics without a primary kind, and Filter, Owns and Watches while Run
// runs: programming errors no type can express, written down where they
// are.
//
// The consistency check of a cache (informer.Informer.Check) is the
// informer's; package manager runs it periodically.
//
// # Logs and metrics
//
// Each Reconcile gets a logger from its ctx, Logger(ctx): the
// controller's (Options.Logger, or the manager's) with the controller's
// name, the Request's namespace and name and a reconcileID, the fields
// the controller's own line about a failed Reconcile carries too, so
// that a failure and what led to it are found together. A failed
// Reconcile is logged once, at Error. Options.Metrics and
// Options.Queue.Metrics are small hook interfaces; package metrics
// implements them with controller-runtime's series, and package manager
// gives them, with its logger, to the controllers it runs (SetDefaults).
// Stats reads the figures a scrape wants: workers busy, Requests queued,
// work in progress.
//
// # Sharding
//
// With Options.Shard a controller is one of several replicas that split
// the primary objects by the hash of their uid or namespace (KEP-5866's
// hash): SetShard gives it its part, a worker drops a Request outside
// the part when it takes it (it is another replica's), and Drain waits
// until no Reconcile of a Request outside the part is running, so a
// replica hands a part over only once it stopped working on it. Package
// sharding moves parts between replicas with these two calls.
//
// # Kinds
//
// T is any client.Object: generated built-in kinds, users' kinds from
// kubewire-gen, *unstructured.Unstructured (dynamic informers) and
// *metav1.PartialObjectMetadata (metadata-only informers). Informers
// come from informer.New or, shared between controllers, from an
// informer.Factory. For untyped primaries, Options.Kind names the kind
// so that Owns recognises owner references to it.
//
// # Coming from controller-runtime
//
// The Reconcile has controller-runtime's shape (Reconcile(ctx, Request)
// (Result, error); Result.RequeueAfter; TerminalError), and New, Owns,
// Watches and Filter are its builder's For, Owns, Watches and
// WithEventFilter. What differs: there is no Result.Requeue (return an
// error), the controller is given its informers rather than a manager's
// cache (read the cache through their Listers: client.Resource.Get asks
// the server), and NewFor is not called for a deleted object.
// docs/CONTROLLER-RUNTIME.md maps the rest, and examples/ctrlruntime is a
// Reconcile written the controller-runtime way.
//
// # Concurrency
//
// Reconcile runs on Options.Workers goroutines; predicates and map
// functions on the informers' handler goroutines. Objects they see are
// the caches': never modify them, DeepCopy first. A Controller has no
// global state; Metrics and the Logger are per controller.
package controller
