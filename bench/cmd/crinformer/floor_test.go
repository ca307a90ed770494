package main

import (
	"testing"

	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/run"
)

func syncRun(sync, floor float64) result {
	return result{Sync: run.SyncFigures{Seconds: sync}, FloorSeconds: floor}
}

// The floor row compares each round with the floor measured beside it:
// a server that slowed down for one round moves its floor as much as its
// sync, and the median of the rounds' ratios does not see the drift.
func TestFloorRatioPerRound(t *testing.T) {
	rs := []result{syncRun(1.2, 1.0), syncRun(2.4, 2.0), syncRun(0.6, 0.5)}
	f := floorRatio(rs)
	if f == nil || f.ratio < 1.19 || f.ratio > 1.21 || f.sync != 1.2 || f.floor != 1.0 {
		t.Fatalf("floorRatio = %+v, want ratio 1.2, sync 1.2, floor 1.0", f)
	}
	figs := figures(scenario{Kind: "dynamic"}, f, 0, "events", median(rs), median([]result{syncRun(10, 0)}))
	var got *figure
	for i := range figs {
		if figs[i].Name == "sync time / transfer floor" {
			got = &figs[i]
		}
	}
	if got == nil || got.Met == nil || !*got.Met || got.Goal != "<= 1.5" {
		t.Fatalf("floor row = %+v, want met against <= 1.5", got)
	}
	// Even counts take the mean of the middle two; a miss stays a miss.
	rs = []result{syncRun(2, 1), syncRun(1.6, 1), syncRun(1, 1), syncRun(3, 1)}
	f = floorRatio(rs)
	if f.ratio != 1.8 {
		t.Fatalf("ratio of 4 rounds = %v, want 1.8", f.ratio)
	}
	figs = figures(scenario{Kind: "dynamic"}, f, 0, "events", median(rs), median([]result{syncRun(2, 0)}))
	for _, fg := range figs {
		if fg.Name == "sync time / transfer floor" && (fg.Met == nil || *fg.Met) {
			t.Fatalf("floor row %+v: 1.8 must miss 1.5", fg)
		}
	}
	if floorRatio([]result{syncRun(1, 0)}) != nil {
		t.Fatal("runs without floors (the fake server) must have no floor row")
	}
}
