package leaderelection_test

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/leaderelection"
)

// TestRenewalConflictsMessage: when both writes of one renewal get 409
// while the Lease, as last read, still names this candidate, the leader
// steps down, and its error says that the writes conflicted and who held
// the Lease, instead of naming itself as another holder.
func TestRenewalConflictsMessage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := memServer(t)
		tr := &tracker{}
		c, link := memClient(t, s)
		cd := startCandidate(t, c, link, "c0", tr, candidateOptions{})
		tr.waitLeader(t, "", testLease+testRetry)
		s.Faults().Add(fake.Fault{Match: fake.Match{Verbs: []string{"update", "create"}, Resource: "leases"}, Code: 409})
		<-cd.done
		err := cd.err
		if !errors.Is(err, leaderelection.ErrLeadershipLost) {
			t.Fatalf("Run = %v, want ErrLeadershipLost", err)
		}
		msg := err.Error()
		t.Log(msg)
		if strings.Contains(msg, "c0 holds the lease") {
			t.Errorf("error %q names this candidate as another holder", msg)
		}
		for _, want := range []string{"conflict", `held by "c0" (this candidate)`} {
			if !strings.Contains(msg, want) {
				t.Errorf("error %q does not say %q", msg, want)
			}
		}
	})
}
