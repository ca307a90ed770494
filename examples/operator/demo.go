//go:build !nodemo

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	coordinationv1 "github.com/kubewire/kubewire/api/coordination/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	v1 "github.com/kubewire/kubewire/examples/operator/api/v1"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
)

// This file is the demonstration on the embedded fake server: what a
// cluster, kubectl and a Deployment of two replicas do for the operator
// on a real cluster. It is not part of the operator.

// demoWidgets is how many Widgets the demonstration starts with.
const demoWidgets = 20

// demo starts the embedded fake server and runs the demonstration on
// it (demoOn).
func demo(ctx context.Context, out io.Writer) error {
	env, err := exampleenv.Connect(exampleenv.Options{Fake: true})
	if err != nil {
		return err
	}
	defer env.Close()
	return demoOn(ctx, env, out)
}

// demoOn runs two replicas of the operator against the fake server env
// while Widgets are created, changed and deleted, stops the leader
// midway, and prints what it sees.
func demoOn(ctx context.Context, env *exampleenv.Env, out io.Writer) error {
	c, err := client.New(env.Config)
	if err != nil {
		return err
	}
	// kubectl apply -f config/crd, on a cluster.
	if err := crd.Install(ctx, c, v1.CustomResourceDefinitions(), crd.Options{}); err != nil {
		return err
	}
	widgets := client.For[*v1.Widget](c).Namespace("default")
	fmt.Fprintf(out, "operator: Widgets (operator.kubewire.dev/v1) on %s\n", env)
	for i := range demoWidgets {
		w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("widget-%02d", i)}, Spec: v1.WidgetSpec{Color: [...]string{"red", "green", "blue"}[i%3], Size: int32(i)}}
		if _, err := widgets.Create(ctx, w, client.CreateOptions{}); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "  %d Widgets created in default\n", demoWidgets)

	replicas := map[string]*replica{}
	for _, id := range []string{"replica-1", "replica-2"} {
		replicas[id] = startReplica(ctx, env.Config, id)
		defer replicas[id].stop()
		if id == "replica-1" { // let it lead, so that the story is the same every time
			if _, err := waitFor(ctx, "replica-1 to lead", func() (bool, error) { return leader(ctx, c) == "replica-1", nil }); err != nil {
				return err
			}
		}
	}
	start := time.Now()
	if err := waitConverged(ctx, c); err != nil {
		return err
	}
	fmt.Fprintf(out, "  converged in %v: every Widget has its ConfigMap, its finalizer and its status\n", roundDuration(time.Since(start)))
	// The standby learns who leads at its next campaign try (every
	// RetryPeriod): wait for its /readyz to say so before showing it.
	var standby string
	if _, err := waitFor(ctx, "the standby to see the leader", func() (bool, error) {
		standby = replicas["replica-2"].readyz()
		return strings.Contains(standby, "readyz check passed") && strings.Contains(standby, " leads"), nil
	}); err != nil {
		return fmt.Errorf("%w; its /readyz:\n%s", err, standby)
	}
	fmt.Fprintf(out, "  %s leads; /readyz of the standby:\n%s", leader(ctx, c), indent(standby))

	start = time.Now()
	for i := range 5 {
		name := fmt.Sprintf("widget-%02d", i)
		err := client.RetryOnConflict(ctx, 0, func() error {
			w, err := widgets.Get(ctx, name, client.GetOptions{})
			if err != nil {
				return err
			}
			w.Spec.Color = "purple"
			_, err = widgets.Update(ctx, w, client.UpdateOptions{})
			return err
		})
		if err != nil {
			return err
		}
		if err := widgets.Delete(ctx, fmt.Sprintf("widget-%02d", demoWidgets-1-i), client.DeleteOptions{}); err != nil {
			return err
		}
	}
	fmt.Fprintln(out, "  5 Widgets recoloured and 5 deleted; replica-1 is stopped meanwhile")
	replicas["replica-1"].stop()
	if err := waitConverged(ctx, c); err != nil {
		return err
	}
	fmt.Fprintf(out, "  converged in %v: %d Widgets, %s leads\n", roundDuration(time.Since(start)), demoWidgets-5, leader(ctx, c))

	// Events are written in the background, best effort: wait until the
	// cleanups' are in and the count stops moving. A cleanup the stopped
	// leader had done but not yet marked done (its finalizer still on) is
	// done again by the new leader, which then finds nothing to delete
	// and records a second CleanedUp: there can be more than 5.
	var counts map[string]int
	last := ""
	if _, err := waitFor(ctx, "the events", func() (bool, error) {
		counts = eventCounts(ctx, c)
		now := fmt.Sprint(counts)
		settled := counts["CleanedUp"] >= 5 && now == last
		last = now
		return settled, nil
	}); err != nil {
		return fmt.Errorf("%w (events by reason: %v)", err, counts)
	}
	fmt.Fprintf(out, "  events: %d ConfigMapWritten, %d CleanedUp\n", counts["ConfigMapWritten"], counts["CleanedUp"])
	return nil
}

// replica is one replica of the operator running in this process.
type replica struct {
	healthAddr string
	cancel     context.CancelFunc
	done       chan struct{}
}

func startReplica(ctx context.Context, cfg client.Config, id string) *replica {
	ctx, cancel := context.WithCancel(ctx)
	r := &replica{healthAddr: freeAddr(), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		// The replicas log only warnings and errors, so that the
		// demonstration's own output reads well; metrics are served
		// beside /readyz, whose address is free.
		opts := manager.Options{Name: operatorName, HealthAddr: r.healthAddr, CheckPeriod: time.Minute,
			LeaderElection: &leaderelection.Config{Identity: id},
			Logger:         slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))}
		c, err := client.New(cfg)
		if err == nil {
			err = run(ctx, c, opts)
		}
		if err != nil {
			fmt.Println("operator:", id, err)
		}
	}()
	return r
}

func (r *replica) stop() {
	r.cancel()
	<-r.done
}

// readyz returns the replica's /readyz answer.
func (r *replica) readyz() string {
	resp, err := http.Get("http://" + r.healthAddr + "/readyz")
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return ""
	}
	defer ln.Close()
	return ln.Addr().String()
}

// leader returns the holder of the operator's Lease.
func leader(ctx context.Context, c *client.Client) string {
	l, err := client.For[*coordinationv1.Lease](c).Namespace("default").Get(ctx, operatorName, client.GetOptions{})
	if err != nil || l.Spec.HolderIdentity == nil {
		return ""
	}
	return *l.Spec.HolderIdentity
}

// waitConverged waits until the server holds what the operator
// defines for every Widget.
func waitConverged(ctx context.Context, c *client.Client) error {
	var last []string
	_, err := waitFor(ctx, "convergence", func() (bool, error) {
		var err error
		last, err = divergence(ctx, c, "default")
		return err == nil && len(last) == 0, nil
	})
	if err != nil {
		return fmt.Errorf("%w; still diverging: %v", err, last)
	}
	return nil
}

// divergence lists how the Widgets and ConfigMaps of namespace ns differ
// from what the operator defines: each Widget has the finalizer, a
// ConfigMap with its color and size owned by it, and a status naming
// the ConfigMap at its generation; no ConfigMap of the operator is left
// without its Widget.
func divergence(ctx context.Context, c *client.Client, ns string) ([]string, error) {
	ws, err := client.For[*v1.Widget](c).Namespace(ns).List(ctx, client.ListOptions{})
	if err != nil {
		return nil, err
	}
	cms, err := client.For[*corev1.ConfigMap](c).Namespace(ns).List(ctx, client.ListOptions{LabelSelector: client.MatchLabels(map[string]string{managedBy: operatorName})})
	if err != nil {
		return nil, err
	}
	byName := map[string]*corev1.ConfigMap{}
	for _, cm := range cms.Items {
		byName[cm.Name] = cm
	}
	var out []string
	for _, w := range ws.Items {
		cm := byName[w.Name+"-widget"]
		delete(byName, w.Name+"-widget")
		switch {
		case w.DeletionTimestamp != nil:
			out = append(out, w.Name+": being deleted")
		case cm == nil:
			out = append(out, w.Name+": no ConfigMap")
		case cm.Data["color"] != w.Spec.Color || cm.Data["size"] != fmt.Sprint(w.Spec.Size):
			out = append(out, fmt.Sprintf("%s: ConfigMap says %v", w.Name, cm.Data))
		case len(cm.OwnerReferences) != 1 || cm.OwnerReferences[0].UID != w.UID:
			out = append(out, w.Name+": ConfigMap not owned by the Widget")
		case len(w.Finalizers) != 1 || w.Finalizers[0] != finalizer:
			out = append(out, fmt.Sprintf("%s: finalizers %v", w.Name, w.Finalizers))
		case w.Status.ConfigMap != cm.Name || w.Status.ObservedGeneration != w.Generation:
			out = append(out, fmt.Sprintf("%s: status %+v at generation %d", w.Name, w.Status, w.Generation))
		}
	}
	for name := range byName {
		out = append(out, name+": ConfigMap of no Widget")
	}
	return out, nil
}

// eventCounts counts the operator's events by reason.
func eventCounts(ctx context.Context, c *client.Client) map[string]int {
	evs, err := client.For[*eventsv1.Event](c).Namespace("default").List(ctx, client.ListOptions{})
	out := map[string]int{}
	if err != nil {
		return out
	}
	for _, e := range evs.Items {
		if e.ReportingController == operatorName {
			out[e.Reason]++
		}
	}
	return out
}

// waitFor polls cond until it holds, for at most 30 seconds.
func waitFor(ctx context.Context, what string, cond func() (bool, error)) (time.Duration, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		ok, err := cond()
		if err != nil || ok {
			return time.Since(start), err
		}
		select {
		case <-ctx.Done():
			return time.Since(start), fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func roundDuration(d time.Duration) time.Duration { return d.Round(10 * time.Millisecond) }

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    ") + "\n"
}
