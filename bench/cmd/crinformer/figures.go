package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubewire/kubewire/bench/cmd/crinformer/internal/run"
)

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
		Sync: run.SyncFigures{
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
		FloorSeconds: pick(func(r *result) float64 { return r.FloorSeconds }),
	}
}

// floorSync is the sync time over the transfer floor of kubewire's runs:
// the median of each round's ratio to the floor measured beside it (the
// floor drifts with the machine's load as the sync does), and nil without
// floors (the fake server).
type floorSync struct {
	sync, floor, ratio float64
}

func floorRatio(rs []result) *floorSync {
	var ratios []float64
	for _, r := range rs {
		if r.FloorSeconds > 0 {
			ratios = append(ratios, r.Sync.Seconds/r.FloorSeconds)
		}
	}
	if len(ratios) == 0 {
		return nil
	}
	m := median(rs)
	slices.Sort(ratios)
	ratio := ratios[len(ratios)/2]
	if len(ratios)%2 == 0 {
		ratio = (ratios[len(ratios)/2-1] + ratio) / 2
	}
	return &floorSync{sync: m.Sync.Seconds, floor: m.FloorSeconds, ratio: ratio}
}

// Goals of the JSON-path issue, kubewire / client-go; the typed heap's
// is issue 31's (0.6 before it), which wants every goal on every shape.
const (
	goalTypedHeap   = 0.5
	goalDynamicHeap = 0.35
	goalAllocs      = 0.3
	goalRSS         = 0.5
	goalSyncTime    = 0.4
	goalFloor       = 1.5 // sync time over the transfer floor, kube-apiserver
	goalEvents      = 3.0
)

// eventsLabel names the watch-events row by the formats the two sides
// read: "JSON watch events/s to a handler", or when they differ
// "CBOR watch events/s to a handler (client-go: JSON)".
func eventsLabel(kwFormat, cgFormat string) string {
	label := strings.ToUpper(kwFormat) + " watch events/s to a handler"
	if cgFormat != kwFormat {
		label += " (client-go: " + strings.ToUpper(cgFormat) + ")"
	}
	return label
}

// figures are the rows of a scenario. With a transfer floor (against
// kube-apiserver), the sync-time goal is issue 31's: at most 0.4 of
// client-go's time, or at most 1.5 times the floor, whichever the server
// allows; both figures are printed.
func figures(sc scenario, floor *floorSync, streamFloor float64, events string, kw, cg result) []figure {
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
	if floor != nil {
		// Kubewire and ClientGo are the medians of the syncs and of the
		// floors; Ratio is the median of the rounds' ratios.
		f := figure{Name: "sync time / transfer floor", Unit: "s", Kubewire: floor.sync, ClientGo: floor.floor, Ratio: floor.ratio,
			Goal: fmt.Sprintf("<= %.1f", goalFloor)}
		met := f.Ratio <= goalFloor
		f.Met = &met
		// Either goal holds the sync-time target.
		if sync := &fs[len(fs)-1]; !*sync.Met && met {
			*sync.Met = true
			sync.Goal += fmt.Sprintf(" (or the floor's %.1fx: met)", goalFloor)
		}
		fs = append(fs, f)
	}
	if streamFloor > 0 && floor != nil {
		// No goal: what the server's streaming list alone takes, beside
		// the transfer floor, says how much of the sync is the server's.
		fs = append(fs, figure{Name: "sync time / stream floor (no decode)", Unit: "s", Kubewire: kw.Sync.Seconds, ClientGo: streamFloor, Ratio: kw.Sync.Seconds / streamFloor},
			figure{Name: "stream floor / transfer floor", Unit: "s", Kubewire: streamFloor, ClientGo: floor.floor, Ratio: streamFloor / floor.floor})
	}
	add("CPU time (sync)", "s", kw.Sync.CPUSeconds, cg.Sync.CPUSeconds, 0, false)
	add("heap per cached object", "B", kw.Sync.HeapPerObject, cg.Sync.HeapPerObject, heapGoal, false)
	add("allocs per object (sync)", "", kw.Sync.AllocsPerObject, cg.Sync.AllocsPerObject, goalAllocs, false)
	add("bytes allocated per object (sync)", "B", kw.Sync.BytesPerObject, cg.Sync.BytesPerObject, 0, false)
	add("peak RSS (sync)", "MiB", mib(kw.Sync.PeakRSS), mib(cg.Sync.PeakRSS), goalRSS, false)
	add(events, "/s", kw.EventsPerSec, cg.EventsPerSec, goalEvents, true)
	return fs
}
