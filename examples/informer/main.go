// Command informer keeps a local cache of every Pod with package
// informer and reads it the ways a controller does, without a request to
// the server:
//
//   - an event handler prints the changes as they arrive (the first few
//     of each period; the rest are counted); it is told whether an add
//     belongs to the initial list, the old and new state of an update,
//     and whether a delete's final state is unknown, instead of getting
//     tombstones;
//   - the cache has the built-in namespace index and two of its own:
//     Pods by node (spec.nodeName) and by owner (the controller in
//     ownerReferences, such as a ReplicaSet);
//   - every few seconds it answers queries from those indexes (Pods per
//     namespace, per node, the largest owner) and, through the Lister,
//     the Pods of one namespace that match a label selector.
//
// By default it starts kubewire's in-memory API server (package fake),
// seeds it with 5,000 realistic Pods and keeps changing them as a busy
// cluster does: Deployments roll (a Pod is deleted, another created) and
// readiness flaps. With KUBECONFIG set, or -kubeconfig given, it caches a
// real cluster's Pods instead (read-only). It runs until interrupted, or
// for -duration.
//
//	go run ./examples/informer
//	go run ./examples/informer -pods 50000 -every 5s
//	go run ./examples/informer -kubeconfig ~/.kube/config -query-namespace kube-system -selector k8s-app=kube-dns
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	"github.com/kubewire/kubewire/informer"
)

// config is what the flags say.
type config struct {
	kubeconfig     string
	namespace      string        // cache this namespace only; "" for all
	pods           int           // seeded in the fake server
	churn          time.Duration // time between two rounds of changes on the fake server; 0 for none
	every          time.Duration // time between two reports
	show           int           // changes printed per report; the others are counted
	duration       time.Duration // 0: until interrupted
	queryNamespace string        // the namespace and label selector of the Lister query
	selector       string
}

func main() {
	var cfg config
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	flag.StringVar(&cfg.namespace, "namespace", "", "cache the Pods of this namespace only (default: all namespaces)")
	flag.IntVar(&cfg.pods, "pods", 5000, "Pods to seed the fake server with")
	flag.DurationVar(&cfg.churn, "churn", 50*time.Millisecond, "time between two rounds of changes on the fake server (0: no changes)")
	flag.DurationVar(&cfg.every, "every", 2*time.Second, "time between two reports")
	flag.IntVar(&cfg.show, "show", 4, "changes printed in each report; the others are counted")
	flag.DurationVar(&cfg.duration, "duration", 0, "stop after this long (default: run until interrupted)")
	flag.StringVar(&cfg.queryNamespace, "query-namespace", "shop", "namespace of the Lister query")
	flag.StringVar(&cfg.selector, "selector", "app=checkout", "label selector of the Lister query")
	flag.Parse()
	cfg.kubeconfig = *kubeconfig

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "informer:", err)
		os.Exit(1)
	}
}

// The cache's own indexes, beside informer.NamespaceIndex.
const (
	byNode  = "node"
	byOwner = "owner"
)

// indexes are the index functions of the cache. Each returns the values
// a Pod is filed under: none (a Pod not yet scheduled, or without an
// owner), or one.
var indexes = map[string]informer.IndexFunc[*corev1.Pod]{
	byNode: func(p *corev1.Pod) []string {
		if p.Spec.NodeName == "" {
			return nil
		}
		return []string{p.Spec.NodeName}
	},
	byOwner: func(p *corev1.Pod) []string {
		for _, o := range p.OwnerReferences {
			if o.Controller != nil && *o.Controller {
				return []string{o.Kind + " " + p.Namespace + "/" + o.Name}
			}
		}
		return nil
	},
}

func run(ctx context.Context, cfg config, stdout io.Writer) error {
	sel := client.RawSelector(cfg.selector)
	env, err := exampleenv.Connect(exampleenv.Options{Kubeconfig: cfg.kubeconfig, Pods: cfg.pods})
	if err != nil {
		return err
	}
	defer env.Close()
	c, err := client.New(env.Config)
	if err != nil {
		return err
	}

	where := "all namespaces"
	if cfg.namespace != "" {
		where = "namespace " + cfg.namespace
	}
	seeded := ""
	if !env.Real() {
		seeded = fmt.Sprintf(" (%d Pods seeded", cfg.pods)
		if cfg.churn > 0 {
			seeded += ", changing every " + cfg.churn.String()
		}
		seeded += ")"
	}
	out := &printer{w: stdout, show: cfg.show}
	out.printf("informer: Pods in %s of %s%s\n", where, env, seeded)

	// The informer lists (or stream-lists) the Pods, then watches them,
	// keeping the cache and its indexes in step.
	pods, err := informer.New(client.For[*corev1.Pod](c).Namespace(cfg.namespace), informer.Options[*corev1.Pod]{
		Indexes: indexes,
	})
	if err != nil {
		return err
	}
	if _, err := pods.Lister().List(sel); err != nil { // parses the selector, on the empty cache
		return fmt.Errorf("-selector: %w", err)
	}
	// The handler runs on its own goroutine, one call at a time, in the
	// order the cache changed. The Pods it gets are the cache's: read,
	// never modify.
	reg := pods.AddHandler(informer.HandlerFuncs[*corev1.Pod]{
		Add: func(p *corev1.Pod, initial bool) {
			if initial {
				out.initial()
				return
			}
			out.change("ADDED", p, describe(p))
		},
		Update: func(old, p *corev1.Pod) {
			out.change("UPDATED", p, difference(old, p))
		},
		Delete: func(p *corev1.Pod, stateUnknown bool) {
			what := describe(p)
			if stateUnknown {
				// Found by a relist: the watch was down when it went.
				what = "last seen " + what + "; its final state is unknown"
			}
			out.change("DELETED", p, what)
		},
	}, informer.HandlerOptions{})

	// Run returns when ctx ends, after every goroutine it started has.
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	g, runCtx := errgroup.WithContext(runCtx)
	start := time.Now()
	g.Go(func() error { return ended(pods.Run(runCtx)) })
	// The cache's first state, and the handler's adds of it.
	if err := reg.WaitForSync(runCtx); err != nil {
		stopRun()
		return cmp.Or(g.Wait(), ctx.Err(), err)
	}
	out.printf("synced %d Pods in %v at resourceVersion %s; the handler got %d adds marked initial\n",
		pods.Store().Len(), time.Since(start).Round(time.Millisecond), pods.Store().ResourceVersion(), out.initials())
	out.printf("indexes: %s (built in), %s, %s; a report every %v, the first %d changes of each shown\n",
		informer.NamespaceIndex, byNode, byOwner, cfg.every, cfg.show)

	watchCtx := runCtx
	if cfg.duration > 0 {
		var cancel context.CancelFunc
		watchCtx, cancel = context.WithTimeout(runCtx, cfg.duration)
		defer cancel()
	}
	if cfg.churn > 0 && !env.Real() {
		g.Go(func() error {
			_, err := env.Churn(watchCtx, exampleenv.ChurnOptions{Interval: cfg.churn})
			return err
		})
	}
	watchStart := time.Now()
	tick := time.NewTicker(cfg.every)
	defer tick.Stop()
	for done := false; !done; {
		select {
		case <-watchCtx.Done():
			done = true
		case <-tick.C:
		}
		elapsed := time.Since(watchStart).Round(min(cfg.every, time.Second))
		if err := report(out, pods, elapsed, cfg.queryNamespace, sel); err != nil {
			return err
		}
	}
	stopRun()
	if err := g.Wait(); err != nil {
		return err
	}
	total := out.totals()
	out.printf("stopped after %v: %d changes (%d added, %d updated, %d deleted), %d Pods cached\n",
		time.Since(watchStart).Round(100*time.Millisecond), total.all(), total.added, total.updated, total.deleted, pods.Store().Len())
	return nil
}

// ended is Run's error, nil if it ended because ctx did.
func ended(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err
}

// report prints the changes since the last report and the answers of a
// few queries of the cache. Each query reads the cache as it is at that
// moment, without a request to the server.
func report(out *printer, pods *informer.Informer[*corev1.Pod], elapsed time.Duration, queryNamespace string, sel client.Selector) error {
	store := pods.Store()
	n := out.period()
	line := fmt.Sprintf("[%v] %d changes: %d added, %d updated, %d deleted", elapsed, n.all(), n.added, n.updated, n.deleted)
	if hidden := n.all() - n.shown; hidden > 0 {
		line += fmt.Sprintf(" (%d not shown)", hidden)
	}
	rows := []string{line}

	// The namespace index is built in: every Store has it.
	namespaces, _ := store.IndexValues(informer.NamespaceIndex)
	counts := make([]string, 0, len(namespaces))
	for _, c := range countBy(store, informer.NamespaceIndex, namespaces) {
		counts = append(counts, fmt.Sprintf("%s %d", c.value, c.n))
	}
	rows = append(rows, fmt.Sprintf("  %-13s ", "by namespace:")+strings.Join(counts, ", "))

	for _, ix := range []struct{ name, noun string }{{byNode, "nodes"}, {byOwner, "owners"}} {
		values, err := store.IndexValues(ix.name)
		if err != nil {
			return err
		}
		if counts := countBy(store, ix.name, values); len(counts) > 0 {
			rows = append(rows, fmt.Sprintf("  %-13s %d %s, %s", "by "+ix.name+":", len(counts), ix.noun, spread(counts)))
		}
	}

	// A Lister reads the cache as a client reads the server: by
	// namespace, with a label selector.
	matched, err := pods.Lister().Namespace(queryNamespace).List(sel)
	if err != nil {
		return fmt.Errorf("lister: %w", err)
	}
	ready := 0
	for _, p := range matched {
		if isReady(p) {
			ready++
		}
	}
	rows = append(rows, fmt.Sprintf("  %-13s %d Pods in %s match %s, %d of them ready", "Lister:", len(matched), queryNamespace, sel, ready))
	out.printf("%s\n", strings.Join(rows, "\n"))
	return nil
}

// spread describes the counts of an index's values: "625 Pods each",
// or "7 to 9 Pods each (9 under pool-a-node-001)".
func spread(counts []count) string {
	most, least := counts[0], counts[len(counts)-1]
	if most.n == least.n {
		return plural(most.n, "Pod") + " each"
	}
	return fmt.Sprintf("%d to %d Pods each (%d under %s)", least.n, most.n, most.n, most.value)
}

type count struct {
	value string
	n     int
}

// countBy counts the Pods under each value of an index, the largest
// count first (then by value).
func countBy(store *informer.Store[*corev1.Pod], index string, values []string) []count {
	counts := make([]count, 0, len(values))
	for _, v := range values {
		objs, _ := store.ByIndex(index, v)
		counts = append(counts, count{v, len(objs)})
	}
	slices.SortFunc(counts, func(a, b count) int { return cmp.Or(cmp.Compare(b.n, a.n), strings.Compare(a.value, b.value)) })
	return counts
}

// describe says what state a Pod is in: "Running on node-7",
// "Pending (Unschedulable)", "Failed (Evicted)".
func describe(p *corev1.Pod) string {
	s := string(p.Status.Phase)
	if s == "" {
		s = "no phase yet"
	}
	switch {
	case p.Status.Reason != "":
		s += " (" + p.Status.Reason + ")"
	case p.Spec.NodeName == "":
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Reason != "" {
				s += " (" + c.Reason + ")"
			}
		}
	default:
		s += " on " + p.Spec.NodeName
	}
	return s
}

// difference says what changed between two states of a Pod.
func difference(old, p *corev1.Pod) string {
	var diffs []string
	if old.Status.Phase != p.Status.Phase {
		diffs = append(diffs, fmt.Sprintf("phase %s → %s", old.Status.Phase, p.Status.Phase))
	}
	if old.Spec.NodeName != p.Spec.NodeName {
		diffs = append(diffs, fmt.Sprintf("node %q → %q", old.Spec.NodeName, p.Spec.NodeName))
	}
	if a, b := readiness(old), readiness(p); a != b {
		diffs = append(diffs, fmt.Sprintf("Ready %s → %s", a, b))
	}
	if p.DeletionTimestamp != nil && old.DeletionTimestamp == nil {
		diffs = append(diffs, "terminating")
	}
	if len(diffs) == 0 {
		return fmt.Sprintf("resourceVersion %s → %s", old.ResourceVersion, p.ResourceVersion)
	}
	return strings.Join(diffs, ", ")
}

func readiness(p *corev1.Pod) corev1.ConditionStatus {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status
		}
	}
	return "Unknown"
}

func isReady(p *corev1.Pod) bool { return readiness(p) == corev1.ConditionTrue }

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// printer writes the handler's lines and the reports, one at a time,
// and counts the changes: the handler runs on its own goroutine.
type printer struct {
	w    io.Writer
	show int

	mu       sync.Mutex
	nInitial int
	now, all tally
}

// tally counts changes.
type tally struct{ added, updated, deleted, shown int }

func (t tally) all() int { return t.added + t.updated + t.deleted }

func (p *printer) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, format, args...)
}

func (p *printer) initial() {
	p.mu.Lock()
	p.nInitial++
	p.mu.Unlock()
}

func (p *printer) initials() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nInitial
}

// change counts a change, and prints it if fewer than show were printed
// since the last report.
func (p *printer) change(what string, pod *corev1.Pod, detail string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, t := range []*tally{&p.now, &p.all} {
		switch what {
		case "ADDED":
			t.added++
		case "UPDATED":
			t.updated++
		case "DELETED":
			t.deleted++
		}
	}
	if p.now.shown < p.show {
		p.now.shown++
		fmt.Fprintf(p.w, "  %-8s %-42s %s\n", what, pod.Namespace+"/"+pod.Name, detail)
	}
}

// period returns the counts since the last call, and starts anew.
func (p *printer) period() tally {
	p.mu.Lock()
	defer p.mu.Unlock()
	t := p.now
	p.now = tally{}
	return t
}

func (p *printer) totals() tally {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.all
}
