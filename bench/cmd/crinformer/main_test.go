package main

import (
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/run"
	"github.com/kubewire/kubewire/bench/internal/crgen"
)

// TestMain runs the child when the test binary is re-executed as one.
func TestMain(m *testing.M) {
	if os.Getenv("KUBEWIRE_BENCH_CRINFORMER_CHILD") == "1" {
		if err := run.Main(os.Args[1:], os.Stdin, os.Stdout, newSubject); err != nil {
			os.Stderr.WriteString("crinformer child: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestBothSDKsSync runs the whole benchmark on a few objects: both SDKs,
// both kinds, must cache every object in the mode asked for and take
// every event from one resumed watch (run checks it).
func TestBothSDKsSync(t *testing.T) {
	for _, mode := range []string{"default", "watchlist", "list"} {
		t.Run(mode, func(t *testing.T) { testBothSDKsSync(t, mode) })
	}
}

func testBothSDKsSync(t *testing.T, mode string) {
	objects, shapes := 1000, crgen.Shapes
	if testing.Short() || mode != "default" {
		objects, shapes = 200, []crgen.Shape{crgen.Typical}
	}
	cfg := config{
		objects: []int{objects}, shapes: shapes, kinds: []string{"typed", "dynamic"}, mode: mode,
		rounds: 1, updates: 2 * objects, out: io.Discard, log: io.Discard,
		spawn: func(_ string, args []string) *exec.Cmd {
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), "KUBEWIRE_BENCH_CRINFORMER_CHILD=1")
			return cmd
		},
	}
	if testing.Verbose() {
		cfg.log = os.Stderr
	}
	rep, err := runAll(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * len(shapes); len(rep.Scenarios) != want {
		t.Fatalf("got %d scenarios, want %d", len(rep.Scenarios), want)
	}
	for _, s := range rep.Scenarios {
		for sdk, runs := range s.Runs {
			if len(runs) != 1 || runs[0].Sync.Items != objects || runs[0].Events.Events != 2*objects {
				t.Errorf("%v %s: %+v", s.scenario, sdk, runs)
			}
		}
	}
}
