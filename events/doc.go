// Package events records Kubernetes Events about objects, the way
// controllers report what they did: events.k8s.io/v1 Events, or core/v1
// Events on servers without that API.
//
//	rec, err := events.NewRecorder(c, events.Options{Component: "example.com/my-controller"})
//	go rec.Run(ctx)
//	rec.Eventf(pod, nil, events.Warning, "FailedSync", "Syncing", "cannot sync: %v", err)
//
// # Never in the way
//
// Eventf formats the note, queues the event and returns: it never blocks
// and never sends a request, so a reconcile loop is not slowed down by
// a slow or unreachable server. The queue is bounded (Options.QueueSize);
// an event that finds it full is dropped and counted (Stats.Dropped).
// Run, one goroutine, writes the queued events one at a time. Writes are
// best effort: a failed write is logged and counted (Stats.Failed) and
// not retried beyond the client's own RetryPolicy, except series updates,
// which are tried again with the next one.
//
// # Aggregation and spam
//
// Repeats of an event (same regarding and related objects, type, reason,
// action and note) within Options.SeriesWindow of the previous one do not
// create new Events: they add to the series of the first one
// (events.k8s.io/v1 series.count and series.lastObservedTime; on core/v1,
// count and lastTimestamp), written at most once per
// Options.SeriesInterval per series, and when Run ends. New Events about
// one object are limited by a token bucket (Options.SpamBurst,
// Options.SpamInterval: 25, then one per five minutes); refused ones are
// counted (Stats.Limited). Memory is bounded by Options.MaxSeries.
//
// # What is written
//
// Events go in the regarding object's namespace ("default" for
// cluster-scoped objects), named "<regarding name>.<hex suffix>", with
// eventTime (microseconds), reportingController (Options.Component) and
// reportingInstance (Options.Instance) set, and the note cut to 1 KiB at
// a character boundary, as the API requires. Events are written to
// events.k8s.io/v1 until the server answers a 404 for that resource
// itself (a server older than Kubernetes 1.19); that write and every
// later one go to core/v1.
//
// The identity writing needs RBAC permission to create and patch events
// in group events.k8s.io (and in the core group, for the fallback).
//
// # Shutdown
//
// When Run's ctx ends, Run writes what is still queued and every series
// with unwritten repeats, within Options.FlushTimeout, then returns.
// Events recorded after that are dropped (Stats.Dropped).
//
// # Concurrency
//
// Eventf and Stats are safe for concurrent use from any goroutine, before,
// during and after Run. Run is called once. The package has no global
// state: a program may run several Recorders.
package events
