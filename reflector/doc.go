// Package reflector keeps a local copy of a Kubernetes collection in step
// with the server: it lists (or stream-lists) the collection into a Store,
// then applies watch events to it, through dropped watches, expired
// resource versions and failing servers. The informer builds its cache on
// it; most programs use the informer rather than this package.
//
//	r, err := reflector.New(client.For[*corev1.Pod](c), store, reflector.Options{})
//	err := r.Run(ctx) // until ctx ends
//
// # States
//
// A Reflector is an explicit state machine (State); Run moves between
// the states below, each in its own file (watchlist.go, listing.go,
// watching.go; failure.go holds the transitions out of a failure). A
// full state is read with a list (Listing) unless Options.WatchList asks
// for streaming lists (WatchListing): on kube-apiserver v1.36.3 a list
// arrives sooner than the same collection streamed as events.
//
//   - WatchListing: a streaming list, a watch with sendInitialEvents=true,
//     allowWatchBookmarks, resourceVersionMatch=NotOlderThan and an empty
//     resourceVersion (a consistent read). Its ADDED events stream into
//     the store (Begin, Item...); only the bookmark annotated
//     k8s.io/initial-events-end ends it (End), and the same watch goes on
//     in Watching. If the server does not support it (400 or 422, or
//     another 4xx than those below) or the end bookmark does not come
//     within Options.WatchListTimeout, the Reflector goes to Listing and
//     stays with list-then-watch from then on. A 401, 403, 404 or 405 is
//     a refusal of the caller or the resource, not of streaming lists:
//     they are tried again once it is over. A stream the server ends
//     midway (kube-apiserver closes the watcher of a streaming list that
//     falls behind the events it must send, as a busy client reading a
//     collection that changes fast does) is read again at once as a
//     paginated list, which the client pulls page by page; the next full
//     state streams again.
//   - Listing: a consistent list streamed into the store (Begin,
//     Item..., End), then Watching from the list's resourceVersion. A
//     collection answered in JSON, CBOR or protobuf (built-in kinds,
//     custom resources, dynamic reads) is read as one unpaged answer
//     decoded item by item as it arrives (client.Resource.ListStream),
//     which kube-apiserver serves from its watch cache; metadata views, a
//     Source other than a *client.Resource that is not a
//     ListStreamer opting in, and any with Options.ListInPages, as a
//     paginated list through package pager, page by page (the pages after
//     the first come from etcd once its history was compacted past the
//     collection's last write). A streamed list too large for
//     Config.MaxResponseBytes, or whose connection broke midway, is read
//     again at once in pages. With Options.InitialListFromCache the first
//     list asks for resourceVersion "0" (the API server's watch cache, one
//     response); if that answer is larger than Config.MaxResponseBytes it
//     lists again at once in pages. An expired continue token makes the
//     pager list again from the start, in pages (the store sees Abort,
//     then Begin): no other full state is read in one answer, so a
//     collection of any size syncs with default options. While the
//     server forbids the watch (403) but may allow the list, full states
//     are read this way.
//   - Watching: watch events are applied (Add, Update, Delete, Bookmark),
//     and the resourceVersion of each, bookmarks included, is remembered.
//     A watch that ends cleanly (timeoutSeconds, a graceful shutdown's
//     GOAWAY, a lost connection, Options.IdleTimeout for a stuck one)
//     after an object event moved the resourceVersion on, or after it
//     lasted a second, resumes from that resourceVersion at once, with
//     no relist, and without counting as a failure: a server's watch
//     timeout adds no latency to events. One that ends at once without that (a server that closes
//     every watch, or sends the same version again, or only a bookmark,
//     and closes) is a failure, resumed after the exponential wait,
//     never in a hot loop.
//   - BackingOff: a wait before the next attempt, then back to the state
//     that failed (a watch resumes from the same resourceVersion; a list
//     starts over), or to a relist.
//   - Idle: the shard selector selects nothing (see Sharding); the
//     store is synced and empty, and no request is made.
//   - Stopped: Run is not running.
//
// What follows a failure, in any of the three working states:
//
//   - 410 Gone (an expired resourceVersion): a relist (WatchListing or
//     Listing) at once; a second 410 with no watch event in between backs
//     off first.
//   - "Too large resource version" (504, the server is behind the version
//     asked for): the same request again after the server's Retry-After
//     (at most Options.MaxServerWait); a watch answered so five times in
//     a row relists.
//   - A refusal: 400, 401, 403, 404, 405 or 422 (a token that may not
//     list or watch, a resource not served, a resourceVersion the server
//     will not serve), or the same answer three times in a row (but 429,
//     503 and 504, which ask to come back later): a relist after the
//     exponential wait, never the same watch again, and a persistent
//     failure (see below).
//   - 429, 503 or 504 with a Retry-After (kube-apiserver answers 429,
//     Retry-After 1s, while its watch cache initializes after a
//     restart): the same request after exactly that wait (at most
//     Options.MaxServerWait, default one minute); the exponential wait
//     does not grow.
//   - Anything else (5xx, a broken connection, a timeout, a corrupt
//     event): the same request after the exponential wait, or after the
//     server's Retry-After (at most Options.MaxServerWait) when that is
//     longer.
//
// The exponential wait (internal/backoffpolicy, on cenkalti/backoff)
// starts within [0.4 s, 1.2 s], about doubles each time, and never
// exceeds Options.MaxBackoff (default 30 s), jitter included. It starts
// over once a watch delivered an event or stayed up for
// Options.HealthyPeriod, and when RetryNow says the server answers
// again.
//
// Every stall ends without options: a watch the server does not answer,
// or that delivers nothing, bookmarks included, for Options.IdleTimeout
// (default three minutes; kube-apiserver sends a bookmark about once a
// minute) is given up and resumed, and the client ends a watch its server
// keeps 30 s past its timeoutSeconds.
//
// # Resource versions only go forward
//
// Since Kubernetes 1.35 (KEP-5504) resourceVersions are positive
// integers, of any length, that clients may compare; kube-apiserver's
// are etcd revisions, which only grow. A server that answers with an
// older one than the store was given (a proxy that switched to a
// lagging apiserver, a server whose etcd was restored from a backup)
// would take the cache back in time, so the Reflector compares them (a
// server whose versions are not integers is not checked) and refuses
// what went back:
//
//   - A watch event or bookmark older than the watch's resourceVersion is
//     not applied: the watch ends, and the next one starts from the
//     newest version after the exponential wait (the server's lag may
//     have passed), never from the older one. One that is not an
//     integer when the others were is malformed, and handled the same
//     way.
//   - A full state (a list, a streaming list's end bookmark) older than
//     the newest version the store was given is not ended: the store
//     sees Abort and keeps its newer state, and the full state is read
//     again after the wait. Its items reached the store before the
//     list's version said it was older: Store asks an implementation to
//     keep a stored object newer than an item (the informer's does).
//
// Both are failures matching ErrResourceVersionWentBack; three in a row
// are a persistent failure (Err), since a server that went back for good
// will not catch up: the program must be restarted, as after any etcd
// restore.
//
// # Persistent failures
//
// A refusal, or the same failure three times in a row, is a persistent
// failure: the store may not follow the server while it lasts. It is
// reported where a program looks without configuring anything:
//
//   - Err returns it, a *PersistentError naming the resource ("cannot
//     watch configmaps (v1) in namespace shop: configmaps is forbidden:
//     ...") and wrapping the client's error, so errors.Is(err,
//     client.ErrForbidden) works; its Since says since when.
//   - WaitForSync returns it as soon as the server refuses a request
//     while it waits, instead of waiting for its ctx; on ctx's end it
//     returns ctx's error joined with the failure that kept the Reflector
//     from syncing.
//   - A Warn record goes to the logger (by default the source Client's,
//     Config.Logger) when it starts, and again when its error changes;
//     an Info record when it ends.
//
// Run retries all the same: a persistent failure ends, with no restart,
// once a watch from a stored full state delivers an event or a bookmark,
// or stays up for two seconds (say after a CRD was installed, or the
// watch permission granted).
//
// # Sharding
//
// Options.ShardSelector restricts the collection to a part of the hash
// space of uids or namespaces (KEP-5866, alpha in Kubernetes 1.36 behind
// the ShardedListAndWatch feature gate), and SetShardSelector changes the
// part while Run runs: a narrower part keeps the store (the objects
// outside it are dropped through Resharder, not reported as deletions)
// and resumes the watch; a wider one lists only the ranges gained, on a
// goroutine of its own while the watch of the rest goes on, and then
// watches the whole part from where both were (widen.go, for a store
// that is a Resharder and a PartStore); any other change reads a new
// full state.
// The selector goes with every list, streaming list and watch, and the
// Reflector filters on its side as well (one FNV-1a hash per object), so
// the store holds only the part even from a server that ignores the
// parameter; ShardFiltering says which happened. That fallback saves the
// store's memory and the handlers' work, not the transfer and decoding
// of the whole collection.
//
// # Memory
//
// A full state is streamed into the store, never collected into a slice
// first: the pager holds a page or two, a streamed list one object's
// bytes and a 64 KiB buffer, a streaming list one event. The
// store keeps its object when the resourceVersion did not change (see
// Store), so a relist holds one copy of the collection plus the objects
// that changed. Every list and watch of a Reflector decodes through one
// long-lived ReadOnly wire.Decoder, so equal strings and maps are shared
// across the objects in the store: objects handed to the Store must not
// be modified. TransformStore can drop fields (managedFields, say)
// before the store sees an object.
//
// # Observing
//
// Options.Logger receives the records of persistent failures and debug
// records of transitions and waits; Options.Metrics receives list, watch
// and backoff measurements. Reflector.State, Reflector.Relists and
// Reflector.Err read the current state, the number of full states
// started and the persistent failure going on.
//
// # Concurrency
//
// Run is called once. It calls Metrics from its own goroutine only, and
// the Store one call at a time: from its own goroutine, and from the one
// listing the ranges a wider shard selector gains (see PartStore).
// State, Relists, PartLists, Err, WaitForSync and the shard methods may
// be called from any goroutine. Run returns after every goroutine it
// started has ended. The package has no global state.
package reflector
