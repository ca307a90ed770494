package main

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
)

// result is one run of one configuration.
type result struct {
	Name     string    `json:"name"`
	Replicas int       `json:"replicas"`
	Mode     string    `json:"mode"`   // sharded or leader
	Cached   []int     `json:"cached"` // Pods in each replica's cache
	HeapMB   []float64 `json:"heap_mb"`
	// HeapShare is each replica's heap over the one-replica baseline's
	// of the same round.
	HeapShare  []float64 `json:"heap_share"`
	PerSecond  float64   `json:"reconciles_per_second"`
	Speedup    float64   `json:"speedup"` // over the one-replica baseline of the same round
	Settled    float64   `json:"settled_seconds"`
	Filtering  string    `json:"filtering"`
	Reconciled int       `json:"reconciled"` // Pods reconciled in the wave
}

// summary is the medians of one configuration's runs.
type summary struct {
	Name     string `json:"name"`
	Replicas int    `json:"replicas"`
	Mode     string `json:"mode"`
	// Cached and HeapMB are per replica, largest first: the median of the
	// largest replicas, of the second largest, and so on.
	Cached       []float64 `json:"cached"`
	HeapMB       []float64 `json:"heap_mb"`
	LargestShare float64   `json:"largest_heap_share"` // median of each run's largest HeapShare
	PerSecond    float64   `json:"reconciles_per_second"`
	Speedup      float64   `json:"speedup"`
	Settled      float64   `json:"settled_seconds"`
	Filtering    string    `json:"filtering"`
	Runs         []result  `json:"runs"`
}

type report struct {
	Objects int       `json:"objects"`
	Shape   string    `json:"shape"`
	Work    string    `json:"work"`
	Workers int       `json:"workers"`
	Server  string    `json:"server"`
	Machine string    `json:"machine"`
	Date    string    `json:"date"`
	Rounds  int       `json:"rounds"`
	Results []summary `json:"results"`
	Checks  []string  `json:"checks"`
	Passed  bool      `json:"passed"`
}

func summarize(runs []result) summary {
	s := summary{Name: runs[0].Name, Replicas: runs[0].Replicas, Mode: runs[0].Mode, Filtering: runs[0].Filtering, Runs: runs}
	pick := func(f func(r *result) float64) float64 {
		v := make([]float64, len(runs))
		for i := range runs {
			v[i] = f(&runs[i])
		}
		return median(v)
	}
	s.PerSecond = pick(func(r *result) float64 { return r.PerSecond })
	s.Speedup = pick(func(r *result) float64 { return r.Speedup })
	s.Settled = pick(func(r *result) float64 { return r.Settled })
	s.LargestShare = pick(func(r *result) float64 { return slices.Max(r.HeapShare) })
	for i := range s.Replicas {
		s.Cached = append(s.Cached, pick(func(r *result) float64 { return float64(nthLargest(r.Cached, i)) }))
		s.HeapMB = append(s.HeapMB, pick(func(r *result) float64 { return nthLargest(r.HeapMB, i) }))
	}
	return s
}

func nthLargest[T int | float64](v []T, i int) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)-1-i]
}

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v)%2 == 0 {
		return (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return v[len(v)/2]
}

// print writes the table and the checks of the targets.
func (rep *report) print(w io.Writer) {
	fmt.Fprintf(w, "\n%d %s Pods, Reconcile = cache read + %s wait, %d workers per replica; server: %s\n", rep.Objects, rep.Shape, rep.Work, rep.Workers, rep.Server)
	fmt.Fprintf(w, "median of %d rounds (configurations in alternating order); %s\n\n", rep.Rounds, rep.Machine)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\tPods cached per replica\theap per replica (MB)\tlargest share of one replica's heap\ttarget\treconciles/s\tx one replica\ttarget\tfiltering\t")
	for _, r := range rep.Results {
		memTarget, tputTarget := "-", "-"
		if r.Mode == "sharded" && r.Replicas > 1 {
			memTarget = fmt.Sprintf("<= %.3f", 1.1/float64(r.Replicas))
			tputTarget = fmt.Sprintf(">= %.1f", 0.8*float64(r.Replicas))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%s\t%.0f\t%.2f\t%s\t%s\t\n", r.Name, joinFloats(r.Cached, 0), joinFloats(r.HeapMB, 1), r.LargestShare, memTarget, r.PerSecond, r.Speedup, tputTarget, r.Filtering)
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, r := range rep.Results {
		if r.Mode != "sharded" || r.Replicas < 2 {
			continue
		}
		target := 1.1 / float64(r.Replicas)
		rep.check(w, r.LargestShare <= target, fmt.Sprintf("memory, %d replicas: the largest replica holds %.3f of one replica's heap (target <= %.3f = 1.1/%d)", r.Replicas, r.LargestShare, target, r.Replicas))
		rep.check(w, r.Speedup >= 0.8*float64(r.Replicas), fmt.Sprintf("throughput, %d replicas: %.2fx one replica's reconciles/s (target >= %.1fx = 0.8*%d)", r.Replicas, r.Speedup, 0.8*float64(r.Replicas), r.Replicas))
	}
}

func (rep *report) check(w io.Writer, ok bool, what string) {
	verdict := "PASS"
	if !ok {
		verdict, rep.Passed = "FAIL", false
	}
	line := verdict + " " + what
	rep.Checks = append(rep.Checks, line)
	fmt.Fprintln(w, line)
}
