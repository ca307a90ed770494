// Command informer runs kubewire's informer and client-go's shared
// informer over the same Pods from the same fake API server, in one run,
// and prints their figures side by side with the ratios and the goals of
// the benchmark issue.
//
//	cd bench && go run ./cmd/informer              # the default matrix, 3 rounds (6-7 minutes on 2 cores)
//	cd bench && go run ./cmd/informer -quick       # a smoke test (seconds)
//	cd bench && go run ./cmd/informer -rounds 5 -json results/informer.json
//
// The fake server (package fake) runs in this process, seeded with Pods
// made by k8s.io/api's encoder (bench/internal/podgen), and serves both
// SDKs the same bytes over loopback HTTP, in protobuf. Every measured
// informer runs in a child process of its own (this binary, re-executed),
// so that its peak RSS is its own; the SDKs alternate round by round and
// the median of each figure is reported.
//
// A child goes through three phases, each checked on the server side by
// counting the requests it made (lists, watch-lists, watches):
//
//   - sync: the informer starts with one counting handler; measured are
//     the time to a synced cache, the live heap per cached Pod after GC
//     (minus a baseline taken before the start), the allocations per Pod
//     until the handler has seen every Pod, the peak RSS, and the peak
//     live heap (runtime/metrics /gc/heap/live:bytes, sampled every 5 ms).
//     In watch-list mode the informers must make a watch-list and no
//     list; in list mode a list and no watch-list. (client-go's mode is
//     its WatchListClient feature gate, set through the child's
//     KUBE_FEATURE_WatchListClient environment variable; kubewire's is
//     reflector.Options.WatchList.)
//   - relist: the server writes an object the informers do not watch (a
//     ConfigMap), compacts its history and drops every watch, so the
//     informers' watches come back to 410 Gone and they relist every Pod.
//     Measured: the peak live heap during the relist over the live heap
//     before it, and the peak RSS (VmHWM reset before the phase).
//   - events: the server drops the watches and answers the resumed watch
//     (from the informer's resourceVersion, with no relist) with M
//     MODIFIED events at once, prepared once per server (see events.go),
//     which the informer takes as fast as it can. The time from the first
//     to the last reaching the handler gives events per second.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubewire/kubewire/bench/internal/podgen"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		if err := childMain(os.Args[2:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "informer child:", err)
			os.Exit(1)
		}
		return
	}
	pods := flag.String("pods", "10000,50000", "Pods in the server, comma-separated sizes")
	shapes := flag.String("shapes", "small,realistic", "Pod shapes: small (about 0.8 KB in protobuf), realistic (about 7.4 KB)")
	modes := flag.String("modes", "watchlist,list", "initial list modes: watchlist (streaming list), list (list then watch)")
	rounds := flag.Int("rounds", 3, "runs of each SDK per scenario, alternating; the median is reported")
	updates := flag.Int("updates", 40000, "MODIFIED events in the events phase")
	gzip := flag.Bool("gzip", true, "let the server gzip large list responses, as kube-apiserver does")
	quick := flag.Bool("quick", false, "smoke test: 2,000 small Pods, watch-list and list, one round, 8,000 events")
	jsonOut := flag.String("json", "", "also write the medians and ratios to this JSON file (for cmd/chart)")
	pageSize := flag.Int64("pagesize", 0, "page size of kubewire's list mode (reflector.Options.PageSize; 0: its default, 500); client-go's first list asks for resourceVersion 0, which the server answers in one response")
	profile := flag.String("profile", "", "write CPU and heap profiles of every child's phases into this directory")
	serverProfile := flag.String("serverprofile", "", "write a CPU profile of this process (the fake server) to this file")
	serverKind := flag.String("server", "fake", "fake (in this process), or kube-apiserver (a real one with etcd, run by ../e2e's cmd/cluster; default matrix 10000 realistic Pods)")
	settle := flag.Bool("settle", false, "with -server kube-apiserver: compact etcd after filling it and wait for the watch cache to see it, as on a cluster that has run for minutes (the pages after a paginated list's first are then read from etcd, not the cache)")
	kwPages := flag.Bool("kwpages", false, "kubewire's informers list in pages (reflector.Options.ListInPages), to compare pages with the streamed list")
	e2eDir := flag.String("e2e", "../e2e", "the e2e module's directory, for -server kube-apiserver")
	flag.Parse()
	if *serverKind == "kube-apiserver" {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		// Every Pod is written through the API (two writes each): keep
		// the default to what seeds in about a minute.
		if !set["pods"] {
			*pods = "10000"
		}
		if !set["shapes"] {
			*shapes = "realistic"
		}
	} else if *serverKind != "fake" {
		fmt.Fprintln(os.Stderr, "informer: -server must be fake or kube-apiserver")
		os.Exit(2)
	}
	if *serverProfile != "" {
		f, err := os.Create(*serverProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "informer:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}

	cfg := config{rounds: *rounds, updates: *updates, gzip: *gzip, profile: *profile, pageSize: *pageSize, out: os.Stdout, log: os.Stderr,
		server: *serverKind, e2eDir: *e2eDir, settle: *settle, kwPages: *kwPages}
	if *quick {
		*pods, *shapes, cfg.rounds, cfg.updates = "2000", "small", 1, 8000
	}
	var err error
	if cfg.pods, err = parseInts(*pods); err == nil {
		if cfg.shapes, err = parseShapes(*shapes); err == nil {
			cfg.modes, err = parseModes(*modes)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "informer:", err)
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "informer:", err)
		os.Exit(1)
	}
	cfg.spawn = func(args []string) *exec.Cmd { return exec.Command(self, append([]string{"child"}, args...)...) }

	rep, err := run(cfg)
	if err == nil && *jsonOut != "" {
		err = rep.writeJSON(*jsonOut)
	}
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "informer:", err)
		os.Exit(1)
	}
}

type config struct {
	pods     []int
	shapes   []podgen.Shape
	modes    []string
	rounds   int
	updates  int
	gzip     bool
	profile  string // directory for profiles, or ""
	pageSize int64
	server   string // "fake" or "kube-apiserver"
	e2eDir   string
	settle   bool // compact etcd before the rounds (kube-apiserver)
	kwPages  bool // kubewire lists in pages
	// spawn returns the command that runs childMain with args.
	spawn    func(args []string) *exec.Cmd
	out, log io.Writer
}

var sdks = [2]string{"kubewire", "client-go"}

// scenario is one line of the matrix.
type scenario struct {
	Pods  int    `json:"pods"`
	Shape string `json:"shape"`
	Mode  string `json:"mode"`
}

func (s scenario) String() string { return fmt.Sprintf("%d %s %s", s.Pods, s.Shape, s.Mode) }

// result is one child's figures, with the requests each phase made.
type result struct {
	Sync      syncFigures   `json:"sync"`
	Relist    relistFigures `json:"relist"`
	Events    eventsFigures `json:"events"`
	SyncReq   requests      `json:"sync_requests"`
	RelistReq requests      `json:"relist_requests"`
	EventsReq requests      `json:"events_requests"`

	// Figures derived per run (their median is not the ratio of medians).
	SyncLive     float64 `json:"sync_peak_over_steady"`
	RelistLive   float64 `json:"relist_peak_over_steady"`
	RelistHeap   float64 `json:"relist_peak_heap_over_steady"`
	EventsPerSec float64 `json:"events_per_second"`
	// FloorSeconds is the transfer floor against kube-apiserver: one
	// unpaged protobuf GET of every Pod, read to its end, measured just
	// before the round (kubewire's runs only).
	FloorSeconds  float64 `json:"floor_seconds,omitempty"`
	SyncOverFloor float64 `json:"sync_over_floor,omitempty"`
}

func (r *result) derive() {
	r.SyncLive = ratio(r.Sync.PeakLive, r.Sync.Steady)
	r.RelistLive = ratio(r.Relist.PeakLive, r.Relist.Steady)
	r.RelistHeap = ratio(r.Relist.PeakHeap, r.Relist.Steady)
	r.EventsPerSec = float64(r.Events.Events) / r.Events.Seconds
	if r.FloorSeconds > 0 {
		r.SyncOverFloor = r.Sync.Seconds / r.FloorSeconds
	}
}

type report struct {
	Server    string           `json:"server"` // fake or kube-apiserver
	Machine   string           `json:"machine"`
	Date      string           `json:"date"`
	Rounds    int              `json:"rounds"`
	Updates   int              `json:"updates"`
	Scenarios []scenarioReport `json:"scenarios"`

	runs map[scenario]map[string][]result // every run, for tests
}

type scenarioReport struct {
	scenario
	Seed    float64             `json:"seed_seconds"`
	Events  int                 `json:"events"` // MODIFIED events in the events phase
	Figures []figure            `json:"figures"`
	Runs    map[string][]result `json:"runs"` // every run of each SDK, in order

}

// figure is one row of the table.
type figure struct {
	Name     string  `json:"name"`
	Unit     string  `json:"unit"`
	Kubewire float64 `json:"kubewire"`
	ClientGo float64 `json:"client_go"`
	// Ratio is kubewire / client-go; for Absolute figures the goal
	// applies to Kubewire itself.
	Ratio    float64 `json:"ratio"`
	Goal     string  `json:"goal,omitempty"`
	Met      *bool   `json:"met,omitempty"`
	Absolute bool    `json:"absolute,omitempty"`
}

func run(cfg config) (*report, error) {
	rep := &report{Server: cfg.server, Machine: machine(), Date: time.Now().Format("2006-01-02"), Rounds: cfg.rounds, Updates: cfg.updates,
		runs: map[scenario]map[string][]result{}}
	for _, n := range cfg.pods {
		for _, shape := range cfg.shapes {
			var srv *server
			var seedTook time.Duration
			var err error
			if cfg.server == "kube-apiserver" {
				srv, seedTook, err = startAPIServer(n, shape, cfg.e2eDir, cfg.log)
			} else {
				srv, seedTook, err = startServer(n, shape, cfg.gzip)
			}
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(cfg.log, "server: %d %s Pods %s in %v (%.0f Pods/s)\n",
				n, shape, srv.seedMethod(), seedTook.Round(time.Millisecond), float64(n)/seedTook.Seconds())
			if cfg.settle {
				if err := srv.settle(context.Background(), cfg.log); err != nil {
					srv.Close()
					return nil, err
				}
			}
			stream, m, err := srv.eventStream(context.Background(), n, cfg.updates)
			if err != nil {
				srv.Close()
				return nil, err
			}
			for _, mode := range cfg.modes {
				sc := scenario{Pods: n, Shape: shape.String(), Mode: mode}
				runs := map[string][]result{}
				for round := range cfg.rounds {
					order := sdks
					if round%2 == 1 {
						order[0], order[1] = order[1], order[0]
					}
					for _, sdk := range order {
						var floor time.Duration
						if cfg.server == "kube-apiserver" && sdk == "kubewire" {
							// The transfer floor, measured beside each round
							// it is compared with: the server's speed drifts
							// with the machine's load between rounds.
							if floor, err = srv.transferFloor(context.Background()); err != nil {
								srv.Close()
								return nil, err
							}
							fmt.Fprintf(cfg.log, "%-28s round %d transfer floor (one unpaged GET, protobuf): %.3f s\n", sc, round+1, floor.Seconds())
						}
						r, err := runChild(cfg, srv, sdk, sc, round, stream, m)
						if err != nil {
							srv.Close()
							return nil, fmt.Errorf("%s, %s, round %d: %w", sc, sdk, round+1, err)
						}
						r.FloorSeconds = floor.Seconds()
						r.derive()
						fmt.Fprintf(cfg.log, "%-28s round %d %-9s sync %6.3fs (cpu %6.3fs) %7.0f B/pod %5.1f allocs/pod rss %6.1f MiB | relist live %.2fx rss %6.1f MiB | %7.0f events/s | sync: %v; relist: %v\n",
							sc, round+1, sdk, r.Sync.Seconds, r.Sync.CPUSeconds, r.Sync.HeapPerPod, r.Sync.AllocsPerPod, mib(r.Sync.PeakRSS),
							r.RelistLive, mib(r.Relist.PeakRSS), r.EventsPerSec, r.SyncReq, r.RelistReq)
						runs[sdk] = append(runs[sdk], r)
					}
				}
				rep.runs[sc] = runs
				rep.Scenarios = append(rep.Scenarios, scenarioReport{scenario: sc, Seed: seedTook.Seconds(), Events: m, Runs: runs,
					Figures: figures(sc, cfg.server, median(runs["kubewire"]), median(runs["client-go"]))})
			}
			srv.Close()
		}
	}
	rep.print(cfg.out)
	return rep, nil
}

// runChild runs one SDK's informer in a child process through the three
// phases and checks, from the server's counts, that each phase used the
// protocol it was meant to.
func runChild(cfg config, srv *server, sdk string, sc scenario, round int, stream []byte, m int) (result, error) {
	var r result
	args := []string{"-sdk", sdk, "-url", srv.URL(), "-token", srv.Token(), "-mode", sc.Mode, "-pods", strconv.Itoa(sc.Pods)}
	if cfg.kwPages && sdk == "kubewire" {
		args = append(args, "-pages")
	}
	if cfg.pageSize > 0 && sdk == "kubewire" {
		args = append(args, "-pagesize", strconv.FormatInt(cfg.pageSize, 10))
	}
	if cfg.profile != "" {
		args = append(args, "-profile", filepath.Join(cfg.profile, fmt.Sprintf("%d-%s-%s-%s-%d", sc.Pods, sc.Shape, sc.Mode, sdk, round+1)))
	}
	cmd := cfg.spawn(args)
	cmd.Env = append(cmd.Environ(), "KUBE_FEATURE_WatchListClient="+strconv.FormatBool(sc.Mode == "watchlist"))
	cmd.Stderr = cfg.log
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return r, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return r, err
	}
	srv.front.take()
	if err := cmd.Start(); err != nil {
		return r, err
	}
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	expect := func(phase string, v any) error {
		if !lines.Scan() {
			if err := lines.Err(); err != nil {
				return err
			}
			return fmt.Errorf("child ended before %q", phase)
		}
		got, body, _ := strings.Cut(lines.Text(), " ")
		if got != phase {
			return fmt.Errorf("child said %q, want %q", lines.Text(), phase)
		}
		return json.Unmarshal([]byte(body), v)
	}
	command := func(s string) error {
		_, err := io.WriteString(stdin, s+"\n")
		return err
	}
	ctx := context.Background()

	if err := expect("sync", &r.Sync); err != nil {
		return r, err
	}
	r.SyncReq = srv.front.take()
	if r.Sync.Items != sc.Pods {
		return r, fmt.Errorf("cache holds %d Pods, want %d", r.Sync.Items, sc.Pods)
	}
	if err := checkMode("sync", sc.Mode, r.SyncReq); err != nil {
		return r, err
	}

	// Relist.
	if err := command("relist"); err != nil {
		return r, err
	}
	if err := expect("ready", &struct{}{}); err != nil {
		return r, err
	}
	if err := srv.forceRelist(ctx); err != nil {
		return r, err
	}
	if err := expect("relist", &r.Relist); err != nil {
		return r, err
	}
	r.RelistReq = srv.front.take()
	if err := checkMode("relist", sc.Mode, r.RelistReq); err != nil {
		return r, err
	}

	// Events.
	if err := command(fmt.Sprintf("events %d", m)); err != nil {
		return r, err
	}
	if err := expect("ready", &struct{}{}); err != nil {
		return r, err
	}
	// client-go takes a watch that ends within a second with no event as
	// an error ("very short watch") and relists; let the watch of the
	// relist age first.
	time.Sleep(1200 * time.Millisecond)
	srv.front.armReplay(stream)
	srv.dropWatches()
	if err := expect("events", &r.Events); err != nil {
		return r, err
	}
	r.EventsReq = srv.front.take()
	if r.Events.Events != m {
		return r, fmt.Errorf("handler saw %d updates, want %d", r.Events.Events, m)
	}
	if r.EventsReq.Lists+r.EventsReq.WatchLists > 0 || r.EventsReq.Replayed != 1 {
		return r, fmt.Errorf("events phase: want one watch resumed without a relist, server saw %v", r.EventsReq)
	}
	return r, nil
}

// checkMode checks that a phase read its full state the way mode says.
func checkMode(phase, mode string, n requests) error {
	switch {
	case mode == "watchlist" && (n.WatchLists == 0 || n.Lists > 0),
		mode == "list" && (n.Lists == 0 || n.WatchLists > 0):
		return fmt.Errorf("%s phase in %s mode: server saw %v", phase, mode, n)
	}
	return nil
}

// median returns the median of each figure separately.
func median(rs []result) result {
	pick := func(f func(r *result) float64) float64 {
		v := make([]float64, len(rs))
		for i := range rs {
			v[i] = f(&rs[i])
		}
		slices.Sort(v)
		if len(v)%2 == 0 {
			return (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		return v[len(v)/2]
	}
	u := func(f func(r *result) uint64) uint64 {
		return uint64(pick(func(r *result) float64 { return float64(f(r)) }))
	}
	return result{
		Sync: syncFigures{
			Items:        rs[0].Sync.Items,
			Seconds:      pick(func(r *result) float64 { return r.Sync.Seconds }),
			CPUSeconds:   pick(func(r *result) float64 { return r.Sync.CPUSeconds }),
			HeapPerPod:   pick(func(r *result) float64 { return r.Sync.HeapPerPod }),
			AllocsPerPod: pick(func(r *result) float64 { return r.Sync.AllocsPerPod }),
			BytesPerPod:  pick(func(r *result) float64 { return r.Sync.BytesPerPod }),
			PeakRSS:      u(func(r *result) uint64 { return r.Sync.PeakRSS }),
			PeakLive:     u(func(r *result) uint64 { return r.Sync.PeakLive }),
			PeakHeap:     u(func(r *result) uint64 { return r.Sync.PeakHeap }),
			Steady:       u(func(r *result) uint64 { return r.Sync.Steady }),
		},
		Relist: relistFigures{
			Seconds:  pick(func(r *result) float64 { return r.Relist.Seconds }),
			Steady:   u(func(r *result) uint64 { return r.Relist.Steady }),
			PeakLive: u(func(r *result) uint64 { return r.Relist.PeakLive }),
			PeakHeap: u(func(r *result) uint64 { return r.Relist.PeakHeap }),
			PeakRSS:  u(func(r *result) uint64 { return r.Relist.PeakRSS }),
		},
		Events: eventsFigures{
			Events:  rs[0].Events.Events,
			Seconds: pick(func(r *result) float64 { return r.Events.Seconds }),
		},
		SyncReq:      rs[0].SyncReq,
		RelistReq:    rs[0].RelistReq,
		EventsReq:    rs[0].EventsReq,
		SyncLive:     pick(func(r *result) float64 { return r.SyncLive }),
		RelistLive:   pick(func(r *result) float64 { return r.RelistLive }),
		RelistHeap:   pick(func(r *result) float64 { return r.RelistHeap }),
		EventsPerSec: pick(func(r *result) float64 { return r.EventsPerSec }),
		FloorSeconds: pick(func(r *result) float64 { return r.FloorSeconds }),
		// The median of the rounds' ratios, each to the floor beside it.
		SyncOverFloor: pick(func(r *result) float64 { return r.SyncOverFloor }),
	}
}

func parseInts(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("bad size %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func parseShapes(s string) ([]podgen.Shape, error) {
	var out []podgen.Shape
	for f := range strings.SplitSeq(s, ",") {
		switch strings.TrimSpace(f) {
		case "small":
			out = append(out, podgen.Small)
		case "realistic":
			out = append(out, podgen.Realistic)
		default:
			return nil, fmt.Errorf("bad shape %q (small, realistic)", f)
		}
	}
	return out, nil
}

func parseModes(s string) ([]string, error) {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		switch m := strings.TrimSpace(f); m {
		case "watchlist", "list":
			out = append(out, m)
		default:
			return nil, fmt.Errorf("bad mode %q (watchlist, list)", f)
		}
	}
	return out, nil
}
