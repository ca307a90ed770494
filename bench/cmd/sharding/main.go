// Command sharding measures a controller split between replicas with
// package sharding against the same controller run by one replica, and
// against leader election (every replica caching everything, one
// working), on the same Pods from one fake API server.
//
//	cd bench && go run ./cmd/sharding            # 20,000 realistic Pods; 1, 2, 3, 5 replicas; leader election with 3; 3 rounds
//	cd bench && go run ./cmd/sharding -quick     # a smoke test: one round on 2,000 small Pods (seconds)
//	cd bench && go run ./cmd/sharding -ignore-shard-selector   # a server without the ShardedListAndWatch gate
//	cd bench && go run ./cmd/sharding -heal      # the takeover of a replica killed with SIGKILL, sharded against leader-elected
//
// Every replica is a child process (this binary, re-executed) running a
// manager with one informer of every Pod and one controller whose
// Reconcile reads its Pod from the cache and waits -work (the latency of
// an API call; the replica's -workers goroutines reconcile at once). For
// each configuration the parent waits until the ring is settled (every
// replica works on its share of the slots, its cache holds exactly its
// part, every Pod is cached once) and the initial reconciles are done,
// then measures:
//
//   - memory: each replica's live heap after GC minus its heap before
//     the start (its cache, mostly), as a share of one replica's holding
//     every Pod. Target: at most 1.1/N for each of N replicas.
//   - throughput: every replica reconciles every Pod of its cache once
//     more, at once; reconciles per second is the number of Pods over
//     the time of the slowest replica. Target: at least 0.8*N times one
//     replica's.
//
// With -heal it measures healing instead: -heal-replicas replicas
// (3), sharded, then leader-elected, each child's Lease 4 s; once
// settled one replica is killed with SIGKILL (the leader, leader-elected)
// and the time runs until every Pod of its work is reconciled by a
// survivor: sharded, the Pods of the slots the survivors gain (listed
// and reconciled once its Lease expired); leader-elected, every Pod (the
// new leader's cache is warm, its controller starts once it leads).
// Targets: sharded within the lease duration + 5 s (issue 32), and no
// slower than leader election.
//
// Every configuration runs -rounds times, the configurations in
// alternating order (forward, then backward), each in fresh child
// processes; ratios are taken against the one-replica run of the same
// round and the medians are reported. The targets' PASS and FAIL lines are printed as measured. The fake
// server runs in this process and shards lists and watches as
// kube-apiserver with the ShardedListAndWatch feature gate does, unless
// -ignore-shard-selector (then each replica receives every Pod and keeps
// its part).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	kwcorev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/bench/internal/podgen"
	"github.com/kubewire/kubewire/fake"
	"golang.org/x/sync/errgroup"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		if err := childMain(os.Args[2:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "sharding child:", err)
			os.Exit(1)
		}
		return
	}
	objects := flag.Int("objects", 20000, "Pods in the server")
	shape := flag.String("shape", "realistic", "Pod shape: small (about 0.8 KB in protobuf) or realistic (about 7.4 KB)")
	replicas := flag.String("replicas", "1,2,3,5", "sharded configurations, comma-separated replica counts (the first is the baseline; use 1)")
	leader := flag.Int("leader", 3, "replicas of the leader-elected comparison (0: none)")
	work := flag.Duration("work", 2*time.Millisecond, "simulated work per Reconcile")
	workers := flag.Int("workers", 4, "Reconcile workers per replica")
	ignore := flag.Bool("ignore-shard-selector", false, "the server ignores shard selectors (no ShardedListAndWatch gate)")
	quick := flag.Bool("quick", false, "smoke test: 2,000 small Pods, 1, 2 and 3 replicas, leader election with 2")
	rounds := flag.Int("rounds", 3, "runs of every configuration, in alternating order; the medians are reported")
	jsonOut := flag.String("json", "", "also write the results to this JSON file")
	healMode := flag.Bool("heal", false, "instead: time the takeover of a replica killed with SIGKILL, sharded against leader-elected (-heal-replicas of each)")
	healReplicas := flag.Int("heal-replicas", 3, "replicas of -heal")
	flag.Parse()
	cfg := config{objects: *objects, leader: *leader, work: *work, workers: *workers, ignore: *ignore, rounds: *rounds, out: os.Stdout, log: os.Stderr}
	if *quick {
		cfg.objects, *shape, *replicas, cfg.leader, cfg.rounds = 2000, "small", "1,2,3", 2, 1
	}
	var err error
	if cfg.shape, err = parseShape(*shape); err == nil {
		cfg.replicas, err = parseInts(*replicas)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sharding:", err)
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sharding:", err)
		os.Exit(1)
	}
	cfg.spawn = func(args []string) *exec.Cmd { return exec.Command(self, append([]string{"child"}, args...)...) }
	var rep any
	if *healMode {
		rep, err = healMain(cfg, *healReplicas)
	} else {
		rep, err = run(cfg)
	}
	if err == nil && *jsonOut != "" {
		var b []byte
		if b, err = json.MarshalIndent(rep, "", "  "); err == nil {
			err = os.WriteFile(*jsonOut, append(b, '\n'), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sharding:", err)
		os.Exit(1)
	}
}

type config struct {
	objects  int
	shape    podgen.Shape
	replicas []int
	leader   int
	work     time.Duration
	workers  int
	ignore   bool
	rounds   int
	spawn    func(args []string) *exec.Cmd
	out, log io.Writer
}

// run seeds one fake server and measures every configuration cfg.rounds
// times, in alternating order (forward in odd rounds, backward in even
// ones) so that a slow phase of the machine falls on every configuration
// alike; ratios are taken within a round, then the medians reported.
func run(cfg config) (*report, error) {
	srv, err := seededServer(cfg)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	server := "fake, sharding lists and watches"
	if cfg.ignore {
		server = "fake, ignoring shard selectors"
	}
	type setup struct {
		n    int
		mode string
	}
	var setups []setup
	for _, n := range cfg.replicas {
		setups = append(setups, setup{n, "sharded"})
	}
	if cfg.leader > 0 {
		setups = append(setups, setup{cfg.leader, "leader"})
	}
	rounds := max(cfg.rounds, 1)
	runs := make([][]result, len(setups))
	seq := 0
	for round := range rounds {
		order := make([]int, len(setups))
		for i := range order {
			order[i] = i
			if round%2 == 1 {
				order[i] = len(setups) - 1 - i
			}
		}
		for _, i := range order {
			seq++
			r, err := measure(cfg, srv, setups[i].n, setups[i].mode, seq)
			if err != nil {
				return nil, fmt.Errorf("%d %s replicas, round %d: %w", setups[i].n, setups[i].mode, round+1, err)
			}
			fmt.Fprintf(cfg.log, "sharding: round %d, %s: settled in %.1fs, %.0f reconciles/s, cached %v, heaps %s MB\n",
				round+1, r.Name, r.Settled, r.PerSecond, r.Cached, joinFloats(r.HeapMB, 1))
			runs[i] = append(runs[i], *r)
		}
		// Within the round, against its one-replica baseline.
		base := runs[0][round]
		for i := range runs {
			r := &runs[i][round]
			r.HeapShare = nil
			for _, h := range r.HeapMB {
				r.HeapShare = append(r.HeapShare, h/base.HeapMB[0])
			}
			r.Speedup = r.PerSecond / base.PerSecond
		}
	}
	rep := &report{Objects: cfg.objects, Shape: cfg.shape.String(), Work: cfg.work.String(), Workers: cfg.workers, Server: server,
		Machine: machine(), Date: time.Now().UTC().Format("2006-01-02"), Rounds: rounds, Passed: true}
	for i := range setups {
		rep.Results = append(rep.Results, summarize(runs[i]))
	}
	rep.print(cfg.out)
	return rep, nil
}

// seededServer starts the fake server with cfg.objects Pods.
func seededServer(cfg config) (*fake.Server, error) {
	namespaces := []string{"default"}
	for i := range 20 { // podgen's namespaces
		namespaces = append(namespaces, fmt.Sprintf("team-%d", i))
	}
	srv := fake.Start(fake.Options{Namespaces: namespaces, IgnoreShardSelector: cfg.ignore,
		Controllers: fake.ControllersManual}) // the Pods' owners do not exist: no garbage collector
	start := time.Now()
	if err := seed(srv, cfg.shape, cfg.objects); err != nil {
		srv.Close()
		return nil, err
	}
	fmt.Fprintf(cfg.log, "sharding: %d %s Pods seeded in %v\n", cfg.objects, cfg.shape, time.Since(start).Round(time.Millisecond))
	return srv, nil
}

// seed stores n Pods made by podgen in srv.
func seed(srv *fake.Server, shape podgen.Shape, n int) error {
	var g errgroup.Group
	g.SetLimit(4)
	for i := range n {
		g.Go(func() error {
			b, err := podgen.Pod(shape, i).Marshal()
			if err != nil {
				return err
			}
			p := new(kwcorev1.Pod)
			if err := p.Unmarshal(b); err != nil {
				return err
			}
			p.ResourceVersion, p.UID = "", ""
			return srv.Add(p)
		})
	}
	return g.Wait()
}

func parseShape(s string) (podgen.Shape, error) {
	switch s {
	case "small":
		return podgen.Small, nil
	case "realistic":
		return podgen.Realistic, nil
	}
	return 0, fmt.Errorf("unknown shape %q", s)
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("bad count %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func machine() string {
	cpu := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.SplitSeq(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%d CPUs (%s), %s %s/%s", runtime.NumCPU(), cpu, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func joinFloats(v []float64, prec int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'f', prec, 64)
	}
	return strings.Join(s, " ")
}
