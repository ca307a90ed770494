package sharding

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kubewire/kubewire/client"
)

// lose stops all work at once: the member's claims can no longer be
// trusted (its renewal deadline passed, or its Lease was changed). It
// writes a Lease without claims next. Its caches keep what they hold:
// the slots still assigned to it when it joins again are worked on
// again without a relist, the others are dropped then (keepCached).
func (m *Member) lose(consumers []Consumer, why string) {
	m.log.Warn("sharding: lost the claims; stopping all work and joining again", "reason", why, "cachedSlots", m.cached.String())
	if m.drainStop != nil {
		m.drainStop()
		m.drainStop = nil
	}
	m.drainGen++
	n := m.cfg.Slots
	m.acting, m.draining, m.committed, m.joined = newSlotSet(n), newSlotSet(n), newSlotSet(n), false
	// Not ready before a consumer hears it stops: one that sees the
	// empty part and then probes Ready must not be told it is joined.
	m.mu.Lock()
	m.status.Joined = false
	m.mu.Unlock()
	m.publish(consumers, false)
	done, cancel := context.WithCancel(context.Background())
	cancel() // Drain with an ended ctx cancels the work at once, without waiting
	for _, c := range consumers {
		if d, ok := c.(Drainer); ok {
			_ = d.Drain(done)
		}
	}
}

// keepCached sets the slots the caches hold: those worked on, and of
// those held before (through a lost membership), the ones that did not
// move elsewhere: while the member is not joined its picture of the
// ring is stale (the others' Leases expire one by one on its clock), so
// it keeps them all; once joined, it drops those that the assignment
// owner gives to another member and that another member claims. It
// reports whether that changed.
func (m *Member) keepCached(owner []int, me int, claimedElsewhere func(int) (bool, bool)) bool {
	changed := false
	for s := range m.cached {
		want := m.acting[s]
		if !want && m.cached[s] {
			claimed, _ := claimedElsewhere(s)
			want = !m.joined || s < len(owner) && owner[s] == me || !claimed
		}
		if want != m.cached[s] {
			m.cached[s], changed = want, true
		}
	}
	return changed
}

// publish tells the Drainers the part the member works on and the other
// consumers the part its caches hold, each only when it changed (or
// always, when all).
func (m *Member) publish(consumers []Consumer, all bool) {
	work, cache := m.acting.selector(m.cfg.Key), m.cached.selector(m.cfg.Key)
	tellWork, tellCache := all || !work.Equal(m.told[0]), all || !cache.Equal(m.told[1])
	m.told = [2]client.ShardSelector{work, cache}
	// Status says the part before a consumer hears of it: one that
	// reads Status on SetShard sees it, with its counts.
	m.mu.Lock()
	m.status.Selector, m.status.Cache = work, cache
	m.status.Acting, m.status.Cached = m.acting.count(), m.cached.count()
	m.mu.Unlock()
	for _, c := range consumers {
		_, drains := c.(Drainer)
		sel := cache
		if drains {
			sel = work
		}
		if drains && !tellWork || !drains && !tellCache {
			continue
		}
		if err := c.SetShard(sel); err != nil {
			m.log.Error("sharding: a consumer refused its part", "consumer", fmt.Sprintf("%T", c), "error", err)
		}
	}
}

// startDrain drains the Drainers in a goroutine of its own, reporting to
// the loop through drainDone.
func (m *Member) startDrain(ctx context.Context, consumers []Consumer) {
	m.drainGen++
	gen := m.drainGen
	dctx, cancel := context.WithTimeout(ctx, m.cfg.DrainTimeout)
	m.drainStop = cancel
	m.log.Debug("sharding: draining slots given up", "slots", m.draining.String())
	m.wg.Go(func() {
		defer cancel()
		var errs []error
		for _, c := range consumers {
			if d, ok := c.(Drainer); ok {
				if err := d.Drain(dctx); err != nil {
					errs = append(errs, err)
				}
			}
		}
		select {
		case m.drainDone <- drainResult{gen, errors.Join(errs...)}:
		case <-ctx.Done():
		}
	})
}

// leave ends the membership: no work, drained, Lease released and
// deleted.
func (m *Member) leave(ctx context.Context, consumers []Consumer) {
	if m.drainStop != nil {
		m.drainStop()
	}
	m.wg.Wait()
	n := m.cfg.Slots
	m.acting, m.draining, m.cached = newSlotSet(n), newSlotSet(n), newSlotSet(n)
	m.publish(consumers, false)
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), m.cfg.DrainTimeout)
	defer cancel()
	drained := true
	for _, c := range consumers {
		if d, ok := c.(Drainer); ok {
			if err := d.Drain(lctx); err != nil {
				drained = false
				m.log.Warn("sharding: work still running at the end; leaving the lease to expire", "error", err)
			}
		}
	}
	m.mu.Lock()
	m.status.Joined = false
	m.mu.Unlock()
	if !drained || m.own == nil {
		return
	}
	wctx, wcancel := context.WithTimeout(context.WithoutCancel(ctx), m.cfg.RenewDeadline)
	defer wcancel()
	got, err := m.leases.Update(wctx, releasedLease(m.own, time.Now()), client.UpdateOptions{})
	if err == nil {
		err = m.leases.Delete(wctx, m.name, client.DeleteOptions{Preconditions: &client.Preconditions{ResourceVersion: got.ResourceVersion}})
	}
	if err != nil {
		m.log.Info("sharding: cannot release the lease; the others take the slots over when it expires", "error", err.Error())
		return
	}
	m.log.Info("sharding: left the ring")
}
