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
// A Reflector is an explicit state machine (State); Run moves between:
//
//   - WatchListing: a streaming list, a watch with sendInitialEvents=true,
//     allowWatchBookmarks, resourceVersionMatch=NotOlderThan and an empty
//     resourceVersion (a consistent read). Its ADDED events stream into
//     the store (Begin, Item...); only the bookmark annotated
//     k8s.io/initial-events-end ends it (End), and the same watch goes on
//     in Watching. If the server refuses it (any 4xx but 410 and 429) or
//     the end bookmark does not come within Options.WatchListTimeout, the
//     Reflector goes to Listing and stays with list-then-watch from then
//     on. Other failures go to BackingOff, then WatchListing again.
//   - Listing: a paginated list through package pager, streamed into the
//     store (Begin, Item..., End) page by page, then Watching from the
//     list's resourceVersion. A failure goes to BackingOff, then Listing.
//   - Watching: watch events are applied (Add, Update, Delete, Bookmark),
//     and the resourceVersion of each, bookmarks included, is remembered.
//     A watch that ends (timeoutSeconds, a dropped connection, the idle
//     timeout) resumes from that resourceVersion with no relist, at once
//     when it was delivering, else after BackingOff. 410 Gone relists
//     (WatchListing or Listing); other errors go to BackingOff, then
//     Watching from the same resourceVersion.
//   - BackingOff: a jittered exponential wait (cenkalti/backoff, from
//     about 0.8 s up to about 30 s, at least the Retry-After the server
//     asked for), reset once a watch stayed up for Options.HealthyPeriod.
//   - Stopped: Run is not running.
//
// Every list and watch of a Reflector decodes through one long-lived
// ReadOnly wire.Decoder, so equal strings and maps are shared across the
// objects in the store: objects handed to the Store must not be modified.
//
// # Concurrency
//
// Run is called once and calls the Store from its own goroutine only;
// State and Relists may be called from any goroutine. Run returns after
// every goroutine it started has ended. The package has no global state.
package reflector
