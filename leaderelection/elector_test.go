package leaderelection_test

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/leaderelection"
)

// slack covers the microsecond precision of the times in a Lease.
const slack = time.Microsecond

// TestCandidates runs two and three candidates, lets the leader lead for
// a while, then stops leaders one by one: each hand-over must take less
// than a RetryPeriod with the watch (the release is seen at once) and at
// most one without it, with never two leaders and the fence's terms in
// order.
func TestCandidates(t *testing.T) {
	for _, tt := range []struct {
		n       int
		noWatch bool
	}{{2, false}, {3, false}, {2, true}, {3, true}} {
		t.Run(fmt.Sprintf("%d candidates, noWatch=%v", tt.n, tt.noWatch), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := memServer(t)
				admin, _ := memClient(t, s)
				tr := &tracker{}
				f := newFence(t, admin)
				byID := map[string]*candidate{}
				for i := range tt.n {
					c, link := memClient(t, s)
					id := fmt.Sprintf("c%d", i)
					byID[id] = startCandidate(t, c, link, id, tr, candidateOptions{fence: f, noWatch: tt.noWatch})
				}
				leader := tr.waitLeader(t, "", testLease+testRetry)
				time.Sleep(3 * testLease) // renewals keep it the leader
				if got := tr.current(); got != leader {
					t.Fatalf("leader changed from %s to %q without a failure", leader, got)
				}
				for len(byID) > 1 {
					start := time.Now()
					if err := byID[leader].stop(); err != nil {
						t.Fatalf("Run of %s: %v", leader, err)
					}
					delete(byID, leader)
					next := tr.waitLeader(t, leader, testLease)
					handover := time.Since(start)
					if limit := testRetry; handover > limit || (!tt.noWatch && handover >= limit) {
						t.Errorf("hand-over from %s to %s took %s, want under %s", leader, next, handover, limit)
					}
					leader = next
					time.Sleep(2 * testRetry)
				}
				for _, c := range byID {
					if err := c.stop(); err != nil {
						t.Errorf("Run of %s: %v", c.id, err)
					}
				}
				tr.check(t)
				f.check(t)
				if got := len(tr.allTerms()); got != tt.n {
					t.Errorf("%d terms, want %d", got, tt.n)
				}
				l := getLease(t, admin)
				if l.Spec.HolderIdentity != nil || *l.Spec.LeaseDurationSeconds != 1 {
					t.Errorf("lease after the last leader stopped: holder %v, duration %d; want released", l.Spec.HolderIdentity, *l.Spec.LeaseDurationSeconds)
				}
				if got := *l.Spec.LeaseTransitions; got != int32(tt.n-1) {
					t.Errorf("leaseTransitions = %d, want %d", got, tt.n-1)
				}
			})
		})
	}
}

// TestKilledLeader cuts the leader off the server (its requests hang, as
// in a partition or a frozen process): it must stop leading within
// RenewDeadline of its last renewal, and the successor must lead within
// LeaseDuration plus RetryPeriod of the cut, not earlier than
// LeaseDuration after the last renewal it could have seen.
func TestKilledLeader(t *testing.T) {
	for _, noWatch := range []bool{false, true} {
		t.Run(fmt.Sprintf("noWatch=%v", noWatch), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := memServer(t)
				admin, _ := memClient(t, s)
				tr := &tracker{}
				f := newFence(t, admin)
				byID := map[string]*candidate{}
				for i := range 3 {
					c, link := memClient(t, s)
					id := fmt.Sprintf("c%d", i)
					byID[id] = startCandidate(t, c, link, id, tr, candidateOptions{fence: f, noWatch: noWatch})
				}
				leader := tr.waitLeader(t, "", testLease+testRetry)
				time.Sleep(2*testLease + testRetry/3) // somewhere between two renewals
				old := byID[leader]
				lastRenew := old.el.Record().RenewTime
				cut := time.Now()
				old.link.cut.Store(true)

				next := tr.waitLeader(t, leader, testLease+2*testRetry)
				failover := time.Since(cut)
				terms := tr.allTerms()
				stepDown := terms[0].end
				if got := stepDown.Sub(lastRenew); got > testRenew+slack || stepDown.IsZero() {
					t.Errorf("old leader stopped %s after its last renewal, want within the renew deadline %s", got, testRenew)
				}
				if failover > testLease+testRetry {
					t.Errorf("%s led %s after %s was cut off, want within %s", next, failover, leader, testLease+testRetry)
				}
				if earliest := lastRenew.Add(testLease); time.Now().Before(earliest) {
					t.Errorf("%s led %s before the lease could expire", next, time.Until(earliest))
				}
				if err := old.stop(); !errors.Is(err, leaderelection.ErrLeadershipLost) {
					t.Errorf("Run of the cut-off leader = %v, want ErrLeadershipLost", err)
				}
				delete(byID, leader)
				time.Sleep(2 * testRetry)
				for _, c := range byID {
					if err := c.stop(); err != nil {
						t.Errorf("Run of %s: %v", c.id, err)
					}
				}
				tr.check(t)
				f.check(t)
			})
		})
	}
}

// TestKeepOnCancel stops the leader without releasing the Lease, as a
// process that dies does: the successor waits for the Lease to expire.
func TestKeepOnCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		tr := &tracker{}
		byID := map[string]*candidate{}
		for i := range 2 {
			c, link := memClient(t, s)
			id := fmt.Sprintf("c%d", i)
			byID[id] = startCandidate(t, c, link, id, tr, candidateOptions{keepOnCancel: true})
		}
		leader := tr.waitLeader(t, "", testLease+testRetry)
		time.Sleep(testLease + testRetry/3)
		lastRenew := byID[leader].el.Record().RenewTime
		killed := time.Now()
		if err := byID[leader].stop(); err != nil {
			t.Fatal(err)
		}
		next := tr.waitLeader(t, leader, testLease+2*testRetry)
		if got := time.Since(killed); got > testLease+testRetry || time.Since(lastRenew) < testLease {
			t.Errorf("%s led %s after the kill, %s after the last renewal; want between the lease duration after the renewal and %s after the kill",
				next, got, time.Since(lastRenew), testLease+testRetry)
		}
		if err := byID[next].stop(); err != nil {
			t.Error(err)
		}
		tr.check(t)
	})
}

// TestServerDown fails every request (503s, or latency past the renew
// deadline) for longer than the renew deadline: the leader must step
// down by its deadline, nobody leads while the server is down, and a
// leader is elected again once it is back.
func TestServerDown(t *testing.T) {
	for _, tt := range []struct {
		name  string
		fault func(f *fake.Faults)
	}{
		{"503s", func(f *fake.Faults) { f.FailNext(1<<30, 503, 0) }},
		{"latency", func(f *fake.Faults) { f.SetLatency(testLease) }},
		{"429s with Retry-After of an hour", func(f *fake.Faults) { f.FailNext(1<<30, 429, time.Hour) }},
		{"409s on every write", func(f *fake.Faults) {
			f.Add(fake.Fault{Match: fake.Match{Verbs: []string{"update", "create"}, Resource: "leases"}, Code: 409})
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := memServer(t)
				admin, _ := memClient(t, s)
				tr := &tracker{}
				f := newFence(t, admin)
				var lost atomic.Int32
				var cands []*candidate
				for i := range 3 {
					c, link := memClient(t, s)
					cands = append(cands, startCandidate(t, c, link, fmt.Sprintf("c%d", i), tr,
						candidateOptions{fence: f, rerun: true, lost: &lost}))
				}
				leader := tr.waitLeader(t, "", testLease+testRetry)
				time.Sleep(testLease + testRetry/3)
				var lastRenew time.Time
				for _, c := range cands {
					if c.id == leader {
						lastRenew = c.el.Record().RenewTime
					}
				}
				tt.fault(s.Faults())
				tr.waitNoLeader(t, testRenew)
				if end := tr.allTerms()[0].end; end.Sub(lastRenew) > testRenew+slack {
					t.Errorf("leader stepped down %s after its last renewal, want within %s", end.Sub(lastRenew), testRenew)
				}
				for range 4 * testLease / testRetry { // down for 4 lease durations
					if id := tr.current(); id != "" {
						t.Fatalf("%s leads while the server is down", id)
					}
					time.Sleep(testRetry)
				}
				s.Faults().Clear()
				back := time.Now()
				next := tr.waitLeader(t, "", 2*testLease)
				t.Logf("%s leads %s after the server came back (virtual time)", next, time.Since(back))
				time.Sleep(2 * testRetry)
				for _, c := range cands {
					if err := c.stop(); err != nil {
						t.Errorf("Run of %s: %v", c.id, err)
					}
				}
				if lost.Load() != 1 {
					t.Errorf("%d candidates lost leadership, want 1", lost.Load())
				}
				tr.check(t)
				f.check(t)
			})
		})
	}
}
