package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/kwside"
	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/run"
)

var sdks = [2]string{"kubewire", "client-go"}

type scenario struct {
	Objects int    `json:"objects"`
	Shape   string `json:"shape"`
	Kind    string `json:"kind"`
}

func (s scenario) String() string { return fmt.Sprintf("%d %s %s", s.Objects, s.Shape, s.Kind) }

type result struct {
	Sync         run.SyncFigures   `json:"sync"`
	Events       run.EventsFigures `json:"events"`
	SyncReq      requests          `json:"sync_requests"`
	EventsPerSec float64           `json:"events_per_second"`
	// FloorSeconds is, for kubewire's rounds against kube-apiserver, the
	// transfer floor measured just before the round.
	FloorSeconds float64 `json:"floor_seconds,omitempty"`
}

func runAll(cfg config) (*report, error) {
	rep := &report{Server: cfg.server, Machine: machine(), Date: time.Now().Format("2006-01-02"), Rounds: cfg.rounds, Mode: cfg.mode, KwFormat: cfg.kwFormat, CgFormat: cfg.cgFormat}
	for _, n := range cfg.objects {
		for _, shape := range cfg.shapes {
			var srv *server
			var took time.Duration
			var err error
			if cfg.server == "kube-apiserver" {
				srv, took, err = startAPIServer(n, shape, cfg.e2eDir, cfg.kwFormat == "cbor" || cfg.cgFormat == "cbor", cfg.log)
			} else {
				srv, took, err = startServer(n, shape)
			}
			if err != nil {
				return nil, err
			}
			fmt.Fprintf(cfg.log, "server: %d %s objects (%s) in %v\n", n, shape, shape.Kind().Kind, took.Round(time.Millisecond))
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
			jsonBytes := float64(len(stream)) / float64(m)
			accept := "application/json"
			if cfg.kwFormat == "cbor" {
				accept = "application/cbor"
			}
			var streamFloor float64
			if cfg.server == "kube-apiserver" && cfg.mode == "watchlist" {
				d, err := srv.streamFloor(context.Background(), accept)
				if err != nil {
					srv.Close()
					return nil, err
				}
				streamFloor = d.Seconds()
				fmt.Fprintf(cfg.log, "stream floor (one streaming list read to its end bookmark, not decoded, %s): %.3f s\n", accept, streamFloor)
			}
			for _, kind := range cfg.kinds {
				sc := scenario{Objects: n, Shape: shape.String(), Kind: kind}
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
							var trace io.Writer
							if cfg.trace {
								trace = cfg.log
							}
							if floor, err = srv.transferFloor(context.Background(), accept, trace); err != nil {
								srv.Close()
								return nil, err
							}
							fmt.Fprintf(cfg.log, "%-22s round %d transfer floor (one unpaged GET, %s): %.3f s\n", sc, round+1, accept, floor.Seconds())
						}
						r, err := runChild(cfg, srv, sdk, sc, round, stream, m)
						if err != nil {
							srv.Close()
							return nil, fmt.Errorf("%s, %s, round %d: %w", sc, sdk, round+1, err)
						}
						r.FloorSeconds = floor.Seconds()
						fmt.Fprintf(cfg.log, "%-22s round %d %-9s sync %6.3fs (cpu %6.3fs) %7.0f B/object %6.1f allocs/object rss %6.1f MiB | %7.0f events/s (cpu %5.1f us/event) | %v\n",
							sc, round+1, sdk, r.Sync.Seconds, r.Sync.CPUSeconds, r.Sync.HeapPerObject, r.Sync.AllocsPerObject, mib(r.Sync.PeakRSS), r.EventsPerSec, r.Events.CPUSeconds/float64(max(r.Events.Events, 1))*1e6, r.SyncReq)
						runs[sdk] = append(runs[sdk], r)
					}
				}
				kw := median(runs["kubewire"])
				rep.Scenarios = append(rep.Scenarios, scenarioReport{scenario: sc, JSONBytes: jsonBytes, Runs: runs, FloorSeconds: kw.FloorSeconds, StreamFloorSeconds: streamFloor,
					Figures: figures(sc, floorRatio(runs["kubewire"]), streamFloor, eventsLabel(cfg.kwFormat, cfg.cgFormat), kw, median(runs["client-go"]))})
			}
			if cfg.reads {
				if err := measureReads(cfg.log, srv, n, shape.String()); err != nil {
					srv.Close()
					return nil, err
				}
			}
			srv.Close()
		}
	}
	rep.print(cfg.out)
	return rep, nil
}

// sdkMode is how sdk reads its initial list in the run's mode: in
// "default" mode each SDK's own default, kubewire's reflector paginated
// lists and client-go v0.36.3 watch-list (its WatchListClient gate is on
// by default since v1.35).
func sdkMode(mode, sdk string) string {
	if mode != "default" {
		return mode
	}
	if sdk == "kubewire" {
		return "list"
	}
	return "watchlist"
}

// modeName names a run's mode in the report's title.
func modeName(mode string) string {
	if mode == "default" {
		return "default mode (kubewire: " + sdkMode(mode, "kubewire") + ", client-go: " + sdkMode(mode, "client-go") + ")"
	}
	return mode + " mode"
}

// runChild runs one SDK's informer in a child process through sync and
// the events phase, and checks from the server's counts that it synced
// in the mode asked for and took the events from one resumed watch.
func runChild(cfg config, srv *server, sdk string, sc scenario, round int, stream []byte, m int) (result, error) {
	var r result
	format := cfg.kwFormat
	if sdk != "kubewire" {
		format = cfg.cgFormat
	}
	mode := sdkMode(cfg.mode, sdk)
	args := []string{"-sdk", sdk, "-kind", sc.Kind, "-shape", sc.Shape, "-url", srv.URL(), "-token", srv.Token(), "-mode", mode, "-objects", strconv.Itoa(sc.Objects), "-format", format}
	if cfg.profile != "" {
		args = append(args, "-profile", filepath.Join(cfg.profile, fmt.Sprintf("%d-%s-%s-%s-%d", sc.Objects, sc.Shape, sc.Kind, sdk, round+1)))
	}
	cmd := cfg.spawn(sdk, args)
	cmd.Env = append(cmd.Environ(), "KUBE_FEATURE_ClientsAllowCBOR="+strconv.FormatBool(format == "cbor"), "KUBE_FEATURE_ClientsPreferCBOR="+strconv.FormatBool(format == "cbor"))
	if cfg.trace && sdk == "kubewire" {
		cmd.Env = append(cmd.Env, kwside.TraceEnv+"=1")
	}
	if cfg.kwPages && sdk == "kubewire" {
		cmd.Env = append(cmd.Env, kwside.PagesEnv+"=1")
	}
	if cfg.mode != "default" { // else client-go's own default
		cmd.Env = append(cmd.Env, "KUBE_FEATURE_WatchListClient="+strconv.FormatBool(mode == "watchlist"))
	}
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
	if n := r.SyncReq; mode == "watchlist" && (n.WatchLists == 0 || n.Lists > 0) || mode == "list" && (n.Lists == 0 || n.WatchLists > 0) {
		return r, fmt.Errorf("sync in %s mode: server saw %v", mode, n)
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
