package leaderelection_test

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/leaderelection"
)

// TestOverHTTP runs three candidates against the fake served over
// loopback HTTP/2 in real time: a graceful hand-over, a killed leader
// (stopped without releasing) and a server restart (connections dropped).
// Timing is not asserted here (the synctest tests do that); what must
// hold is that a leader is always elected again, never two at once, and
// the fence's terms never interleave.
func TestOverHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	srv, cfg := fakeclient.Start(fake.Options{TLS: true})
	t.Cleanup(srv.Close)
	newClient := func() *client.Client {
		c, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.CloseIdleConnections)
		return c
	}
	admin := newClient()
	tr := &tracker{}
	f := newFence(t, admin)
	var lost atomic.Int32
	byID := map[string]*candidate{}
	for i := range 3 {
		id := fmt.Sprintf("c%d", i)
		byID[id] = startCandidate(t, newClient(), nil, id, tr, candidateOptions{
			fence: f, rerun: true, lost: &lost, keepOnCancel: i == 1,
		})
	}
	const within = 4 * testLease // generous: a loaded machine must not fail this
	tr.waitLeader(t, "", within)

	srv.Restart()
	time.Sleep(testLease)
	leader := tr.waitLeader(t, "", within)

	if err := byID[leader].stop(); err != nil {
		t.Fatalf("Run of %s: %v", leader, err)
	}
	delete(byID, leader)
	next := tr.waitLeader(t, leader, within)
	t.Logf("%s handed over to %s (release: %v)", leader, next, leader != "c1")
	leader = next

	if err := byID[leader].stop(); err != nil && !errors.Is(err, leaderelection.ErrLeadershipLost) {
		t.Fatalf("Run of %s: %v", leader, err)
	}
	delete(byID, leader)
	next = tr.waitLeader(t, leader, within)
	t.Logf("%s handed over to %s", leader, next)

	for _, c := range byID {
		if err := c.stop(); err != nil {
			t.Errorf("Run of %s: %v", c.id, err)
		}
	}
	tr.check(t)
	f.check(t)
	if n := lost.Load(); n > 0 {
		t.Logf("%d terms ended by a failed renewal (the machine was slow)", n)
	}
}
