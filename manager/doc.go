// Package manager runs a controller program: the informer Factory its
// controllers share, an event recorder, leader election with warm
// standbys, the controllers themselves, health and readiness endpoints,
// and periodic cache consistency checks, started and stopped together.
//
//	m, err := manager.New(c, manager.Options{
//		Name:           "widget-operator",
//		LeaderElection: &leaderelection.Config{}, // a Lease in the client's namespace
//		HealthAddr:     ":8081",
//	})
//	widgets := informer.Shared[*v1.Widget](m.Factory(), informer.Scope{})
//	ctl := controller.New("widgets", widgets, reconciler, controller.Options{})
//	m.Add(ctl)
//	err = m.Run(ctx)
//
// It is a runner in the style of net/http's Server, not a framework:
// the Factory, the Recorder and the Elector are the packages' own types,
// reachable through accessors, and a Runnable is anything with
// Run(ctx) error. Programs that want a different arrangement use those
// packages directly; the manager is what most need, in one place.
//
// # Warm standbys
//
// Every replica runs the Factory's informers from the start and waits
// for their first sync before it campaigns, so a standby follows the
// cluster all along and a new leader starts reconciling with synced
// caches, without a full list on failover. The Runnables (controllers)
// run only while the replica leads, each with a ctx that ends when the
// term does; a controller's Run replays its caches when it starts, so
// everything is reconciled once by each new leader. A replica that loses
// the lead (it could not renew in time) stops its Runnables and
// campaigns again.
//
// # Sharding
//
// With Options.Sharding the replicas split the work instead of electing
// one: each joins a ring (package sharding) and runs the Runnables all
// the time, while its controllers reconcile, and the informers they
// reconcile from cache, only the part of the hash space the ring gives
// it. The key is said once, in Options.Sharding: controller.New takes it
// for the controller and its primary informer. The manager tells them
// their part and drains the controllers before a part moves to another
// replica; when the replica cannot renew its Lease in time, its
// controllers stop but its caches keep their part, so that after an API
// server outage it works again without listing what it held.
//
// # Health
//
// /healthz says the process serves; /readyz says whether the informers
// synced without persistent failures, whether each controller's sources
// are synced and healthy, whether the last consistency checks passed,
// and which replica leads (a standby is ready). Handler serves both for
// the program's own server; Options.HealthAddr makes Run serve them.
//
// # Concurrency
//
// The accessors, IsLeader, Ready and Handler are safe for concurrent
// use; Add and CheckConsistency are called before Run, and Run once. Run
// returns only after every goroutine it started has returned.
package manager
