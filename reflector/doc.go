// Package reflector keeps a local copy of a Kubernetes collection in step
// with the server: it lists (or stream-lists) the collection into a Store,
// then applies watch events to it, through dropped watches, expired
// resource versions and failing servers. The informer builds its cache on
// it; most programs use the informer rather than this package.
//
//	r := reflector.New(client.For[*corev1.Pod](c), store, reflector.Options{})
//	err := r.Run(ctx) // until ctx ends
//
// # States
//
// A Reflector is an explicit state machine (State); Run moves between
// the states below, each in its own file (watchlist.go, listing.go,
// watching.go; failure.go holds the transitions out of a failure):
//
//   - WatchListing: a streaming list, a watch with sendInitialEvents=true,
//     allowWatchBookmarks, resourceVersionMatch=NotOlderThan and an empty
//     resourceVersion (a consistent read). Its ADDED events stream into
//     the store (Begin, Item...); only the bookmark annotated
//     k8s.io/initial-events-end ends it (End), and the same watch goes on
//     in Watching. If the server refuses it (any 4xx but 410 and 429) or
//     the end bookmark does not come within Options.WatchListTimeout, the
//     Reflector goes to Listing and stays with list-then-watch from then
//     on.
//   - Listing: a paginated list through package pager, streamed into the
//     store (Begin, Item..., End) page by page, then Watching from the
//     list's resourceVersion. With Options.InitialListFromCache the first
//     list asks for resourceVersion "0" (the API server's watch cache, one
//     response). An expired continue token makes the pager list again
//     without a limit (the store sees Abort, then Begin).
//   - Watching: watch events are applied (Add, Update, Delete, Bookmark),
//     and the resourceVersion of each, bookmarks included, is remembered.
//     A watch that ends cleanly (timeoutSeconds, a dropped connection,
//     Options.IdleTimeout for a stuck one) resumes from that
//     resourceVersion with no relist, at once when it was delivering.
//   - BackingOff: a wait before the next attempt, then back to the state
//     that failed (a watch resumes from the same resourceVersion; a list
//     starts over).
//   - Stopped: Run is not running.
//
// What follows a failure, in any of the three working states:
//
//   - 410 Gone (an expired resourceVersion): a relist (WatchListing or
//     Listing) at once; a second 410 with no watch event in between backs
//     off first.
//   - "Too large resource version" (504, the server is behind the version
//     asked for): the same request again after exactly the server's
//     Retry-After; a watch answered so five times in a row relists.
//   - 429 Too Many Requests: BackingOff for at least the server's
//     Retry-After. (Lists are first retried by the client itself, which
//     honours Retry-After too; watches are not.)
//   - Anything else (5xx, a broken connection, a corrupt event): a
//     jittered exponential wait (cenkalti/backoff, from about 0.8 s up to
//     about 30 s), reset once a watch stayed up for Options.HealthyPeriod.
//
// # Memory
//
// A full state is streamed into the store, never collected into a slice
// first: the pager holds a page or two, a streaming list one event. The
// store keeps its object when the resourceVersion did not change (see
// Store), so a relist holds one copy of the collection plus the objects
// that changed. Every list and watch of a Reflector decodes through one
// long-lived ReadOnly wire.Decoder, so equal strings and maps are shared
// across the objects in the store: objects handed to the Store must not
// be modified. Options.Transform can drop fields (managedFields, say)
// before the store sees an object.
//
// # Observing
//
// Options.Logger receives debug records of transitions and waits;
// Options.Metrics receives list, watch and backoff measurements.
// Reflector.State and Reflector.Relists read the current state and the
// number of full states started.
//
// # Concurrency
//
// Run is called once and calls the Store, Transform and Metrics from its
// own goroutine only; State and Relists may be called from any goroutine.
// Run returns after every goroutine it started has ended. The package has
// no global state.
package reflector
