package sharding_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/sharding"
)

// Short timings; synctest makes them virtual.
const (
	testLease = 4 * time.Second
	testRenew = 3 * time.Second
	testRetry = 500 * time.Millisecond
	testSlots = 16
)

func memServer(t *testing.T) *fake.Server {
	t.Helper()
	s := fake.New(fake.Options{})
	t.Cleanup(s.Close)
	return s
}

// cuttable is a transport that can be cut off: a cut request hangs until
// its context ends, as over a network partition.
type cuttable struct {
	rt  http.RoundTripper
	cut atomic.Bool
}

func (c *cuttable) RoundTrip(req *http.Request) (*http.Response, error) {
	if c.cut.Load() {
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	return c.rt.RoundTrip(req)
}

func memClient(t *testing.T, s *fake.Server) (*client.Client, *cuttable) {
	t.Helper()
	cfg := fakeclient.Config(s)
	link := &cuttable{rt: s.RoundTripper()}
	cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, link
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, link
}

// tracker is every member's consumer: it records the part each member
// works on, and fails on any moment at which two members' parts meet;
// and the part each member's caches hold, and how often that changed.
type tracker struct {
	mu       sync.Mutex
	parts    map[string]client.ShardSelector
	caches   map[string]client.ShardSelector
	recaches map[string]int // cache parts told, by member
	retries  map[string]int // RetryNow calls, by member
	overlaps []string
}

func newTracker() *tracker {
	return &tracker{parts: map[string]client.ShardSelector{}, caches: map[string]client.ShardSelector{}, recaches: map[string]int{}, retries: map[string]int{}}
}

// consumer is one member's worker, fenced: a sharding.Drainer.
type consumer struct {
	tr *tracker
	id string
}

func (c consumer) Drain(context.Context) error { return nil }

// cache is one member's cache: a consumer that is not a Drainer.
type cache struct {
	tr *tracker
	id string
}

func (c cache) SetShard(sel client.ShardSelector) error {
	c.tr.mu.Lock()
	defer c.tr.mu.Unlock()
	c.tr.caches[c.id] = sel
	c.tr.recaches[c.id]++
	return nil
}

func (c cache) RetryNow() {
	c.tr.mu.Lock()
	defer c.tr.mu.Unlock()
	c.tr.retries[c.id]++
}

func (tr *tracker) retried(id string) int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.retries[id]
}

// cache returns the part id's cache holds and how many times it was told
// one.
func (tr *tracker) cache(id string) (client.ShardSelector, int) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.caches[id], tr.recaches[id]
}

func (c consumer) SetShard(sel client.ShardSelector) error {
	c.tr.mu.Lock()
	defer c.tr.mu.Unlock()
	for other, part := range c.tr.parts {
		if other != c.id && meet(sel, part) {
			c.tr.overlaps = append(c.tr.overlaps, fmt.Sprintf("%v: %s takes %v while %s holds %v", time.Now().Format("15:04:05.000"), c.id, sel, other, part))
		}
	}
	c.tr.parts[c.id] = sel
	return nil
}

func meet(a, b client.ShardSelector) bool {
	for _, x := range a.Ranges {
		for _, y := range b.Ranges {
			if (y.End == 0 || x.Start < y.End) && (x.End == 0 || y.Start < x.End) {
				return true
			}
		}
	}
	return false
}

// covered reports whether the parts together cover the whole space.
func (tr *tracker) covered() bool {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var all client.ShardSelector
	for _, p := range tr.parts {
		all.Key = p.Key
		all.Ranges = append(all.Ranges, p.Ranges...)
	}
	return all.Normalize().Equal(client.ShardSelector{Key: client.ShardByUID, Ranges: []client.HashRange{{}}})
}

func (tr *tracker) part(id string) client.ShardSelector {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.parts[id]
}

func (tr *tracker) check(t *testing.T) {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, o := range tr.overlaps {
		t.Error(o)
	}
}

// node is one running member.
type node struct {
	id   string
	m    *sharding.Member
	link *cuttable
	stop context.CancelFunc
	done chan error
}

func startNode(t *testing.T, s *fake.Server, tr *tracker, id string) *node {
	t.Helper()
	c, link := memClient(t, s)
	m, err := sharding.New(c, sharding.Config{Namespace: "default", Name: "ring", Identity: id,
		LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry, Slots: testSlots,
		Logger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelInfo}))})
	if err != nil {
		t.Fatal(err)
	}
	m.Add(cache{tr, id}, consumer{tr, id})
	ctx, cancel := context.WithCancel(context.Background())
	n := &node{id: id, m: m, link: link, stop: cancel, done: make(chan error, 1)}
	go func() { n.done <- m.Run(ctx) }()
	t.Cleanup(func() { n.halt(t) })
	return n
}

// halt stops the member and checks Run's return.
func (n *node) halt(t *testing.T) {
	t.Helper()
	if n.done == nil {
		return
	}
	n.stop()
	if err := <-n.done; err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("%s: Run returned %v", n.id, err)
	}
	n.done = nil
}

// kill cuts the member off the server and stops it without waiting: a
// process killed with its Lease held.
func (n *node) kill() {
	n.link.cut.Store(true)
	n.stop()
}

// waitFor polls cond in virtual time for up to two minutes.
func waitFor(t *testing.T, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for range 12000 {
		if cond() {
			return time.Since(start)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
	return 0
}

// balanced reports whether the nodes' parts cover the space, each node
// holding its share of the slots, its cache holding what it works on.
func balanced(tr *tracker, nodes ...*node) func() bool {
	return func() bool {
		if !tr.covered() {
			return false
		}
		for _, n := range nodes {
			st := n.m.Status()
			if st.Acting != st.Assigned || st.Assigned < testSlots/len(nodes) || len(st.Members) != len(nodes) {
				return false
			}
			if c, _ := tr.cache(n.id); !c.Equal(tr.part(n.id)) || !st.Cache.Equal(c) {
				return false
			}
		}
		return true
	}
}
