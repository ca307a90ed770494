package main

import (
	"io"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/kubewire/kubewire/bench/internal/podgen"
)

// TestMain runs the child when the test binary is re-executed as one.
func TestMain(m *testing.M) {
	if os.Getenv("KUBEWIRE_BENCH_SHARDING_CHILD") == "1" {
		if err := childMain(os.Args[1:], os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString("sharding child: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestBench runs the benchmark on a few Pods (two rounds, so both
// orders, unless -short): every configuration must settle with every Pod
// cached by exactly one sharded replica (by each leader-elected one) and
// reconciled once in the wave. The targets are not checked here: timings
// on a loaded machine say little.
func TestBench(t *testing.T) {
	objects, rounds := 2000, 2
	if testing.Short() {
		objects, rounds = 400, 1
	}
	cfg := config{
		objects: objects, shape: podgen.Small, replicas: []int{1, 2}, leader: 2, work: time.Millisecond, workers: 4, rounds: rounds,
		out: io.Discard, log: io.Discard,
		spawn: func(args []string) *exec.Cmd {
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), "KUBEWIRE_BENCH_SHARDING_CHILD=1")
			return cmd
		},
	}
	if testing.Verbose() {
		cfg.out, cfg.log = os.Stdout, os.Stderr
	}
	rep, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 3 || len(rep.Checks) != 2 {
		t.Fatalf("%d results and %d checks, want 3 and 2", len(rep.Results), len(rep.Checks))
	}
	for _, s := range rep.Results {
		if len(s.Runs) != rounds || len(s.HeapMB) != s.Replicas {
			t.Errorf("%s: %d runs, %d heaps; want %d and %d", s.Name, len(s.Runs), len(s.HeapMB), rounds, s.Replicas)
		}
		for _, r := range s.Runs {
			sum := 0
			for _, c := range r.Cached {
				sum += c
			}
			want := objects
			if r.Mode == "leader" {
				want *= r.Replicas
			}
			if sum != want || r.Reconciled != objects || (r.Mode == "sharded" && r.Filtering != "on the server") {
				t.Errorf("%s: cached %v (want %d in all), reconciled %d, filtering %s", r.Name, r.Cached, want, r.Reconciled, r.Filtering)
			}
		}
	}
}

// TestHeal runs -heal on a few Pods: a killed replica's work must be
// taken over, sharded and leader-elected, with a report of both. The
// targets are not checked here.
func TestHeal(t *testing.T) {
	cfg := config{
		objects: 400, shape: podgen.Small, work: time.Millisecond, workers: 4, rounds: 1,
		out: io.Discard, log: io.Discard,
		spawn: func(args []string) *exec.Cmd {
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), "KUBEWIRE_BENCH_SHARDING_CHILD=1")
			return cmd
		},
	}
	if testing.Verbose() {
		cfg.out, cfg.log = os.Stdout, os.Stderr
	}
	rep, err := healMain(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2 || len(rep.Checks) != 2 {
		t.Fatalf("%d runs and %d checks, want 2 and 2", len(rep.Runs), len(rep.Checks))
	}
	for _, r := range rep.Runs {
		switch {
		case r.Mode == "sharded" && (r.Pods == 0 || r.Pods >= cfg.objects):
			t.Errorf("sharded: the survivors took %d Pods over, want the dead replica's part of %d", r.Pods, cfg.objects)
		case r.Mode == "leader" && r.Pods != cfg.objects:
			t.Errorf("leader-elected: the new leader reconciled %d Pods, want all %d", r.Pods, cfg.objects)
		}
		// The Lease runs from the last renewal the others saw, at most a
		// retry period before the kill.
		if r.Seconds < (childLease - childRetry).Seconds() {
			t.Errorf("%s: taken over %.2fs after the kill, before the Lease could expire", r.Mode, r.Seconds)
		}
	}
}
