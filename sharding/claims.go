package sharding

import (
	"context"
	"errors"
	"strconv"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/client"
)

// write writes the member's Lease claiming desired: a renewal, and a
// change of claims.
func (m *Member) write(ctx context.Context, consumers []Consumer, desired slotSet) {
	cfg := &m.cfg
	sent := time.Now()
	deadline := sent.Add(cfg.RenewDeadline)
	if m.joined {
		deadline = m.lastRenew.Add(cfg.RenewDeadline)
	}
	wctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	acquired := m.joinedAt
	if !m.joined {
		acquired = sent
	}
	var got *coordinationv1.Lease
	var err error
	if m.own == nil {
		want := memberLease(nil, cfg.Namespace, cfg.Name, cfg.Identity, cfg.LeaseDuration, desired, acquired, sent)
		got, err = m.leases.Create(wctx, want, client.CreateOptions{})
		if errors.Is(err, client.ErrAlreadyExists) {
			// Ours from an earlier life of this identity: take it over.
			var cur *coordinationv1.Lease
			if cur, err = m.leases.Get(wctx, m.name, client.GetOptions{}); err == nil {
				got, err = m.leases.Update(wctx, memberLease(cur, cfg.Namespace, cfg.Name, cfg.Identity, cfg.LeaseDuration, desired, acquired, sent), client.UpdateOptions{})
			}
		}
	} else {
		got, err = m.leases.Update(wctx, memberLease(m.own, cfg.Namespace, cfg.Name, cfg.Identity, cfg.LeaseDuration, desired, acquired, sent), client.UpdateOptions{})
	}
	if err != nil {
		m.writeFailed = true
		m.retryAt = time.Now().Add(cfg.RetryPeriod / 2)
		if m.own != nil && (errors.Is(err, client.ErrConflict) || errors.Is(err, client.ErrNotFound)) {
			// Someone else changed or deleted our Lease: what it claims
			// is not known any more.
			m.own = nil
			m.lose(consumers, "the lease was changed or deleted by someone else")
			return
		}
		m.log.Info("sharding: cannot write the lease; retrying", "error", err.Error())
		return
	}
	if m.writeFailed {
		// The server answers again: tell the caches (and the ring's own
		// watch) not to wait out their backoff.
		m.writeFailed = false
		m.ringRetry()
		for _, c := range consumers {
			if r, ok := c.(interface{ RetryNow() }); ok {
				r.RetryNow()
			}
		}
	}
	rv, _ := strconv.ParseUint(got.ResourceVersion, 10, 64)
	for s := range cfg.Slots {
		if desired[s] && !m.committed[s] {
			m.addRV[s] = rv
		}
	}
	if !m.joined {
		m.joinedAt = acquired
		// What it saw of the others while it could not write may be
		// stale (the server was out, or this member cut off): their
		// Leases count from now, not from before the gap, so that it
		// does not take as expired members that merely could not be
		// seen. This only delays taking slots over.
		m.view.refresh(time.Now())
		m.log.Info("sharding: joined the ring")
	}
	m.committed, m.own, m.joined, m.lastRenew = desired, got, true, sent
	m.nextRenew, m.retryAt = sent.Add(cfg.RetryPeriod), time.Time{}
}

// ringRetry tells the ring's watch that the server answers again.
func (m *Member) ringRetry() {
	m.mu.Lock()
	r := m.ring
	m.mu.Unlock()
	if r != nil {
		r.RetryNow()
	}
}

// expire clears the Lease of a member that has not renewed it for its
// lease duration (by this member's clock), with the resourceVersion
// seen as precondition, and deletes it: every member, those that joined
// since included, then sees its slots free at once instead of timing the
// Lease out on its own clock from the moment it first saw it. The
// member it belonged to has stopped working by then (its renew deadline
// passed); if it comes back, its next write conflicts and it joins
// again. A released Lease left behind is deleted the same way.
func (m *Member) expire(ctx context.Context, r record) {
	wctx, cancel := context.WithTimeout(ctx, m.cfg.RetryPeriod)
	defer cancel()
	l := r.lease
	if r.identity != "" {
		got, err := m.leases.Update(wctx, releasedLease(l, time.Now()), client.UpdateOptions{})
		if err != nil {
			m.log.Debug("sharding: cannot release an expired lease", "lease", r.name, "error", err.Error())
			return
		}
		m.log.Info("sharding: a member's lease expired; its slots are free", "expired", r.identity)
		l = got
	}
	err := m.leases.Delete(wctx, r.name, client.DeleteOptions{Preconditions: &client.Preconditions{ResourceVersion: l.ResourceVersion}})
	if err != nil && !errors.Is(err, client.ErrNotFound) {
		m.log.Debug("sharding: cannot delete a released lease", "lease", r.name, "error", err.Error())
	}
}
