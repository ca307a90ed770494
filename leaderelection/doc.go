// Package leaderelection elects one leader among the replicas of a
// controller with a coordination.k8s.io/v1 Lease, so that one replica
// works while the others stand by.
//
//	el, err := leaderelection.New(c, leaderelection.Config{
//		Namespace: "kube-system", Name: "my-controller", Identity: podName,
//		Callbacks: leaderelection.Callbacks{
//			OnStartedLeading: func(ctx context.Context) { runWorkers(ctx) },
//		},
//	})
//	err = el.Run(ctx)
//
// # How it decides
//
// The Lease records a holder and when it last renewed. The leader renews
// it every RetryPeriod; the others read it every RetryPeriod (and watch
// it, unless Config.NoWatch). A candidate takes the Lease over when it
// is absent, released (no holder), held by itself, or when the candidate
// has seen no change of its record for the holder's lease duration,
// measured from the moment the candidate first saw the current record,
// on its own monotonic clock. The times written in the Lease are never
// compared with the local clock, so clocks that disagree between machines
// do not matter; clocks that run at different rates are covered by the
// margin between LeaseDuration and RenewDeadline. Every write carries the
// resourceVersion that was read, so of two candidates writing at once
// one gets a conflict and stays a candidate.
//
// # Guarantees
//
// The leader counts RenewDeadline from the moment it sent its last
// successful renewal. If no renewal succeeds by then (the server is down,
// unreachable, or slow), it steps down: the context given to
// OnStartedLeading is canceled at that deadline. A successor cannot take
// over before LeaseDuration has passed since it first saw that renewal,
// which it can only have seen after it was sent; since RenewDeadline <
// LeaseDuration, the old leader's context ends before any successor can
// lead. What the old leader's work still does after its context ended is
// not fenced by the server: work should stop promptly when ctx ends, and
// writes that must never come from two leaders should use optimistic
// concurrency (resourceVersion preconditions) as well.
//
// On a graceful end (Run's ctx canceled) the leader waits for
// OnStartedLeading to return, then releases the Lease (clears the holder,
// sets leaseDurationSeconds to 1), so a watching successor leads within
// one round trip rather than after LeaseDuration. With KeepOnCancel the
// Lease stays held and successors wait for it to expire, as they do when
// a leader dies: a standby leads within LeaseDuration of the leader's
// last renewal, plus up to one RetryPeriod when it is not watching.
//
// Deleting or editing a held Lease by hand breaks these guarantees for up
// to one RetryPeriod.
//
// # Warm standbys
//
// The package knows nothing of caches, so standbys can be kept warm by
// the caller: start informers (and wait for their sync) before Run, and
// start only the workers in OnStartedLeading. A standby then follows the
// cluster the whole time and starts working with a synced cache the
// moment it wins, without paying a full list on failover. IsLeader tells
// a health check or a metric which replica leads.
//
// # Concurrency
//
// An Elector's methods are safe for concurrent use, but Run must not be
// called while another Run of the same Elector is running. Run blocks,
// and returns only after every goroutine it started has exited and every
// callback has returned. Callbacks run on goroutines of their own (see
// Callbacks) and never block renewals; a Record returned is a copy.
package leaderelection
