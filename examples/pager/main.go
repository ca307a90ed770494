// Command pager lists a large collection page by page with package pager:
// every Pod, 500 at a time, with a progress bar on stderr and a summary of
// what it read (items, pages, time, and Pods per namespace and phase).
// Each Pod is counted as it arrives and then dropped, so the program holds
// about two pages at a time (the one it reads and the one fetched ahead)
// whatever the size of the list.
//
// The pages together are one snapshot: every page is served at the first
// page's resourceVersion, so changes made while the list runs are not in
// it, and a watch started from that resourceVersion would see each of
// them (see examples/quickstart).
//
// A continue token expires (410 Gone) when a list takes longer than about
// five minutes or etcd compacts its snapshot away. The pager then lists
// again from the start, by default in one request without a limit
// (pager.RestartUnpaged, as client-go), and the loop gets an error
// matching pager.ErrRestarted before the new snapshot's items: the counts
// so far are reset, and the loop goes on. -expire-at-page N shows it on
// the fake server.
//
// By default it starts kubewire's in-memory API server (package fake),
// seeds it with 20,000 realistic Pods (about 2.6 KB each in protobuf)
// and keeps changing them while the list runs. With KUBECONFIG set, or
// -kubeconfig given, it lists a real cluster instead (read-only).
//
//	go run ./examples/pager
//	go run ./examples/pager -pods 100000 -page-size 1000
//	go run ./examples/pager -expire-at-page 10
//	go run ./examples/pager -kubeconfig ~/.kube/config -namespace kube-system
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/pager"
)

// config is what the flags say.
type config struct {
	kubeconfig string
	namespace  string // "" for all namespaces
	selector   string // a label selector, "" for none
	pods       int    // seeded in the fake server
	pageSize   int64
	churn      bool // change Pods on the fake server while listing
	expireAt   int  // on the fake server: expire the continue token after this page
	tty        bool // stderr is a terminal: redraw the progress bar in place
}

func main() {
	var cfg config
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	flag.StringVar(&cfg.namespace, "namespace", "", "namespace to list (default: all namespaces)")
	flag.StringVar(&cfg.selector, "selector", "", `label selector, such as "app=checkout,tier!=web"`)
	flag.IntVar(&cfg.pods, "pods", 20_000, "Pods to seed the fake server with")
	flag.Int64Var(&cfg.pageSize, "page-size", 500, "items per page (the limit of each request)")
	flag.BoolVar(&cfg.churn, "churn", true, "change Pods on the fake server while listing")
	flag.IntVar(&cfg.expireAt, "expire-at-page", 0, "on the fake server, answer the list request after this page 410 Gone, as a cluster does when a continue token expired")
	flag.Parse()
	cfg.kubeconfig = *kubeconfig
	if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		cfg.tty = true
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "pager:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config, stdout, stderr io.Writer) error {
	env, err := exampleenv.Connect(exampleenv.Options{Kubeconfig: cfg.kubeconfig, Pods: cfg.pods})
	if err != nil {
		return err
	}
	defer env.Close()
	c, err := client.New(env.Config)
	if err != nil {
		return err
	}
	pods := client.For[*corev1.Pod](c).Namespace(cfg.namespace)

	where := "all namespaces"
	if cfg.namespace != "" {
		where = "namespace " + cfg.namespace
	}
	seeded := ""
	if !env.Real() {
		seeded = fmt.Sprintf(" (%d Pods seeded)", cfg.pods)
	}
	fmt.Fprintf(stdout, "listing Pods in %s of %s%s, %d per page\n", where, env, seeded, cfg.pageSize)

	// Once the first page has arrived, the fake server gets a stream of
	// changes: the later pages are served at the first one's
	// resourceVersion, so none of the changes is in the list.
	churnCtx, stopChurn := context.WithCancel(ctx)
	defer stopChurn()
	var churned int
	var churnErr error
	var wg sync.WaitGroup
	startChurn := func() {
		wg.Go(func() {
			churned, churnErr = env.Churn(churnCtx, exampleenv.ChurnOptions{})
		})
	}

	bar := &progressBar{w: stderr, tty: cfg.tty}
	p, err := pager.New(pods.List, pager.Options{
		PageSize:    cfg.pageSize,
		ListOptions: client.ListOptions{LabelSelector: client.RawSelector(cfg.selector)},
		Progress: func(pr pager.Progress) {
			if pr.Pages == 1 && pr.Restarts == 0 && cfg.churn {
				startChurn()
			}
			if pr.Pages == cfg.expireAt && pr.Restarts == 0 && !env.Real() {
				// The next continue request (perhaps already sent: the pager
				// reads ahead) finds its token expired.
				env.Fake.Faults().Add(fake.Fault{Match: fake.Match{Verbs: []string{"list"}, Resource: "pods"}, Code: 410, Times: 1})
			}
			bar.update(pr)
		},
	})
	if err != nil {
		return err
	}
	start := time.Now()
	byNamespace := map[string]*phaseCounts{}
	for pod, err := range p.Items(ctx) {
		if errors.Is(err, pager.ErrRestarted) {
			// A new snapshot follows, from the first item: start counting again.
			fmt.Fprintf(stdout, "%v\n", err)
			clear(byNamespace)
			continue
		}
		if err != nil {
			return fmt.Errorf("list: %w", err)
		}
		n := byNamespace[pod.Namespace]
		if n == nil {
			n = &phaseCounts{}
			byNamespace[pod.Namespace] = n
		}
		n.add(pod.Status.Phase)
	}
	elapsed := time.Since(start)
	stopChurn()
	wg.Wait()
	if churnErr != nil {
		return churnErr
	}

	snap := p.Snapshot()
	fmt.Fprintf(stdout, "listed %d Pods in %s in %v (%.0f Pods/s) at resourceVersion %s\n",
		snap.Items, plural(snap.Pages, "page"), elapsed.Round(time.Millisecond), float64(snap.Items)/elapsed.Seconds(), snap.ResourceVersion)
	switch {
	case snap.Restarts > 0:
		fmt.Fprintf(stdout, "the list started over %s after its continue token expired; the last one is a snapshot at its own resourceVersion\n", plural(snap.Restarts, "time"))
	case cfg.churn && !env.Real():
		fmt.Fprintf(stdout, "%d changes were made after the first page; the list is one snapshot, so it has none of them\n", churned)
	}
	printTable(stdout, byNamespace)
	return nil
}

// phaseCounts counts the Pods of one namespace by phase.
type phaseCounts struct{ total, running, pending, failed, other int }

func (c *phaseCounts) add(phase corev1.PodPhase) {
	c.total++
	switch phase {
	case corev1.PodRunning:
		c.running++
	case corev1.PodPending:
		c.pending++
	case corev1.PodFailed:
		c.failed++
	default:
		c.other++
	}
}

// printTable writes the counts of the ten namespaces with the most Pods,
// the others summed on one line.
func printTable(w io.Writer, byNamespace map[string]*phaseCounts) {
	names := slices.SortedFunc(maps.Keys(byNamespace), func(a, b string) int {
		return cmp.Or(cmp.Compare(byNamespace[b].total, byNamespace[a].total), strings.Compare(a, b))
	})
	const rows = 10
	if len(names) > rows {
		others := &phaseCounts{}
		for _, n := range names[rows-1:] {
			c := byNamespace[n]
			others.total += c.total
			others.running += c.running
			others.pending += c.pending
			others.failed += c.failed
			others.other += c.other
		}
		label := fmt.Sprintf("(%d others)", len(names)-rows+1)
		names = append(names[:rows-1], label)
		byNamespace[label] = others
	}
	fmt.Fprintf(w, "  %-20s %7s %8s %8s %7s %6s\n", "NAMESPACE", "PODS", "RUNNING", "PENDING", "FAILED", "OTHER")
	for _, n := range names {
		c := byNamespace[n]
		fmt.Fprintf(w, "  %-20s %7d %8d %8d %7d %6d\n", n, c.total, c.running, c.pending, c.failed, c.other)
	}
}

// progressBar draws pager.Progress on a terminal, redrawing one line in
// place; elsewhere (a pipe, a file, a test) it writes a line at every
// quarter of the list, so logs stay short.
type progressBar struct {
	w       io.Writer
	tty     bool
	quarter int // quarters written so far (not a terminal)
}

const barWidth = 30

func (b *progressBar) update(p pager.Progress) {
	if p.Total < 0 { // no count from the server (a list with a selector)
		if b.tty || p.Done {
			fmt.Fprintf(b.w, "\r%d Pods, page %d%s", p.Items, p.Pages, end(p.Done))
		}
		return
	}
	frac := 1.0
	if p.Total > 0 {
		frac = float64(p.Items) / float64(p.Total)
	}
	if !b.tty {
		q := int(frac * 4)
		if q <= b.quarter && !(p.Done && b.quarter < 4) {
			return
		}
		b.quarter = max(q, b.quarter)
		if p.Done {
			b.quarter = 4
		}
	}
	filled := int(frac * barWidth)
	line := fmt.Sprintf("[%s%s] %3.0f%%  %d/%d Pods, page %d",
		strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled), frac*100, p.Items, p.Total, p.Pages)
	if b.tty {
		fmt.Fprintf(b.w, "\r%s%s", line, end(p.Done))
	} else {
		fmt.Fprintln(b.w, line)
	}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func end(done bool) string {
	if done {
		return "\n"
	}
	return ""
}
