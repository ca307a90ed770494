package main

import (
	"io"
	"os"
	"os/exec"
	"testing"

	"github.com/kubewire/kubewire/bench/internal/podgen"
)

// TestMain runs the child when the test binary is re-executed as one.
func TestMain(m *testing.M) {
	if os.Getenv("KUBEWIRE_BENCH_INFORMER_CHILD") == "1" {
		if err := childMain(os.Args[1:], os.Stdin, os.Stdout); err != nil {
			os.Stderr.WriteString("informer child: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestBothSDKsSync runs the whole benchmark on a few Pods: both SDKs, in
// both modes, must cache every Pod, relist and take every event, and the
// server must see each mode's requests (run checks them).
func TestBothSDKsSync(t *testing.T) {
	pods := 3000
	if testing.Short() {
		pods = 500
	}
	cfg := config{
		pods: []int{pods}, shapes: []podgen.Shape{podgen.Small}, modes: []string{"watchlist", "list"},
		rounds: 1, updates: 2 * pods, gzip: true, out: io.Discard, log: io.Discard,
		spawn: func(args []string) *exec.Cmd {
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), "KUBEWIRE_BENCH_INFORMER_CHILD=1")
			return cmd
		},
	}
	if testing.Verbose() {
		cfg.log = os.Stderr
	}
	rep, err := run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Scenarios) != 2 {
		t.Fatalf("got %d scenarios, want 2", len(rep.Scenarios))
	}
	for sc, bySDK := range rep.runs {
		kw, cg := bySDK["kubewire"], bySDK["client-go"]
		if len(kw) != 1 || len(cg) != 1 {
			t.Fatalf("%v: %d kubewire and %d client-go runs, want 1 each", sc, len(kw), len(cg))
		}
		for _, r := range []result{kw[0], cg[0]} {
			if r.Sync.Items != pods {
				t.Errorf("%v: cached %d Pods, want %d", sc, r.Sync.Items, pods)
			}
			if r.Events.Events != 2*pods {
				t.Errorf("%v: handler saw %d events, want %d", sc, r.Events.Events, 2*pods)
			}
		}
		if kw[0].SyncReq.WatchLists != cg[0].SyncReq.WatchLists || (kw[0].SyncReq.Lists == 0) != (cg[0].SyncReq.Lists == 0) {
			t.Errorf("%v: the SDKs synced differently: kubewire %v, client-go %v", sc, kw[0].SyncReq, cg[0].SyncReq)
		}
	}
}
