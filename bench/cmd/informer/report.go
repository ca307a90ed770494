package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
)

// heapGoal is the goal for heap per cached Pod: the benchmark issue's
// against the fake, issue 31's against kube-apiserver (whose kubelet-like
// status writes give every Pod a managedFields entry of its own).
func heapGoal(server string) float64 {
	if server == "kube-apiserver" {
		return 0.5
	}
	return 0.6
}

// figures turns the medians into table rows.
func figures(sc scenario, server string, kw, cg result) []figure {
	var fs []figure
	lower := func(name, unit string, k, c float64, goal float64) {
		f := figure{Name: name, Unit: unit, Kubewire: k, ClientGo: c, Ratio: k / c}
		if goal > 0 {
			met := f.Ratio <= goal
			f.Goal, f.Met = fmt.Sprintf("≤ %.1f", goal), &met
		}
		fs = append(fs, f)
	}
	absolute := func(name string, k, c float64, goal float64) {
		met := k <= goal
		fs = append(fs, figure{Name: name, Unit: "x", Kubewire: k, ClientGo: c, Ratio: k / c,
			Goal: fmt.Sprintf("≤ %.1f (kubewire)", goal), Met: &met, Absolute: true})
	}
	syncGoal := 0.0
	if sc.Pods >= 50_000 {
		syncGoal = 0.8
	}
	lower("sync time", "s", kw.Sync.Seconds, cg.Sync.Seconds, syncGoal)
	if kw.FloorSeconds > 0 {
		// No goal: how far the sync is from the server's own answer.
		fs = append(fs, figure{Name: "sync time / transfer floor", Unit: "s", Kubewire: kw.Sync.Seconds, ClientGo: kw.FloorSeconds, Ratio: kw.SyncOverFloor})
	}
	lower("CPU time (sync)", "s", kw.Sync.CPUSeconds, cg.Sync.CPUSeconds, 0)
	lower("heap per cached Pod", "B", kw.Sync.HeapPerPod, cg.Sync.HeapPerPod, heapGoal(server))
	lower("allocs per Pod (sync)", "", kw.Sync.AllocsPerPod, cg.Sync.AllocsPerPod, 0.5)
	lower("bytes allocated per Pod (sync)", "B", kw.Sync.BytesPerPod, cg.Sync.BytesPerPod, 0)
	lower("peak RSS (sync)", "MiB", mib(kw.Sync.PeakRSS), mib(cg.Sync.PeakRSS), 0.7)
	absolute("peak/steady live heap (sync)", kw.SyncLive, cg.SyncLive, 1.2)
	absolute("peak/steady live heap (relist)", kw.RelistLive, cg.RelistLive, 1.2)
	lower("peak heap incl. garbage / steady (relist)", "x", kw.RelistHeap, cg.RelistHeap, 0)
	lower("peak RSS (relist)", "MiB", mib(kw.Relist.PeakRSS), mib(cg.Relist.PeakRSS), 0.7)
	ke, ce := kw.EventsPerSec, cg.EventsPerSec
	met := ke/ce >= 1.5
	fs = append(fs, figure{Name: "watch events/s to a handler", Unit: "/s", Kubewire: ke, ClientGo: ce, Ratio: ke / ce, Goal: "≥ 1.5", Met: &met})
	return fs
}

func ratio(a, b uint64) float64 { return float64(a) / float64(b) }

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

func (rep *report) print(w io.Writer) {
	server := "the fake API server"
	if rep.Server == "kube-apiserver" {
		server = "kube-apiserver v1.36.3 with etcd"
	}
	fmt.Fprintf(w, "\nInformer, kubewire vs client-go v0.36.3, protobuf, from %s, median of %d rounds; %s\n\n", server, rep.Rounds, rep.Machine)
	tw := newTable(w)
	tw.row("pods", "shape", "mode", "figure", "kubewire", "client-go", "ratio", "goal", "")
	var verdicts []string
	for _, s := range rep.Scenarios {
		for _, f := range s.Figures {
			met := ""
			if f.Met != nil {
				met = map[bool]string{true: "met", false: "MISSED"}[*f.Met]
				v := f.Ratio
				if f.Absolute {
					v = f.Kubewire
				}
				verdicts = append(verdicts, fmt.Sprintf("%s: %s, %d %s Pods, %s, %s: %.2f (goal %s)",
					map[bool]string{true: "PASS", false: "FAIL"}[*f.Met], f.Name, s.Pods, s.Shape, s.Mode, server, v, f.Goal))
			}
			tw.row(strconv.Itoa(s.Pods), s.Shape, s.Mode, f.Name, format(f.Kubewire, f.Unit), format(f.ClientGo, f.Unit), fmt.Sprintf("%.2f", f.Ratio), f.Goal, met)
		}
	}
	tw.flush()
	fmt.Fprintln(w)
	for _, v := range verdicts {
		fmt.Fprintln(w, v)
	}
}

func format(v float64, unit string) string {
	switch unit {
	case "s":
		return fmt.Sprintf("%.3f s", v)
	case "B":
		return fmt.Sprintf("%.0f B", v)
	case "MiB":
		return fmt.Sprintf("%.0f MiB", v)
	case "x":
		return fmt.Sprintf("%.2fx", v)
	case "/s":
		return fmt.Sprintf("%.0f/s", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func (rep *report) writeJSON(path string) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
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

// table writes right-aligned columns.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer) table {
	return table{tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)}
}

func (t table) row(cells ...string) { fmt.Fprintln(t.tw, strings.Join(cells, "\t")+"\t") }

func (t table) flush() { _ = t.tw.Flush() }
