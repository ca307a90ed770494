// Package manager runs a controller program: the informer Factory its
// controllers share, an event recorder, leader election with warm
// standbys, the controllers themselves, health and readiness endpoints,
// Prometheus metrics, one logger for every part, and periodic cache
// consistency checks (Options.CheckPeriod), started and stopped
// together. New checks every option and returns an error for one it
// cannot run with, so that nothing fails for its configuration later
// (at the first leadership, say).
//
//	opts := manager.Options{
//		Name:           "widget-operator",
//		LeaderElection: &leaderelection.Config{}, // a Lease in the client's namespace
//	}
//	opts.BindFlags(flag.CommandLine) // -metrics-addr :8080, -health-addr :8081
//	flag.Parse()
//	m, err := manager.New(c, opts)
//	widgets := informer.Shared[*v1.Widget](m.Factory(), informer.Scope{})
//	ctl, err := controller.NewFor("widgets", widgets, reconcile, controller.Options{})
//	m.Add(ctl)
//	ctx, stop := manager.NotifyContext(context.Background()) // SIGTERM: a graceful stop
//	defer stop()
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
// # Graceful shutdown
//
// The end of Run's ctx (SIGTERM, through NotifyContext) stops the
// program in this order:
//
//  1. The Runnables stop taking work: a controller hands out no more
//     Requests. A replica that was only campaigning stops at once.
//  2. The Reconcile calls in progress finish with a ctx that stays live
//     for up to Options.GracefulShutdownTimeout (30s by default, as
//     controller-runtime's), so that a status write or a create half
//     done is completed; at that bound their ctx is canceled. Meanwhile
//     the leader keeps renewing its Lease and the informers, the webhook
//     server and the endpoints keep serving. A Runnable of the program's
//     own gets the same grace through controller.ShutdownGrace(ctx).
//  3. The events recorded so far are written (events.Options.FlushTimeout).
//  4. The Lease is released (unless LeaderElection.KeepOnCancel), so
//     that a standby leads at once rather than after LeaseDuration.
//  5. Everything else stops and Run returns, leaving no goroutine.
//
// A lost leadership is no graceful stop: the Reconcile calls' ctx ends
// at once, before another replica can lead. Set GracefulShutdownTimeout
// below the Pod's terminationGracePeriodSeconds (30s by default: give
// the Pod 40s, or the manager less), or the kubelet kills the process
// first and the Lease is left to expire.
//
// To force an exit (a Reconcile that ignores its ctx keeps Run waiting),
// a second signal must end the process: NotifyContext does that (exit
// status 1, the Lease left to expire). A program using
// signal.NotifyContext itself gets no such exit: after its ctx ended the
// signals are no longer caught, so a second SIGINT kills the process
// only once its stop function was called; call it when ctx ends:
//
//	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
//	context.AfterFunc(ctx, stop) // a second signal kills the process
//
// # More than one cluster
//
// A program that reconciles across clusters (a custom resource in one,
// what it asks for in another) runs one manager, on the client of the
// cluster that holds its Lease, and adds a Factory of each other
// cluster's client with AddFactory: those informers run as the
// manager's own do (warm on every replica, waited for before the
// election, on /readyz). The controller's primary informer comes from
// m.Factory(); controller.Watches takes the other clusters' informers,
// mapping their objects to the primary's Requests. The Reconcile writes
// to each cluster with that cluster's client.
//
//	fb, err := informer.NewFactory(clusterB, informer.FactoryOptions{})
//	m.AddFactory(fb)
//	copies := informer.Shared[*corev1.ConfigMap](fb, informer.Scope{})
//	controller.Watches(ctl, copies, func(cm *corev1.ConfigMap) []controller.Request { ... })
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
// # Logs and metrics
//
// Options.Logger (default slog.Default(), so that a program that sets
// nothing sees its errors) is the program's one logger: the manager
// gives it to the client (client.Client.Inherit), and through it to the
// informers, to every controller added without a logger of its own
// (each Reconcile gets it with its Request and a reconcileID from
// controller.Logger(ctx), and a failed Reconcile is logged once), and
// to the leader election, the event recorder, the sharding member and
// a webhook server made without one (webhook.Server.Inherit).
//
// At Info, Run says where /metrics and the health endpoints listen (the
// bound addresses, or "off") and how the replica runs, then when the
// informers synced and when the runnables start (or, electing, when this
// replica leads): the first lines of a deployed operator.
//
// Metrics returns the manager's Prometheus registry (package metrics):
// controller-runtime's reconcile and work queue series for each
// controller added, client-go's REST client series for the client,
// leader_election_master_status, controller-runtime's webhook series
// for Options.Webhook (webhook.Server.InheritMetrics), and kubewire's
// informer, sharding and event series. /metrics serves it on Options.MetricsAddr and beside
// /healthz.
//
// # Health
//
// /healthz says the process serves; /readyz says whether the informers
// synced without persistent failures, whether each controller's sources
// are synced and healthy, whether the last consistency checks passed,
// and which replica leads (a standby is ready). AddHealthzCheck and
// AddReadyzCheck add the program's own checks to them (what
// controller-runtime's mgr.AddHealthzCheck and AddReadyzCheck do; the
// healthz.Ping those are usually given is built in). Handler serves both
// for the program's own server; Options.HealthAddr makes Run serve them.
//
// # Webhooks
//
// Options.Webhook runs a webhook.Server on every replica, from the
// start of Run: kube-apiserver calls whichever replica its Service
// picks, and a conversion webhook must answer before the informers of
// a multi-version kind can list. /readyz has its line.
//
// A Service sends traffic to ready Pods only, and /readyz waits for the
// informers' sync: when their lists need the conversion webhook (objects
// stored at another version than the one cached), no replica can become
// ready while none is, after a restart of them all, a scale from zero or
// a Recreate rollout. Set publishNotReadyAddresses: true on the
// webhook's Service (the server answers from the start of Run), or
// probe readiness on /healthz as kubebuilder's projects do.
//
// # Permissions
//
// Besides list and watch of each informer's resource and the writes of
// the Reconciles, the manager's parts make these requests; as markers
// for kubewire-gen rbac (NS is the Leases' namespace, by default the
// Pod's):
//
//	// Options.LeaderElection: its Lease (watch unless NoWatch).
//	// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=NS,resources=leases,verbs=get;create;update;watch
//	// Options.Sharding: the ring's Leases.
//	// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=NS,resources=leases,verbs=get;list;watch;create;update;delete
//	// Events (m.Events()); the core group only on servers without events.k8s.io.
//	// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
//
// A refused request is logged with the server's message and keeps
// /readyz failing, naming what to grant (a refused Lease: "cannot
// campaign, the Lease is refused (grant get, create, update and watch on
// leases)").
//
// # Concurrency
//
// The accessors, IsLeader, Ready and Handler are safe for concurrent
// use; Add, AddFactory and CheckConsistency are called before Run (after, they
// panic: a programming error), and Run once. Run
// returns only after every goroutine it started has returned.
package manager
