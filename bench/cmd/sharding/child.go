package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/sharding"
)

// A child is one replica of the controller under test, in a process of
// its own so that its live heap is its own (and it can be killed). It
// talks to the parent in lines: it writes "status {...}" every 100 ms,
// and answers "measure" with "heap {...}", "go" with "done {...}" once it
// has reconciled every object of its cache once more, starts counting
// what it takes over on "track" (see status.Pending; answered with a
// "tracking" status), and stops on "stop" or at the end of its standard
// input.

// The replicas' Lease timings, sharded or leader-elected alike.
const (
	childLease = 4 * time.Second
	childRenew = 3 * time.Second
	childRetry = 500 * time.Millisecond
)

// status is what a child reports about itself.
type status struct {
	ID         string `json:"id"`
	Members    int    `json:"members"`    // sharded: live members it counts
	Acting     int    `json:"acting"`     // sharded: slots it works on
	Assigned   int    `json:"assigned"`   // sharded: slots the ring gives it
	Synced     bool   `json:"synced"`     // its cache holds its part (sharded) or everything
	Leader     bool   `json:"leader"`     // its controller runs (always, sharded)
	Cached     int    `json:"cached"`     // objects in its cache
	Queued     int    `json:"queued"`     // Requests waiting in its controller's queue
	Reconciles int64  `json:"reconciles"` // Reconcile calls so far
	OnServer   bool   `json:"on_server"`  // the server applied the shard selector
	Filtering  string `json:"filtering"`  // where the selector was applied
	// After "track": the Pods it has to reconcile to take over a dead
	// replica's work and has not yet: sharded, those its cache received
	// since (its part grew); leader-elected, while it leads, every Pod
	// of its cache. -1 before "track", and for a standby.
	Pending int    `json:"pending"`
	Gained  int    `json:"gained"` // sharded: Pods its cache received since "track"
	Err     string `json:"err,omitempty"`
}

// takeover records, after "track", the Pods a replica received and
// reconciled.
type takeover struct {
	sync.Mutex
	on     bool
	gained map[string]bool
	done   map[string]bool
}

func (tk *takeover) start() {
	tk.Lock()
	defer tk.Unlock()
	tk.on, tk.gained, tk.done = true, map[string]bool{}, map[string]bool{}
}

func (tk *takeover) received(key string) {
	tk.Lock()
	defer tk.Unlock()
	if tk.on {
		tk.gained[key] = true
	}
}

func (tk *takeover) reconciled(key string) {
	tk.Lock()
	defer tk.Unlock()
	if tk.on {
		tk.done[key] = true
	}
}

// pending counts what is left: of the Pods received (sharded), or of
// keys (leader-elected, while leading); -1 when not tracking.
func (tk *takeover) pending(sharded, leading bool, keys func() []string) (pending, gained int) {
	tk.Lock()
	defer tk.Unlock()
	if !tk.on || !sharded && !leading {
		return -1, 0
	}
	if sharded {
		for k := range tk.gained {
			if !tk.done[k] {
				pending++
			}
		}
		return pending, len(tk.gained)
	}
	for _, k := range keys() {
		if !tk.done[k] {
			pending++
		}
	}
	return pending, 0
}

// gains tells a takeover the Pods a cache receives (not those of its
// first list).
type gains struct{ tk *takeover }

func (g gains) OnAdd(p *corev1.Pod, initial bool) {
	if !initial {
		g.tk.received(informer.Key(p))
	}
}
func (g gains) OnUpdate(_, _ *corev1.Pod)      {}
func (g gains) OnDelete(_ *corev1.Pod, _ bool) {}

// heap is the live heap a child holds for its cache.
type heap struct {
	Live     uint64 `json:"live"`     // live heap after GC with the cache filled
	Baseline uint64 `json:"baseline"` // live heap after GC before anything started
	Cached   int    `json:"cached"`
}

// done is the outcome of one wave of reconciles.
type done struct {
	Count   int     `json:"count"`
	Seconds float64 `json:"seconds"`
}

func childMain(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("child", flag.ContinueOnError)
	url := fs.String("url", "", "the server's URL")
	token := fs.String("token", "", "the server's token")
	id := fs.String("id", "", "the replica's identity")
	mode := fs.String("mode", "sharded", "sharded, or leader (leader-elected, every replica caching everything)")
	work := fs.Duration("work", 2*time.Millisecond, "simulated work per Reconcile (a wait, as for an API call)")
	workers := fs.Int("workers", 4, "Reconcile workers per replica")
	if err := fs.Parse(args); err != nil {
		return err
	}
	baseline := liveHeap()
	c, err := client.New(client.Config{Host: *url, BearerToken: *token, QPS: -1})
	if err != nil {
		return err
	}
	opts := manager.Options{Name: "bench-controller"}
	if *mode == "sharded" {
		opts.Sharding = &sharding.Config{Namespace: "default", Identity: *id, LeaseDuration: childLease, RenewDeadline: childRenew, RetryPeriod: childRetry}
	} else {
		opts.LeaderElection = &leaderelection.Config{Namespace: "default", Identity: *id, LeaseDuration: childLease, RenewDeadline: childRenew, RetryPeriod: childRetry}
	}
	m, err := manager.New(c, opts)
	if err != nil {
		return err
	}
	// Sharded, the key is the ring's, said once in opts.Sharding: the
	// controller makes its informer hold the replica's part.
	pods := informer.Shared[*corev1.Pod](m.Factory(), informer.Scope{})
	var reconciles atomic.Int64
	tk := &takeover{}
	pods.AddHandler(gains{tk}, informer.HandlerOptions{})
	var wave struct {
		sync.Mutex
		left  int
		start time.Time
		ended chan time.Time
	}
	ctl, err := controller.NewFor("bench", pods, func(ctx context.Context, p *corev1.Pod) (controller.Result, error) {
		time.Sleep(*work)
		reconciles.Add(1)
		tk.reconciled(informer.Key(p))
		wave.Lock()
		if wave.left > 0 {
			if wave.left--; wave.left == 0 {
				wave.ended <- time.Now()
			}
		}
		wave.Unlock()
		return controller.Result{}, nil
	}, controller.Options{Workers: *workers})
	if err != nil {
		return err
	}
	m.Add(ctl)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	runErr := make(chan error, 1)
	go func() { runErr <- m.Run(ctx) }()

	out := bufio.NewWriter(stdout)
	var outMu sync.Mutex
	say := func(kind string, v any) {
		b, _ := json.Marshal(v)
		outMu.Lock()
		defer outMu.Unlock()
		fmt.Fprintf(out, "%s %s\n", kind, b)
		_ = out.Flush()
	}
	report := func() status {
		st := status{ID: *id, Leader: m.IsLeader(), Cached: pods.Store().Len(), Queued: ctl.Len(), Reconciles: reconciles.Load(),
			OnServer: pods.ShardedOnServer(), Filtering: pods.Reflector().ShardFiltering().String()}
		st.Pending, st.Gained = tk.pending(*mode == "sharded", st.Leader, pods.Store().ListKeys)
		if mb := m.Member(); mb != nil {
			ms := mb.Status()
			st.Members, st.Acting, st.Assigned = len(ms.Members), ms.Acting, ms.Assigned
			got, ok := pods.SyncedShard()
			st.Synced = ok && got.Equal(ms.Selector)
		} else {
			st.Synced = pods.HasSynced()
		}
		return st
	}
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				say("status", report())
			}
		}
	}()

	in := bufio.NewScanner(stdin)
	for in.Scan() {
		switch in.Text() {
		case "measure":
			say("heap", heap{Live: liveHeap(), Baseline: baseline, Cached: pods.Store().Len()})
		case "go":
			// Every object of the cache once more, if this replica's
			// controller runs (a leader-elected standby has none).
			keys := pods.Store().ListKeys()
			if !m.IsLeader() || len(keys) == 0 {
				say("done", done{})
				continue
			}
			wave.Lock()
			wave.left, wave.start, wave.ended = len(keys), time.Now(), make(chan time.Time, 1)
			ended, start := wave.ended, wave.start
			wave.Unlock()
			for _, k := range keys {
				ns, name := informer.SplitKey(k)
				ctl.Enqueue(controller.Request{Namespace: ns, Name: name})
			}
			end := <-ended
			say("done", done{Count: len(keys), Seconds: end.Sub(start).Seconds()})
		case "track":
			tk.start()
			say("tracking", report()) // the parent waits for it before the kill
		case "stop":
			return stop(cancel, runErr)
		}
	}
	if err := in.Err(); err != nil {
		return err
	}
	return stop(cancel, runErr)
}

// stop ends the replica and waits for its manager (which leaves the ring
// and releases its Lease), at most 20 s.
func stop(cancel context.CancelFunc, runErr <-chan error) error {
	cancel()
	select {
	case err := <-runErr:
		return err
	case <-time.After(20 * time.Second):
		return fmt.Errorf("the manager did not stop within 20s")
	}
}

// liveHeap is the live heap after two collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
