// Package sharding splits the work of a controller between its replicas:
// each replica joins a ring of members, one coordination.k8s.io/v1 Lease
// per member, and works on the part of the hash space (KEP-5866 shard
// selectors over the FNV-1a hash of object uids or namespaces) the ring
// assigns to it. Where leader election keeps one replica busy and the
// others idle, a ring of N members gives each about 1/N of the objects
// to cache and to reconcile.
//
//	m, err := sharding.New(c, sharding.Config{Namespace: "shop", Name: "widget-operator"})
//	m.Add(factory, ctl) // an informer.Factory with Scope.Shard informers, a controller with Options.Shard
//	err = m.Run(ctx)
//
// Package manager does this wiring with manager.Options.Sharding.
//
// # Ring and assignment
//
// The hash space is cut into Config.Slots equal slots (64 by default).
// Every member computes the same assignment from the set of live members
// (Assign): each gets Slots/N slots or one more, chosen by rendezvous
// hashing, so that a member joining or leaving moves little more than
// the 1/N share that must move. A member's slots merge into contiguous
// ranges where adjacent; its consumers get them as a client.ShardSelector.
//
// # Claims and fencing
//
// A member writes the slots it claims into its Lease (SlotsAnnotation)
// and renews it every RetryPeriod. It claims a slot assigned to it once
// no live member's Lease claims it, and acts on it (tells its consumers)
// only once it has seen the ring's state as of its own claim, with still
// no other claim: of two members claiming a slot at once, at least one
// sees the other's claim and waits. A member gives a slot up by
// narrowing its consumers' part, draining its Drainers (the Reconcile
// calls in progress of the part given up finish, or are cancelled after
// DrainTimeout) and only then writing its Lease without the slot.
//
// Liveness follows leader election (package leaderelection): a member
// that cannot renew stops all work at RenewDeadline after its last
// successful renewal was sent; the others count LeaseDuration from the
// moment they first saw that renewal, on their own clocks, before they
// take its slots over. Its caches (the consumers that are not Drainers)
// keep their part meanwhile, their watches resuming from where they
// were: when it joins again (counting the others' Leases from then, so
// that a server outage does not make every member look expired) it
// claims the slots the ring still assigns to it and works on them again
// without listing them again; only slots assigned elsewhere leave its
// caches. Since RenewDeadline < LeaseDuration, a member
// has stopped before anyone else starts on its slots; no slot is worked
// on by two members at once as long as work stops within LeaseDuration -
// RenewDeadline of its context's end. A member leaving gracefully
// releases and deletes its Lease, and the others take its slots over at
// once; a Lease deleted by hand keeps its claims until it would have
// expired. Like kube-apiserver's own list and watch, the member relies on
// resourceVersions being integers that grow with every write to know
// that its view of the ring is as recent as its claim.
//
// # Concurrency
//
// New and Add are called before Run; Run is called once and returns
// only after every goroutine it started has ended. Status, Selector and
// Ready may be called from any goroutine. Consumers are called from the
// member's goroutine, one call at a time. The package has no global
// state.
package sharding
