// Command operator measures examples/operator, the Widget operator on
// kubewire, beside the same operator on controller-runtime v0.24
// (./croperator, written as a kubebuilder user writes it), in one run:
//
//   - hand-written lines (as examples/operator's TestLineCount counts:
//     neither blank nor only a comment; generated code, deep copies and
//     the fake-server demo left out); target: at most 120 for kubewire;
//   - binary size, as built (go build) and stripped (-ldflags "-s -w"),
//     the kubewire operator as deployed (-tags nodemo: no demo); target:
//     kubewire under a third of controller-runtime's;
//   - modules: those linked into each binary (go version -m), and those
//     `go list -m all` names in a user's module holding each operator
//     after go mod tidy;
//   - peak RSS (VmHWM) of each operator, metrics and logs on, from its
//     start until -widgets Widgets have converged on a fresh kubewire fake
//     API server and /metrics has been scraped once; target: kubewire
//     under 0.6x controller-runtime's;
//   - what metrics cost kubewire: the binary of a small informer program
//     with and without package metrics;
//   - the floor: a program calling what the operator links besides
//     kubewire's own code (link.go), and which code cut from the
//     operator's binary it links again (none may be).
//
// Each round runs both operators, in alternating order, each on a fresh
// server; medians are reported. PASS and FAIL lines compare the figures
// with the targets of issue 28.
//
//	cd bench && go run ./cmd/operator                 # 600 Widgets, 3 rounds, module counts
//	cd bench && go run ./cmd/operator -quick          # 50 Widgets, 1 round, no module counts
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Targets of issue 28.
const (
	maxLines       = 120
	maxBinaryRatio = 1.0 / 3
	maxRSSRatio    = 0.6
)

func main() {
	widgets := flag.Int("widgets", 600, "Widgets each operator converges")
	rounds := flag.Int("rounds", 3, "runs of each operator, alternating; medians are reported")
	modules := flag.Bool("modules", true, "count go list -m all in a user's module of each operator (go mod tidy: needs the module proxy)")
	quick := flag.Bool("quick", false, "smoke test: 50 Widgets, one round, no module counts")
	flag.Parse()
	cfg := config{widgets: *widgets, rounds: *rounds, modules: *modules, out: os.Stdout, log: os.Stderr}
	if *quick {
		cfg.widgets, cfg.rounds, cfg.modules = 50, 1, false
	}
	if _, err := run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "operator:", err)
		os.Exit(1)
	}
}

type config struct {
	widgets, rounds int
	modules         bool
	out, log        io.Writer
}

// figures are one subject's measurements.
type figures struct {
	lines            int
	binary, stripped int64
	linked, listed   int // modules; listed is 0 when not counted
	rss              []uint64
	converge         []time.Duration
	keptOutLinked    []string // keptOut code the binary links, when checked
}

// report is what run measured, for tests.
type report struct {
	kubewire, cr                figures
	withoutMetrics, withMetrics int64    // binary sizes of the small informer program
	floor, floorStripped        int64    // floorProgram's binary: the operator's dependencies alone
	rssWithout, rssWith         []uint64 // its peak RSS

	pass map[string]bool
}

func run(cfg config) (*report, error) {
	w, err := newWorkspace()
	if err != nil {
		return nil, err
	}
	defer w.close()
	subjects := []*subject{w.kubewireSubject(), w.crSubject()}
	figs := make([]figures, len(subjects))
	for i, s := range subjects {
		fmt.Fprintf(cfg.log, "building %s\n", s.name)
		if figs[i], err = w.static(s, cfg.modules); err != nil {
			return nil, err
		}
	}
	r := &report{kubewire: figs[0], cr: figs[1], pass: map[string]bool{}}
	fmt.Fprintln(cfg.log, "building the floor: what the operator links besides kubewire's code")
	if r.floor, r.floorStripped, err = w.floor(); err != nil {
		return nil, err
	}
	fmt.Fprintln(cfg.log, "measuring what metrics cost a small informer program")
	without, with, err := w.metricsCost()
	if err != nil {
		return nil, err
	}
	if r.withoutMetrics, err = fileSize(without); err != nil {
		return nil, err
	}
	if r.withMetrics, err = fileSize(with); err != nil {
		return nil, err
	}
	for round := range cfg.rounds {
		order := []int{0, 1}
		if round%2 == 1 {
			order = []int{1, 0}
		}
		for _, i := range order {
			fmt.Fprintf(cfg.log, "round %d: %s converging %d Widgets\n", round+1, subjects[i].name, cfg.widgets)
			m, err := measure(subjects[i], cfg.widgets)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", subjects[i].name, err)
			}
			f := []*figures{&r.kubewire, &r.cr}[i]
			f.rss = append(f.rss, m.peakRSS)
			f.converge = append(f.converge, m.converged)
		}
		for i, bin := range []string{without, with} {
			rss, err := measureInformer(bin, cfg.widgets)
			if err != nil {
				return nil, fmt.Errorf("metrics cost: %w", err)
			}
			if i == 0 {
				r.rssWithout = append(r.rssWithout, rss)
			} else {
				r.rssWith = append(r.rssWith, rss)
			}
		}
	}
	r.print(cfg)
	return r, nil
}

func (r *report) print(cfg config) {
	k, c := r.kubewire, r.cr
	fmt.Fprintf(cfg.out, "Widget operator, kubewire (examples/operator, -tags nodemo) vs controller-runtime v0.24.1 (bench/cmd/operator/croperator)\n")
	fmt.Fprintf(cfg.out, "%d Widgets on kubewire's fake API server, %d round(s), medians; metrics and logs on in both\n\n", cfg.widgets, cfg.rounds)
	tw := tabwriter.NewWriter(cfg.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tkubewire\tcontroller-runtime\tratio\t")
	fmt.Fprintf(tw, "hand-written lines\t%d\t%d\t%.2f\t\n", k.lines, c.lines, float64(k.lines)/float64(c.lines))
	fmt.Fprintf(tw, "binary (go build)\t%s\t%s\t%.3f\t\n", mb(k.binary), mb(c.binary), float64(k.binary)/float64(c.binary))
	fmt.Fprintf(tw, "binary (-s -w)\t%s\t%s\t%.3f\t\n", mb(k.stripped), mb(c.stripped), float64(k.stripped)/float64(c.stripped))
	fmt.Fprintf(tw, "modules linked\t%d\t%d\t\t\n", k.linked, c.linked)
	if k.listed > 0 {
		fmt.Fprintf(tw, "modules (go list -m all, user module)\t%d\t%d\t\t\n", k.listed, c.listed)
	}
	kr, cr := median(k.rss), median(c.rss)
	fmt.Fprintf(tw, "peak RSS\t%s\t%s\t%.3f\t\n", mb(int64(kr)), mb(int64(cr)), float64(kr)/float64(cr))
	fmt.Fprintf(tw, "converged in\t%v\t%v\t\t\n", medianDur(k.converge).Round(time.Millisecond), medianDur(c.converge).Round(time.Millisecond))
	tw.Flush()
	fmt.Fprintf(cfg.out, "\nall rounds: kubewire peak RSS %s; controller-runtime %s\n", mbs(k.rss), mbs(c.rss))
	fmt.Fprintf(cfg.out, "what metrics cost (a program caching -widgets ConfigMaps and serving HTTP, /metrics scraped once):\n")
	fmt.Fprintf(cfg.out, "  binary %s without package metrics, %s with (+%s); peak RSS %s without, %s with (+%s)\n\n",
		mb(r.withoutMetrics), mb(r.withMetrics), mb(r.withMetrics-r.withoutMetrics),
		mb(int64(median(r.rssWithout))), mb(int64(median(r.rssWith))), mb(int64(median(r.rssWith))-int64(median(r.rssWithout))))
	fmt.Fprintf(cfg.out, "the floor: the operator's dependencies alone (standard library, client_golang, protobuf, YAML and the small libraries, called as kubewire calls them; no kubewire code):\n")
	fmt.Fprintf(cfg.out, "  binary %s (%.3f of controller-runtime's), stripped %s (%.3f); kubewire's own code adds %s (%s stripped)\n\n",
		mb(r.floor), float64(r.floor)/float64(c.binary), mb(r.floorStripped), float64(r.floorStripped)/float64(c.stripped),
		mb(k.binary-r.floor), mb(k.stripped-r.floorStripped))
	r.check(cfg.out, "lines", k.lines <= maxLines, fmt.Sprintf("kubewire operator %d hand-written lines, target at most %d", k.lines, maxLines))
	binRatio := float64(k.binary) / float64(c.binary)
	r.check(cfg.out, "binary", binRatio < maxBinaryRatio, fmt.Sprintf("binary %.3f of controller-runtime's (%s vs %s), target under %.3f", binRatio, mb(k.binary), mb(c.binary), maxBinaryRatio))
	linkVerdict := "kubewire operator links none of the code cut from it (keptOut in bench/cmd/operator/link.go)"
	if len(k.keptOutLinked) > 0 {
		linkVerdict = fmt.Sprintf("kubewire operator links code cut from it: %s", strings.Join(k.keptOutLinked, "; "))
	}
	r.check(cfg.out, "link", len(k.keptOutLinked) == 0, linkVerdict)
	rssRatio := float64(kr) / float64(cr)
	r.check(cfg.out, "rss", rssRatio < maxRSSRatio, fmt.Sprintf("peak RSS %.3f of controller-runtime's (%s vs %s), target under %.2f", rssRatio, mb(int64(kr)), mb(int64(cr)), maxRSSRatio))
}

func (r *report) check(out io.Writer, name string, ok bool, what string) {
	r.pass[name] = ok
	verdict := "FAIL"
	if ok {
		verdict = "PASS"
	}
	fmt.Fprintf(out, "%s: %s\n", verdict, what)
}

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/1e6) }

func mbs(v []uint64) string {
	s := ""
	for i, b := range v {
		if i > 0 {
			s += ", "
		}
		s += mb(int64(b))
	}
	return s
}

func median(v []uint64) uint64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianDur(v []time.Duration) time.Duration {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}
