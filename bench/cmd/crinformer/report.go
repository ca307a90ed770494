package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"text/tabwriter"
)

type report struct {
	Server    string           `json:"server"`
	Machine   string           `json:"machine"`
	Date      string           `json:"date"`
	Rounds    int              `json:"rounds"`
	Mode      string           `json:"mode"`
	KwFormat  string           `json:"kubewire_format"`
	CgFormat  string           `json:"client_go_format"`
	Scenarios []scenarioReport `json:"scenarios"`
}

type scenarioReport struct {
	scenario
	JSONBytes float64 `json:"json_bytes_per_object"`
	// FloorSeconds is the transfer floor against kube-apiserver: one
	// unpaged GET of the whole list (0 on the fake), the median of those
	// measured beside kubewire's rounds.
	FloorSeconds float64 `json:"floor_seconds,omitempty"`
	// StreamFloorSeconds is, in watchlist mode against kube-apiserver,
	// one streaming list read to its end bookmark without decoding.
	StreamFloorSeconds float64             `json:"stream_floor_seconds,omitempty"`
	Figures            []figure            `json:"figures"`
	Runs               map[string][]result `json:"runs"`
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

func (rep *report) print(w io.Writer) {
	baseline := map[string]string{"typed": "controller-runtime v0.24 cache", "dynamic": "client-go dynamicinformer"}
	fmt.Fprintf(w, "\nCustom-resource informers, kubewire (%s) vs client-go v0.36.3 (typed: controller-runtime v0.24; %s), %s, %s, median of %d rounds; %s\n\n", rep.KwFormat, rep.CgFormat, modeName(rep.Mode), serverName[rep.Server], rep.Rounds, rep.Machine)
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
