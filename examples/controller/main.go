// Command controller is a small Kubernetes controller: it keeps the
// annotation example.com/owner-team of every ConfigMap equal to the
// ConfigMap's label team (and removes the annotation when the label goes).
// It is built from kubewire's parts:
//
//   - an informer caches the ConfigMaps; package controller's loop turns
//     its events into Requests, and a predicate lets through only the
//     ConfigMaps that are out of step;
//   - the controller's work queue (package workqueue) de-duplicates
//     Requests, hands each to one worker at a time, and queues a failed
//     one again after an exponential backoff;
//   - each worker reconciles a Request: it reads the ConfigMap from the
//     informer's Lister (no request), and if the annotation is wrong
//     writes a copy with client.Resource.Update. The update carries the
//     cached resourceVersion, so if the ConfigMap changed since the cache
//     saw it the server answers 409 Conflict instead of letting a stale
//     decision win; the worker then reads the latest state from the
//     server and tries again (client.RetryOnConflict). Other failures go
//     back to the queue with backoff; after ten in a row the controller
//     gives up on the ConfigMap until it changes again;
//   - writes are paced by the client's write bucket (-qps), which the
//     informer's reads do not share.
//
// By default it starts kubewire's in-memory API server (package fake)
// with 2,000 realistic ConfigMaps, keeps relabelling and editing them
// while it runs, and gives it a flaky admission webhook that
// fails one update in twenty, as webhooks that time out do. It reports
// every second, and at the end checks against the server that every
// ConfigMap is in step.
//
// With KUBECONFIG set, or -kubeconfig given, it runs against a real
// cluster: there it writes annotations on the ConfigMaps of -namespace
// (which it requires), and makes no other change; relabel one with
// kubectl label configmap NAME team=NEW --overwrite and watch it follow.
//
//	go run ./examples/controller
//	go run ./examples/controller -configmaps 10000 -workers 8 -qps 1000 -duration 20s
//	go run ./examples/controller -kubeconfig ~/.kube/config -namespace sandbox -duration 0
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
	"strings"
	"sync"
	"sync/atomic"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/pager"
	"github.com/kubewire/kubewire/workqueue"
)

const (
	label        = "team"
	annotation   = "example.com/owner-team"
	fieldManager = "kubewire-controller-example"
	// maxFailures is how many times in a row a key may fail before the
	// controller gives up on it (until the ConfigMap changes again).
	maxFailures = 10
)

// config is what the flags say.
type config struct {
	kubeconfig string
	namespace  string // "" for all namespaces (fake server only)
	configMaps int    // seeded in the fake server
	workers    int
	qps        float64 // writes per second, at most
	churn      time.Duration
	failEvery  int           // the fake's webhook fails one update in failEvery; 0 never
	every      time.Duration // time between two reports
	duration   time.Duration // 0: until interrupted
	showErrors int           // errors printed; the others are counted
	settle     time.Duration // how long to wait for the server to be in step at the end
}

func main() {
	var cfg config
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	flag.StringVar(&cfg.namespace, "namespace", "", "namespace of the ConfigMaps (default: all; required on a real cluster)")
	flag.IntVar(&cfg.configMaps, "configmaps", 2000, "ConfigMaps to seed the fake server with")
	flag.IntVar(&cfg.workers, "workers", 4, "reconciles at a time")
	flag.Float64Var(&cfg.qps, "qps", 500, "writes per second, at most")
	flag.DurationVar(&cfg.churn, "churn", 50*time.Millisecond, "time between two relabellings on the fake server (0: none)")
	flag.IntVar(&cfg.failEvery, "fail-every", 20, "on the fake server, a webhook fails one ConfigMap update in this many (0: none)")
	flag.DurationVar(&cfg.every, "every", time.Second, "time between two reports")
	flag.DurationVar(&cfg.duration, "duration", 8*time.Second, "stop after this long (0: run until interrupted)")
	flag.IntVar(&cfg.showErrors, "show-errors", 2, "errors printed; the others are counted")
	flag.DurationVar(&cfg.settle, "settle", 10*time.Second, "at the end, how long to wait for every ConfigMap on the server to be in step")
	flag.Parse()
	cfg.kubeconfig = *kubeconfig

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "controller:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config, out io.Writer) error {
	var updates atomic.Int64 // updates the webhook saw
	env, err := exampleenv.Connect(exampleenv.Options{
		Kubeconfig: cfg.kubeconfig,
		ConfigMaps: cfg.configMaps,
		Webhook: fake.AdmissionHook{
			Name:  "owners.example.com",
			Match: fake.Match{Verbs: []string{"update"}, Resource: "configmaps"},
			Admit: func(*fake.AdmissionRequest) error {
				if cfg.failEvery > 0 && updates.Add(1)%int64(cfg.failEvery) == 0 {
					return context.DeadlineExceeded // the webhook timed out
				}
				return nil
			},
		},
	})
	if err != nil {
		return err
	}
	defer env.Close()
	if env.Real() && cfg.namespace == "" {
		return errors.New("on a real cluster, say which namespace's ConfigMaps to annotate with -namespace")
	}
	ccfg := env.Config
	ccfg.QPS, ccfg.Burst = float32(cfg.qps), 50
	c, err := client.New(ccfg)
	if err != nil {
		return err
	}
	configMaps := client.For[*corev1.ConfigMap](c).Namespace(cfg.namespace)

	where := "all namespaces"
	if cfg.namespace != "" {
		where = "namespace " + cfg.namespace
	}
	fmt.Fprintf(out, "controller: annotation %s follows label %s on the ConfigMaps of %s, on %s\n", annotation, label, where, env)
	if !env.Real() {
		var busy []string
		if cfg.churn > 0 {
			busy = append(busy, fmt.Sprintf("every %v one is relabelled and edited", cfg.churn))
		}
		if cfg.failEvery > 0 {
			busy = append(busy, fmt.Sprintf("a webhook fails 1 in %d updates", cfg.failEvery))
		}
		fmt.Fprintf(out, "  %s\n", strings.Join(append([]string{fmt.Sprintf("%d ConfigMaps seeded", cfg.configMaps)}, busy...), "; "))
	}

	r := &reconciler{
		configMaps: configMaps,
		out:        out,
		showErrors: cfg.showErrors,
		failures:   map[controller.Request]int{},
	}
	inf, err := informer.New(configMaps, informer.Options[*corev1.ConfigMap]{})
	if err != nil {
		return err
	}
	r.lister = inf.Lister()
	ctl, err := controller.New("owner-team", inf, r, controller.Options{
		Workers: cfg.workers,
		Queue:   workqueue.Options{BaseDelay: 5 * time.Millisecond, MaxDelay: 2 * time.Second, Jitter: 0.2},
	})
	if err != nil {
		return err
	}
	// The predicate decides only whether there is work; the worker reads
	// the latest state from the cache when it gets to the Request.
	ctl.Filter(func(e controller.Event[*corev1.ConfigMap]) bool {
		return e.Type != controller.Deleted && !inStep(e.Object)
	})

	// The informer and the controller run until the end; the changes on
	// the fake server stop earlier, so that the controller can be seen to
	// settle.
	runCtx, stopRun := context.WithCancel(context.WithoutCancel(ctx))
	defer stopRun()
	var wg sync.WaitGroup
	var infErr, ctlErr error
	start := time.Now()
	wg.Go(func() {
		if err := inf.Run(runCtx); !errors.Is(err, context.Canceled) {
			infErr = err
		}
	})
	defer wg.Wait()
	defer stopRun()
	if err := inf.WaitForSync(ctx); err != nil {
		stopRun()
		wg.Wait()
		return errors.Join(infErr, err)
	}
	fmt.Fprintf(out, "synced %d ConfigMaps in %v, %d out of step; %d workers, at most %v writes/s\n",
		inf.Store().Len(), time.Since(start).Round(time.Millisecond), r.outOfStep(), cfg.workers, cfg.qps)
	wg.Go(func() { ctlErr = ctl.Run(runCtx) })
	runErr := func() error { return errors.Join(infErr, ctlErr) }

	watchCtx := ctx
	if cfg.duration > 0 {
		var cancel context.CancelFunc
		watchCtx, cancel = context.WithTimeout(ctx, cfg.duration)
		defer cancel()
	}
	churnDone := make(chan error, 1)
	if cfg.churn > 0 && !env.Real() {
		go func() {
			_, err := env.Churn(watchCtx, exampleenv.ChurnOptions{Interval: cfg.churn, Relabel: true})
			churnDone <- err
		}()
	} else {
		churnDone <- nil
	}
	watchStart := time.Now()
	tick := time.NewTicker(cfg.every)
	defer tick.Stop()
	for watching := true; watching; {
		select {
		case <-watchCtx.Done():
			watching = false
		case <-tick.C:
			r.report(time.Since(watchStart).Round(min(cfg.every, time.Second)), ctl.Len())
		}
	}
	if err := <-churnDone; err != nil {
		return err
	}
	stopped := time.Now()
	if ctx.Err() != nil { // interrupted: stop now
		fmt.Fprintf(out, "interrupted after %v\n", stopped.Sub(watchStart).Round(100*time.Millisecond))
		stopRun()
		wg.Wait()
		r.summary()
		return runErr()
	}
	if !env.Real() && cfg.churn > 0 {
		fmt.Fprintf(out, "after %v the labels stop changing", stopped.Sub(watchStart).Round(100*time.Millisecond))
	} else {
		fmt.Fprintf(out, "after %v", stopped.Sub(watchStart).Round(100*time.Millisecond))
	}
	fmt.Fprintf(out, "; waiting until every ConfigMap on the server is in step\n")
	total, behind, err := waitInStep(ctx, configMaps, cmp.Or(cfg.settle, 10*time.Second))
	settled := time.Since(stopped)
	stopRun()
	wg.Wait()
	if err := runErr(); err != nil {
		return err
	}
	if err != nil {
		return fmt.Errorf("check the server: %w", err)
	}
	r.summary()
	if behind > 0 {
		return fmt.Errorf("%d of %d ConfigMaps on the server are still out of step after %v", behind, total, settled.Round(time.Millisecond))
	}
	fmt.Fprintf(out, "checked against the server: all %d ConfigMaps in step, %v after the changes stopped\n", total, settled.Round(time.Millisecond))
	return nil
}

// inStep reports whether cm's annotation says what its label does.
func inStep(cm *corev1.ConfigMap) bool {
	team, labelled := cm.Labels[label]
	owner, annotated := cm.Annotations[annotation]
	return labelled == annotated && team == owner
}

// setOwner makes cm's annotation say what its label does. cm must be the
// caller's own copy, never the cache's.
func setOwner(cm *corev1.ConfigMap) {
	team, labelled := cm.Labels[label]
	switch {
	case labelled && cm.Annotations == nil:
		cm.Annotations = map[string]string{annotation: team}
	case labelled:
		cm.Annotations[annotation] = team
	default:
		delete(cm.Annotations, annotation)
	}
}

// reconciler reconciles ConfigMaps: see the package comment.
type reconciler struct {
	configMaps *client.Resource[*corev1.ConfigMap]
	lister     informer.Lister[*corev1.ConfigMap]

	out        io.Writer
	showErrors int

	mu       sync.Mutex                 // guards what follows, and writes to out
	failures map[controller.Request]int // failures in a row, by Request
	n        stats                      // since the start
	last     stats                      // at the last report
	shown    int                        // errors printed
}

// stats count what the controller did.
type stats struct{ reconciles, updates, conflicts, retries, givenUp int }

func (s stats) minus(t stats) stats {
	return stats{s.reconciles - t.reconciles, s.updates - t.updates, s.conflicts - t.conflicts, s.retries - t.retries, s.givenUp - t.givenUp}
}

// Reconcile brings the ConfigMap of req in step, and keeps count of
// failures: the controller queues a failed Request again after its
// backoff, until maxFailures in a row, when the reconciler gives up on
// it (until the ConfigMap changes again and the predicate lets it in).
func (c *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	err := c.reconcile(ctx, req)
	if err == nil || ctx.Err() != nil {
		c.mu.Lock()
		delete(c.failures, req)
		c.mu.Unlock()
		return controller.Result{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failures[req]++
	failures := c.failures[req]
	show := c.shown < c.showErrors
	if show {
		c.shown++
	}
	if failures >= maxFailures {
		delete(c.failures, req)
		c.n.givenUp++
		if show {
			fmt.Fprintf(c.out, "  gave up on %s after %d failures: %v\n", req, failures, err)
		}
		return controller.Result{}, nil
	}
	c.n.retries++
	if show {
		fmt.Fprintf(c.out, "  retry %s (failure %d): %v\n", req, failures, err)
	}
	return controller.Result{}, err
}

// reconcile brings the ConfigMap of req in step, if it is not already.
func (c *reconciler) reconcile(ctx context.Context, req controller.Request) error {
	c.count(&c.n.reconciles)
	namespace, name := req.Namespace, req.Name
	cached, ok := c.lister.Namespace(namespace).Get(name)
	if !ok || inStep(cached) {
		return nil // deleted, or in step already: nothing to do
	}
	configMaps := c.configMaps.Namespace(namespace)
	// The cached object is shared with the cache and the other
	// readers: change a copy. Its resourceVersion makes the update
	// conditional on the ConfigMap being as the cache last saw it.
	cm := cached.DeepCopy()
	setOwner(cm)
	_, err := configMaps.Update(ctx, cm, client.UpdateOptions{FieldManager: fieldManager})
	if errors.Is(err, client.ErrConflict) {
		// It changed since (its label may have): decide again from
		// the latest state on the server.
		c.count(&c.n.conflicts)
		err = client.RetryOnConflict(ctx, 3, func() error {
			latest, err := configMaps.Get(ctx, name, client.GetOptions{})
			if err != nil || inStep(latest) {
				return err
			}
			setOwner(latest)
			_, err = configMaps.Update(ctx, latest, client.UpdateOptions{FieldManager: fieldManager})
			if errors.Is(err, client.ErrConflict) {
				c.count(&c.n.conflicts)
			} else if err == nil {
				c.count(&c.n.updates)
			}
			return err
		})
	} else if err == nil {
		c.count(&c.n.updates)
	}
	if errors.Is(err, client.ErrNotFound) {
		return nil // deleted meanwhile
	}
	if err != nil {
		return fmt.Errorf("update: %w", err)
	}
	return nil
}

func (c *reconciler) count(n *int) {
	c.mu.Lock()
	*n++
	c.mu.Unlock()
}

// summary prints the counts since the start.
func (c *reconciler) summary() {
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(c.out, "summary: %s, %s, %s (each followed by a read from the server), %s after errors, %d given up\n",
		plural(c.n.reconciles, "reconcile"), plural(c.n.updates, "update"), plural(c.n.conflicts, "conflict"), plural(c.n.retries, "retry"), c.n.givenUp)
}

func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "y"):
		return fmt.Sprintf("%d %sies", n, noun[:len(noun)-1])
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// outOfStep counts the cached ConfigMaps out of step.
func (c *reconciler) outOfStep() int {
	all, _ := c.lister.List(nil)
	n := 0
	for _, cm := range all {
		if !inStep(cm) {
			n++
		}
	}
	return n
}

// report prints what happened since the last report; queued is how many
// Requests wait for a worker.
func (c *reconciler) report(elapsed time.Duration, queued int) {
	behind := c.outOfStep()
	c.mu.Lock()
	failing := len(c.failures)
	defer c.mu.Unlock()
	d := c.n.minus(c.last)
	c.last = c.n
	fmt.Fprintf(c.out, "  [%v] %s, %s, %s, %s; %d out of step in the cache, %d queued, %d waiting to retry\n",
		elapsed, plural(d.reconciles, "reconcile"), plural(d.updates, "update"), plural(d.conflicts, "conflict"), plural(d.retries, "retry"),
		behind, queued, failing)
}

// waitInStep waits until every ConfigMap on the server is in step, or
// for at most timeout. It asks the server itself, not the cache, a few
// times a second, and returns the counts it saw last.
func waitInStep(ctx context.Context, configMaps *client.Resource[*corev1.ConfigMap], timeout time.Duration) (total, behind int, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		total, behind, err = serverInStep(ctx, configMaps)
		if err != nil || behind == 0 {
			return total, behind, err
		}
		select {
		case <-ctx.Done():
			return total, behind, nil
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// serverInStep lists the ConfigMaps on the server, page by page, and
// counts them and those out of step.
func serverInStep(ctx context.Context, configMaps *client.Resource[*corev1.ConfigMap]) (total, behind int, err error) {
	p, err := pager.New(configMaps.List, pager.Options{})
	if err != nil {
		return 0, 0, err
	}
	for cm, err := range p.Items(ctx) {
		if err != nil {
			return 0, 0, err
		}
		total++
		if !inStep(cm) {
			behind++
		}
	}
	return total, behind, nil
}
