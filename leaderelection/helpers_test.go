package leaderelection_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/leaderelection"
)

// Short timings for the tests; synctest makes them virtual anyway.
const (
	testLease = 4 * time.Second
	testRenew = 3 * time.Second
	testRetry = 500 * time.Millisecond
)

// memServer starts a fake server served in memory, for synctest bubbles.
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

// memClient is a client of s through its own cuttable in-memory
// transport.
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

// tracker records leadership as the candidates' callbacks see it and
// fails on any moment with two leaders.
type tracker struct {
	mu       sync.Mutex
	leader   string // "" when nobody leads
	terms    []term
	overlaps []string
}

type term struct {
	id         string
	start, end time.Time // end zero while leading
}

func (tr *tracker) start(id string) int {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.leader != "" {
		tr.overlaps = append(tr.overlaps, fmt.Sprintf("%s started leading while %s leads", id, tr.leader))
	}
	tr.leader = id
	tr.terms = append(tr.terms, term{id: id, start: time.Now()})
	return len(tr.terms) - 1
}

func (tr *tracker) stop(id string, n int) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.leader == id {
		tr.leader = ""
	}
	tr.terms[n].end = time.Now()
}

func (tr *tracker) current() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.leader
}

func (tr *tracker) allTerms() []term {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]term(nil), tr.terms...)
}

func (tr *tracker) check(t *testing.T) {
	t.Helper()
	tr.mu.Lock()
	defer tr.mu.Unlock()
	for _, o := range tr.overlaps {
		t.Error(o)
	}
}

// waitLeader waits (in virtual or real time) until someone other than
// not leads, and returns who.
func (tr *tracker) waitLeader(t *testing.T, not string, within time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		if id := tr.current(); id != "" && id != not {
			return id
		}
		if time.Now().After(deadline) {
			t.Fatalf("no new leader (other than %q) within %s", not, within)
		}
		time.Sleep(pollStep)
	}
}

// pollStep is how often waitLeader and waitNoLeader look.
const pollStep = time.Millisecond

// waitNoLeader waits until nobody leads.
func (tr *tracker) waitNoLeader(t *testing.T, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for tr.current() != "" {
		if time.Now().After(deadline) {
			t.Fatalf("%s still leads after %s", tr.current(), within)
		}
		time.Sleep(pollStep)
	}
}

// candidate is one running Elector.
type candidate struct {
	id     string
	el     *leaderelection.Elector
	link   *cuttable
	cancel context.CancelFunc
	done   chan struct{} // closed when Run returned for good
	err    error         // Run's last result, once done is closed
}

// stop cancels the candidate's Run and returns its result.
func (c *candidate) stop() error {
	c.cancel()
	<-c.done
	return c.err
}

// candidateOptions adjust a candidate's Config.
type candidateOptions struct {
	keepOnCancel bool
	noWatch      bool
	fence        *fence        // nil: no fencing writes
	rerun        bool          // campaign again after losing leadership
	lost         *atomic.Int32 // counts ErrLeadershipLost
}

// startCandidate starts a candidate through c whose callbacks report to
// tr.
func startCandidate(t *testing.T, c *client.Client, link *cuttable, id string, tr *tracker, o candidateOptions) *candidate {
	t.Helper()
	cfg := leaderelection.Config{
		Namespace: "default", Name: "le-test", Identity: id,
		LeaseDuration: testLease, RenewDeadline: testRenew, RetryPeriod: testRetry,
		KeepOnCancel: o.keepOnCancel, NoWatch: o.noWatch,
		Callbacks: leaderelection.Callbacks{
			OnStartedLeading: func(ctx context.Context) {
				n := tr.start(id)
				if o.fence != nil {
					o.fence.writeWhileLeading(ctx, c, id, n)
				} else {
					<-ctx.Done()
				}
				tr.stop(id, n)
			},
		},
	}
	el, err := leaderelection.New(c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cd := &candidate{id: id, el: el, link: link, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(cd.done)
		for {
			cd.err = el.Run(ctx)
			if errors.Is(cd.err, leaderelection.ErrLeadershipLost) && o.lost != nil {
				o.lost.Add(1)
			}
			if !o.rerun || ctx.Err() != nil || (cd.err != nil && !errors.Is(cd.err, leaderelection.ErrLeadershipLost)) {
				return
			}
		}
	}()
	t.Cleanup(func() { _ = cd.stop() }) // after a failure, too
	return cd
}

// fence is a counter in a ConfigMap that leaders increment with
// optimistic concurrency while they lead, recording which term wrote
// each value: the values of one term must form one run, with terms in
// order.
type fence struct {
	mu     sync.Mutex
	writes map[int]int // counter value -> term
}

const fenceName = "le-fence"

func newFence(t *testing.T, c *client.Client) *fence {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fenceName}, Data: map[string]string{"counter": "0"}}
	if _, err := client.For[*corev1.ConfigMap](c).Create(context.Background(), cm, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return &fence{writes: map[int]int{}}
}

// writeWhileLeading increments the counter every RetryPeriod until ctx
// ends (term n).
func (f *fence) writeWhileLeading(ctx context.Context, c *client.Client, id string, n int) {
	cms := client.For[*corev1.ConfigMap](c).Namespace("default")
	for ctx.Err() == nil {
		cm, err := cms.Get(ctx, fenceName, client.GetOptions{})
		if err == nil && ctx.Err() == nil {
			v, _ := strconv.Atoi(cm.Data["counter"])
			cm.Data["counter"] = strconv.Itoa(v + 1)
			cm.Data["writer"] = id
			if _, err := cms.Update(ctx, cm, client.UpdateOptions{}); err == nil {
				f.mu.Lock()
				f.writes[v+1] = n
				f.mu.Unlock()
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(testRetry / 2):
		}
	}
}

// check fails when terms interleave in the counter's history.
func (f *fence) check(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	values := make([]int, 0, len(f.writes))
	for v := range f.writes {
		values = append(values, v)
	}
	sort.Ints(values)
	last := -1
	for _, v := range values {
		if n := f.writes[v]; n < last {
			t.Errorf("fence value %d written by term %d after term %d wrote", v, n, last)
		} else {
			last = n
		}
	}
	if len(values) == 0 {
		t.Error("no leader wrote the fence")
	}
}

// getLease reads the test Lease.
func getLease(t *testing.T, c *client.Client) *coordinationv1.Lease {
	t.Helper()
	l, err := client.For[*coordinationv1.Lease](c).Namespace("default").Get(context.Background(), "le-test", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}
