// Command crinformer runs kubewire's informer and client-go's over the
// same custom resources from the same fake API server, in one run, and
// prints their figures side by side with the ratios and the goals of the
// JSON-path issue. Custom resources only travel as JSON.
//
//	cd bench && go run ./cmd/crinformer                # 10k and 50k of each shape and kind, 3 rounds
//	cd bench && go run ./cmd/crinformer -quick         # a smoke test (seconds)
//	cd bench && go run ./cmd/crinformer -objects 10000 -shapes typical -kinds dynamic -rounds 5
//	cd bench && go run ./cmd/crinformer -server kube-apiserver   # a real kube-apiserver and etcd (../e2e), 10k of each shape
//
// Two comparisons, on identical objects (bench/internal/crgen: small
// about 1 KB, typical about 2.5 KB, large about 29 KB of JSON):
//
//   - typed: kubewire's informer over client.For with the Widget type
//     (bench/internal/widget; its JSON decoder written by jsoncodec, as
//     kubewire-gen will write it) against controller-runtime v0.24's
//     cache with the same type in a scheme, as operators run today;
//   - dynamic: kubewire's informer over client.Dynamic (Unstructured)
//     against client-go's dynamicinformer.
//
// Every informer runs in a child process of its own (this binary,
// re-executed), so that its peak RSS is its own; the SDKs alternate round
// by round and the median of each figure is reported. A child syncs
// (measured: time and CPU to a synced cache whose handler saw every
// object, live heap per cached object after GC over a baseline,
// allocations and bytes allocated per object, peak RSS), then its watch
// is dropped and resumed, and front answers the resumed watch with M
// MODIFIED events in kube-apiserver's JSON form, prepared once per server:
// the time from the first to the last reaching the handler gives watch
// events per second.
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
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kubewire/kubewire/bench/internal/crgen"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		if err := childMain(os.Args[2:], os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "crinformer child:", err)
			os.Exit(1)
		}
		return
	}
	objects := flag.String("objects", "10000,50000", "objects in the server, comma-separated sizes")
	shapes := flag.String("shapes", "small,typical,large", "object shapes")
	kinds := flag.String("kinds", "typed,dynamic", "typed (vs controller-runtime), dynamic (vs dynamicinformer)")
	mode := flag.String("mode", "watchlist", "initial list mode of both SDKs: watchlist or list")
	rounds := flag.Int("rounds", 3, "runs of each SDK per scenario, alternating; the median is reported")
	updates := flag.Int("updates", 20000, "MODIFIED events in the events phase")
	quick := flag.Bool("quick", false, "smoke test: 1,000 typical objects, both kinds, one round, 2,000 events")
	jsonOut := flag.String("json", "", "also write the medians and ratios to this JSON file")
	profile := flag.String("profile", "", "write CPU and heap profiles of every child's sync into this directory")
	serverKind := flag.String("server", "fake", "fake (in this process), or kube-apiserver (a real one with etcd, run by ../e2e's cmd/cluster; the CRD and objects created through its API; default matrix 10000 objects)")
	e2eDir := flag.String("e2e", "../e2e", "the e2e module's directory, for -server kube-apiserver")
	flag.Parse()
	if *serverKind == "kube-apiserver" {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["objects"] {
			*objects = "10000" // every object is created through the API
		}
	} else if *serverKind != "fake" {
		fmt.Fprintln(os.Stderr, "crinformer: -server must be fake or kube-apiserver")
		os.Exit(2)
	}
	cfg := config{rounds: *rounds, updates: *updates, mode: *mode, profile: *profile, server: *serverKind, e2eDir: *e2eDir, out: os.Stdout, log: os.Stderr}
	if *quick {
		*objects, *shapes, cfg.rounds, cfg.updates = "1000", "typical", 1, 2000
	}
	var err error
	if cfg.objects, err = parseInts(*objects); err == nil {
		if cfg.shapes, err = parseShapes(*shapes); err == nil {
			cfg.kinds = strings.Split(*kinds, ",")
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "crinformer:", err)
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "crinformer:", err)
		os.Exit(1)
	}
	cfg.spawn = func(args []string) *exec.Cmd { return exec.Command(self, append([]string{"child"}, args...)...) }
	rep, err := run(cfg)
	if err == nil && *jsonOut != "" {
		var b []byte
		if b, err = json.MarshalIndent(rep, "", "  "); err == nil {
			err = os.WriteFile(*jsonOut, append(b, '\n'), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "crinformer:", err)
		os.Exit(1)
	}
}

type config struct {
	objects  []int
	shapes   []crgen.Shape
	kinds    []string
	mode     string
	profile  string
	server   string // "fake" or "kube-apiserver"
	e2eDir   string
	rounds   int
	updates  int
	spawn    func(args []string) *exec.Cmd
	out, log io.Writer
}

var sdks = [2]string{"kubewire", "client-go"}

type scenario struct {
	Objects int    `json:"objects"`
	Shape   string `json:"shape"`
	Kind    string `json:"kind"`
}

func (s scenario) String() string { return fmt.Sprintf("%d %s %s", s.Objects, s.Shape, s.Kind) }

type result struct {
	Sync         syncFigures   `json:"sync"`
	Events       eventsFigures `json:"events"`
	SyncReq      requests      `json:"sync_requests"`
	EventsPerSec float64       `json:"events_per_second"`
}

type report struct {
	Server    string           `json:"server"`
	Machine   string           `json:"machine"`
	Date      string           `json:"date"`
	Rounds    int              `json:"rounds"`
	Mode      string           `json:"mode"`
	Scenarios []scenarioReport `json:"scenarios"`
}

type scenarioReport struct {
	scenario
	JSONBytes float64             `json:"json_bytes_per_object"`
	Figures   []figure            `json:"figures"`
	Runs      map[string][]result `json:"runs"`
}

type figure struct {
	Name     string  `json:"name"`
	Unit     string  `json:"unit"`
	Kubewire float64 `json:"kubewire"`
	ClientGo float64 `json:"client_go"`
	Ratio    float64 `json:"ratio"`
	Goal     string  `json:"goal,omitempty"`
	Met      *bool   `json:"met,omitempty"`
}

func run(cfg config) (*report, error) {
	rep := &report{Server: cfg.server, Machine: machine(), Date: time.Now().Format("2006-01-02"), Rounds: cfg.rounds, Mode: cfg.mode}
	for _, n := range cfg.objects {
		for _, shape := range cfg.shapes {
			var srv *server
			var took time.Duration
			var err error
			if cfg.server == "kube-apiserver" {
				srv, took, err = startAPIServer(n, shape, cfg.e2eDir, cfg.log)
			} else {
				srv, took, err = startServer(n, shape)
			}
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(cfg.log, "server: %d %s Widgets in %v\n", n, shape, took.Round(time.Millisecond))
			stream, m, err := srv.eventStream(context.Background(), n, cfg.updates)
			if err != nil {
				srv.Close()
				return nil, err
			}
			jsonBytes := float64(len(stream)) / float64(m)
			for _, kind := range cfg.kinds {
				sc := scenario{Objects: n, Shape: shape.String(), Kind: kind}
				runs := map[string][]result{}
				for round := range cfg.rounds {
					order := sdks
					if round%2 == 1 {
						order[0], order[1] = order[1], order[0]
					}
					for _, sdk := range order {
						r, err := runChild(cfg, srv, sdk, sc, round, stream, m)
						if err != nil {
							srv.Close()
							return nil, fmt.Errorf("%s, %s, round %d: %w", sc, sdk, round+1, err)
						}
						fmt.Fprintf(cfg.log, "%-22s round %d %-9s sync %6.3fs (cpu %6.3fs) %7.0f B/object %6.1f allocs/object rss %6.1f MiB | %7.0f events/s | %v\n",
							sc, round+1, sdk, r.Sync.Seconds, r.Sync.CPUSeconds, r.Sync.HeapPerObject, r.Sync.AllocsPerObject, mib(r.Sync.PeakRSS), r.EventsPerSec, r.SyncReq)
						runs[sdk] = append(runs[sdk], r)
					}
				}
				rep.Scenarios = append(rep.Scenarios, scenarioReport{scenario: sc, JSONBytes: jsonBytes, Runs: runs,
					Figures: figures(sc, median(runs["kubewire"]), median(runs["client-go"]))})
			}
			srv.Close()
		}
	}
	rep.print(cfg.out)
	return rep, nil
}

// runChild runs one SDK's informer in a child process through sync and
// the events phase, and checks from the server's counts that it synced
// in the mode asked for and took the events from one resumed watch.
func runChild(cfg config, srv *server, sdk string, sc scenario, round int, stream []byte, m int) (result, error) {
	var r result
	args := []string{"-sdk", sdk, "-kind", sc.Kind, "-url", srv.URL(), "-token", srv.Token(), "-mode", cfg.mode, "-objects", strconv.Itoa(sc.Objects)}
	if cfg.profile != "" {
		args = append(args, "-profile", filepath.Join(cfg.profile, fmt.Sprintf("%d-%s-%s-%s-%d", sc.Objects, sc.Shape, sc.Kind, sdk, round+1)))
	}
	cmd := cfg.spawn(args)
	cmd.Env = append(cmd.Environ(), "KUBE_FEATURE_WatchListClient="+strconv.FormatBool(cfg.mode == "watchlist"))
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
	if err := expect("sync", &r.Sync); err != nil {
		return r, err
	}
	r.SyncReq = srv.front.take()
	if r.Sync.Items != sc.Objects {
		return r, fmt.Errorf("handler saw %d adds, want %d", r.Sync.Items, sc.Objects)
	}
	if n := r.SyncReq; cfg.mode == "watchlist" && (n.WatchLists == 0 || n.Lists > 0) || cfg.mode == "list" && (n.Lists == 0 || n.WatchLists > 0) {
		return r, fmt.Errorf("sync in %s mode: server saw %v", cfg.mode, n)
	}
	if _, err := fmt.Fprintf(stdin, "events %d\n", m); err != nil {
		return r, err
	}
	if err := expect("ready", &struct{}{}); err != nil {
		return r, err
	}
	// client-go takes a watch that ends within a second with no event as
	// an error ("very short watch") and relists; let the watch age first.
	time.Sleep(1200 * time.Millisecond)
	srv.front.armReplay(stream)
	srv.dropWatches()
	if err := expect("events", &r.Events); err != nil {
		return r, err
	}
	if r.Events.Events != m {
		return r, fmt.Errorf("handler saw %d updates, want %d", r.Events.Events, m)
	}
	if n := srv.front.take(); n.Lists+n.WatchLists > 0 || n.Replayed != 1 {
		return r, fmt.Errorf("events phase: want one watch resumed without a relist, server saw %v", n)
	}
	r.EventsPerSec = float64(r.Events.Events) / r.Events.Seconds
	return r, nil
}

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
	return result{
		Sync: syncFigures{
			Items:           rs[0].Sync.Items,
			Seconds:         pick(func(r *result) float64 { return r.Sync.Seconds }),
			CPUSeconds:      pick(func(r *result) float64 { return r.Sync.CPUSeconds }),
			HeapPerObject:   pick(func(r *result) float64 { return r.Sync.HeapPerObject }),
			AllocsPerObject: pick(func(r *result) float64 { return r.Sync.AllocsPerObject }),
			BytesPerObject:  pick(func(r *result) float64 { return r.Sync.BytesPerObject }),
			PeakRSS:         uint64(pick(func(r *result) float64 { return float64(r.Sync.PeakRSS) })),
		},
		SyncReq:      rs[0].SyncReq,
		EventsPerSec: pick(func(r *result) float64 { return r.EventsPerSec }),
	}
}

// Goals of the JSON-path issue, kubewire / client-go.
const (
	goalTypedHeap   = 0.6
	goalDynamicHeap = 0.35
	goalAllocs      = 0.3
	goalRSS         = 0.5
	goalSyncTime    = 0.4
	goalEvents      = 3.0
)

func figures(sc scenario, kw, cg result) []figure {
	var fs []figure
	add := func(name, unit string, k, c, goal float64, atLeast bool) {
		f := figure{Name: name, Unit: unit, Kubewire: k, ClientGo: c, Ratio: k / c}
		if goal > 0 {
			met := f.Ratio <= goal
			f.Goal = fmt.Sprintf("<= %.2f", goal)
			if atLeast {
				met = f.Ratio >= goal
				f.Goal = fmt.Sprintf(">= %.1f", goal)
			}
			f.Met = &met
		}
		fs = append(fs, f)
	}
	heapGoal := goalTypedHeap
	if sc.Kind == "dynamic" {
		heapGoal = goalDynamicHeap
	}
	add("sync time", "s", kw.Sync.Seconds, cg.Sync.Seconds, goalSyncTime, false)
	add("CPU time (sync)", "s", kw.Sync.CPUSeconds, cg.Sync.CPUSeconds, 0, false)
	add("heap per cached object", "B", kw.Sync.HeapPerObject, cg.Sync.HeapPerObject, heapGoal, false)
	add("allocs per object (sync)", "", kw.Sync.AllocsPerObject, cg.Sync.AllocsPerObject, goalAllocs, false)
	add("bytes allocated per object (sync)", "B", kw.Sync.BytesPerObject, cg.Sync.BytesPerObject, 0, false)
	add("peak RSS (sync)", "MiB", mib(kw.Sync.PeakRSS), mib(cg.Sync.PeakRSS), goalRSS, false)
	add("JSON watch events/s to a handler", "/s", kw.EventsPerSec, cg.EventsPerSec, goalEvents, true)
	return fs
}

func (rep *report) print(w io.Writer) {
	baseline := map[string]string{"typed": "controller-runtime v0.24 cache", "dynamic": "client-go dynamicinformer"}
	fmt.Fprintf(w, "\nCustom-resource informers, kubewire vs client-go v0.36.3 (typed: controller-runtime v0.24), JSON, %s mode, %s, median of %d rounds; %s\n\n", rep.Mode, serverName[rep.Server], rep.Rounds, rep.Machine)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "objects\tshape\tkind\tfigure\tkubewire\tclient-go\tratio\tgoal\t\t")
	var verdicts []string
	for _, s := range rep.Scenarios {
		for _, f := range s.Figures {
			met := ""
			if f.Met != nil {
				met = map[bool]string{true: "PASS", false: "FAIL"}[*f.Met]
				verdicts = append(verdicts, fmt.Sprintf("%s: %s, %d %s %s CRs (vs %s): %.2f (goal %s)", met, f.Name, s.Objects, s.Shape, s.Kind, baseline[s.Kind], f.Ratio, f.Goal))
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t\n", s.Objects, s.Shape, s.Kind, f.Name, format(f.Kubewire, f.Unit), format(f.ClientGo, f.Unit), f.Ratio, f.Goal, met)
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, v := range verdicts {
		fmt.Fprintln(w, v)
	}
}

var serverName = map[string]string{"fake": "fake API server", "kube-apiserver": "kube-apiserver v1.36.3 with etcd"}

func format(v float64, unit string) string {
	switch unit {
	case "s":
		return fmt.Sprintf("%.3f s", v)
	case "B":
		return fmt.Sprintf("%.0f B", v)
	case "MiB":
		return fmt.Sprintf("%.0f MiB", v)
	case "/s":
		return fmt.Sprintf("%.0f/s", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

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

func parseShapes(s string) ([]crgen.Shape, error) {
	var out []crgen.Shape
	for f := range strings.SplitSeq(s, ",") {
		sh, err := crgen.ParseShape(strings.TrimSpace(f))
		if err != nil {
			return nil, err
		}
		out = append(out, sh)
	}
	return out, nil
}
