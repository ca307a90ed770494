package sharding_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/sharding"
)

// Three members split the space, each its share, never two on one slot;
// their Leases name the ring and their claims.
func TestRingConverges(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		tr := newTracker()
		a, b, c := startNode(t, s, tr, "a"), startNode(t, s, tr, "b"), startNode(t, s, tr, "c")
		waitFor(t, "three balanced members", balanced(tr, a, b, c))
		for _, n := range []*node{a, b, c} {
			st := n.m.Status()
			if st.Acting < testSlots/3 || st.Acting > testSlots/3+1 || !st.Joined {
				t.Errorf("%s: %+v", n.id, st)
			}
			if !st.Selector.Equal(tr.part(n.id)) {
				t.Errorf("%s: Selector %v, consumer told %v", n.id, st.Selector, tr.part(n.id))
			}
			if err := n.m.Ready(); err != nil {
				t.Errorf("%s: Ready: %v", n.id, err)
			}
		}
		cl, _ := memClient(t, s)
		l, err := client.For[*coordinationv1.Lease](cl).Namespace("default").List(t.Context(), client.ListOptions{LabelSelector: client.MatchLabels(map[string]string{sharding.RingLabel: "ring"})})
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Items) != 3 {
			t.Fatalf("%d leases in the ring", len(l.Items))
		}
		for _, lease := range l.Items {
			if lease.Name != "ring-"+*lease.Spec.HolderIdentity || lease.Annotations[sharding.SlotsAnnotation] == "" {
				t.Errorf("lease %s: holder %s, claims %q", lease.Name, *lease.Spec.HolderIdentity, lease.Annotations[sharding.SlotsAnnotation])
			}
		}
		tr.check(t)
	})
}

// A member that dies with its Lease held: the others wait for the Lease
// to expire, then take its slots over.
func TestRingKilledMember(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		tr := newTracker()
		a, b, c := startNode(t, s, tr, "a"), startNode(t, s, tr, "b"), startNode(t, s, tr, "c")
		waitFor(t, "three balanced members", balanced(tr, a, b, c))
		renewed := c.m.Status().LastRenewal
		killed := time.Now()
		c.kill()
		took := waitFor(t, "the survivors to take the dead member's slots", balanced(tr, a, b))
		sinceRenewal := killed.Add(took).Sub(renewed)
		t.Logf("slots served again %v after the kill, %v after the dead member's last renewal", took, sinceRenewal)
		if sinceRenewal < testLease || sinceRenewal > testLease+2*testRetry {
			t.Errorf("taken over %v after the last renewal; want within [%v, %v]", sinceRenewal, testLease, testLease+2*testRetry)
		}
		// The dead member's Lease was cleared by the survivors: a newcomer
		// does not count it as a member, nor wait for its claims.
		d := startNode(t, s, tr, "d")
		if took := waitFor(t, "the newcomer's share", balanced(tr, a, b, d)); took >= testLease {
			t.Errorf("a newcomer after a kill got its share after %v, a lease duration", took)
		}
		tr.check(t)
	})
}

// A member cut off from the server keeps working until its renew
// deadline, then stops; the others start only after its Lease expired,
// so no slot is ever held twice. Its cache keeps its part meanwhile.
// Back on the network it joins again, with the same share as before
// (the same members), and works on it again: its cache was never told
// another part, so an informer behind it would not list anything again.
func TestRingPartitionedMember(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		tr := newTracker()
		a, b, c := startNode(t, s, tr, "a"), startNode(t, s, tr, "b"), startNode(t, s, tr, "c")
		waitFor(t, "three balanced members", balanced(tr, a, b, c))
		before := tr.part("c")
		_, told := tr.cache("c")
		renewed := c.m.Status().LastRenewal
		c.link.cut.Store(true)
		stopped := waitFor(t, "the cut member to stop", func() bool { return tr.part("c").SelectsNothing() })
		if at := time.Since(renewed); at > testRenew+10*time.Millisecond {
			t.Errorf("the cut member stopped %v after its last renewal, after its renew deadline %v", at, testRenew)
		}
		if c.m.Ready() == nil {
			t.Error("the cut member reports ready")
		}
		if held, _ := tr.cache("c"); !held.Equal(before) {
			t.Errorf("the cut member's cache holds %v after it stopped, want %v as before", held, before)
		}
		waitFor(t, "the others to take over", func() bool {
			return tr.covered() && a.m.Status().Acting+b.m.Status().Acting == testSlots
		})
		t.Logf("cut member stopped after %v", stopped)
		c.link.cut.Store(false)
		waitFor(t, "the member to join again", balanced(tr, a, b, c))
		if !tr.part("c").Equal(before) {
			t.Errorf("c works on %v after it joined again, %v before", tr.part("c"), before)
		}
		if _, n := tr.cache("c"); n != told {
			t.Errorf("c's cache was told %d parts during the partition, want none", n-told)
		}
		tr.check(t)
	})
}

// The API server out for longer than a lease: every member stops
// working at its renew deadline, and none takes another's slots for
// expired when the server is back; each works on its own share again,
// its cache never told another part.
func TestRingServerOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		tr := newTracker()
		nodes := []*node{startNode(t, s, tr, "a"), startNode(t, s, tr, "b"), startNode(t, s, tr, "c")}
		waitFor(t, "three balanced members", balanced(tr, nodes...))
		parts, told := map[string]client.ShardSelector{}, map[string]int{}
		for _, n := range nodes {
			parts[n.id] = tr.part(n.id)
			_, told[n.id] = tr.cache(n.id)
			n.link.cut.Store(true)
		}
		waitFor(t, "every member to stop", func() bool {
			for _, n := range nodes {
				if !tr.part(n.id).SelectsNothing() {
					return false
				}
			}
			return true
		})
		time.Sleep(3 * testLease)
		back := time.Now()
		for _, n := range nodes {
			n.link.cut.Store(false)
		}
		took := waitFor(t, "the ring to work again", balanced(tr, nodes...))
		t.Logf("every part worked on again %v after the server came back", took)
		if took > testLease {
			t.Errorf("the parts were worked on again %v after the server came back, want less than a lease duration (%v)", time.Since(back), testLease)
		}
		for _, n := range nodes {
			if !tr.part(n.id).Equal(parts[n.id]) {
				t.Errorf("%s works on %v, %v before the outage", n.id, tr.part(n.id), parts[n.id])
			}
			if _, k := tr.cache(n.id); k != told[n.id] {
				t.Errorf("%s's cache was told %d parts, want none", n.id, k-told[n.id])
			}
			if tr.retried(n.id) == 0 {
				t.Errorf("%s's cache was not told to retry when the server answered again", n.id)
			}
		}
		tr.check(t)
	})
}

// A member joining takes its share from the others; one leaving hands
// its slots over at once (it releases its Lease), not after LeaseDuration.
func TestRingJoinAndLeave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		tr := newTracker()
		a, b := startNode(t, s, tr, "a"), startNode(t, s, tr, "b")
		waitFor(t, "two balanced members", balanced(tr, a, b))
		c := startNode(t, s, tr, "c")
		joined := waitFor(t, "the newcomer to get its share", balanced(tr, a, b, c))
		t.Logf("a join rebalanced in %v", joined)
		b.halt(t)
		took := waitFor(t, "the others to take the leaver's slots", balanced(tr, a, c))
		if took >= testLease {
			t.Errorf("a graceful leave took %v to hand over, as long as a lease expiry", took)
		}
		t.Logf("a graceful leave handed over in %v", took)
		tr.check(t)
	})
}

// drainer is a consumer whose Drain blocks until released.
type drainer struct {
	consumer
	mu      sync.Mutex
	block   chan struct{}
	waiting chan struct{}
}

func (d *drainer) Drain(ctx context.Context) error {
	d.mu.Lock()
	block := d.block
	d.mu.Unlock()
	if block == nil {
		return nil
	}
	select {
	case d.waiting <- struct{}{}:
	default:
	}
	select {
	case <-block:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Slots given up are released only once drained: the newcomer waits.
func TestRingWaitsForDrain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		tr := newTracker()
		c, link := memClient(t, s)
		_ = link
		m, err := sharding.New(c, sharding.Config{Namespace: "default", Name: "ring", Identity: "a",
			LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry, Slots: testSlots, DrainTimeout: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		d := &drainer{consumer: consumer{tr, "a"}, block: make(chan struct{}), waiting: make(chan struct{}, 1)}
		m.Add(d)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- m.Run(ctx) }()
		waitFor(t, "a to hold everything", tr.covered)
		b := startNode(t, s, tr, "b")
		<-d.waiting
		time.Sleep(3 * testLease)
		if !tr.part("b").SelectsNothing() {
			t.Errorf("b works on %v while a drains it", tr.part("b"))
		}
		d.mu.Lock()
		close(d.block)
		d.block = nil
		d.mu.Unlock()
		waitFor(t, "b to get its share once a drained", func() bool { return b.m.Status().Acting == testSlots/2 && tr.covered() })
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
		tr.check(t)
	})
}

// A Lease deleted by hand: its member stops at its next renewal, and the
// others still wait for the deleted claims to expire.
func TestRingLeaseDeletedByHand(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		tr := newTracker()
		a, b := startNode(t, s, tr, "a"), startNode(t, s, tr, "b")
		waitFor(t, "two balanced members", balanced(tr, a, b))
		cl, _ := memClient(t, s)
		if err := client.For[*coordinationv1.Lease](cl).Namespace("default").Delete(t.Context(), "ring-b", client.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "both balanced again", balanced(tr, a, b))
		tr.check(t)
	})
}

func TestConfigErrors(t *testing.T) {
	s := memServer(t)
	c, _ := memClient(t, s)
	for _, cfg := range []sharding.Config{
		{Name: "ring"},
		{Namespace: "default", Name: "Ring"},
		{Namespace: "default", Name: "ring", Identity: "A_b"},
		{Namespace: "default", Name: "ring", Slots: 2000},
		{Namespace: "default", Name: "ring", Key: "object.metadata.name"},
		{Namespace: "default", Name: "ring", LeaseDuration: time.Second, RenewDeadline: 2 * time.Second},
		{Namespace: "Default", Name: "ring"},
		{Namespace: "a.b", Name: "ring"},
		{Namespace: "default", Name: "ring", DrainTimeout: -time.Second},
	} {
		if _, err := sharding.New(c, cfg); !errors.Is(err, sharding.ErrInvalidConfig) || !errors.Is(err, client.ErrInvalidOptions) {
			t.Errorf("New(%+v) = %v, want ErrInvalidConfig", cfg, err)
		}
	}
	if _, err := sharding.New(nil, sharding.Config{Namespace: "default", Name: "ring"}); !errors.Is(err, sharding.ErrInvalidConfig) {
		t.Errorf("New(nil, ...) = %v, want ErrInvalidConfig", err)
	}
	m, err := sharding.New(c, sharding.Config{Namespace: "default", Name: "ring"})
	if err != nil || m.Identity() == "" || m.Key() != client.ShardByUID {
		t.Errorf("defaults: %v, identity %q, key %q", err, m.Identity(), m.Key())
	}
}
