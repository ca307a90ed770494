package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	v1 "github.com/kubewire/kubewire/examples/operator/api/v1"
)

// This file is the demonstration on the embedded fake server: what a
// cluster, kubectl and a Deployment of three replicas do for the
// operator on a real cluster. It is not part of the operator.

const demoWidgets = 90

// demo runs three replicas against the fake server env, stops one and
// starts another while Widgets change, and prints what it sees.
func demo(ctx context.Context, env *exampleenv.Env, out io.Writer) error {
	c, err := client.New(env.Config)
	if err != nil {
		return err
	}
	if err := crd.Install(ctx, c, v1.CustomResourceDefinitions(), crd.Options{}); err != nil {
		return err
	}
	widgets := client.For[*v1.Widget](c).Namespace("default")
	fmt.Fprintf(out, "sharded: Widgets (operator.kubewire.dev/v1) on %s\n", env)
	for i := range demoWidgets {
		w := &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("widget-%02d", i)}, Spec: v1.WidgetSpec{Color: "red", Size: int32(i)}}
		if _, err := widgets.Create(ctx, w, client.CreateOptions{}); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "  %d Widgets created in default\n", demoWidgets)

	running := map[string]*demoReplica{}
	defer func() {
		for _, r := range running {
			r.stop()
		}
	}()
	for _, id := range []string{"replica-1", "replica-2", "replica-3"} {
		r, err := startDemoReplica(ctx, env.Config, id)
		if err != nil {
			return err
		}
		running[id] = r
	}
	start := time.Now()
	if err := waitSettled(ctx, c, running); err != nil {
		return err
	}
	fmt.Fprintf(out, "  converged in %v; each Widget cached and reconciled by one replica:\n", roundDuration(time.Since(start)))
	describe(out, running)

	fmt.Fprintln(out, "  replica-2 stops, replica-4 starts, 10 Widgets are recoloured meanwhile")
	running["replica-2"].stop()
	delete(running, "replica-2")
	r4, err := startDemoReplica(ctx, env.Config, "replica-4")
	if err != nil {
		return err
	}
	running["replica-4"] = r4
	for i := range 10 {
		name := fmt.Sprintf("widget-%02d", i*9)
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
	}
	start = time.Now()
	if err := waitSettled(ctx, c, running); err != nil {
		return err
	}
	fmt.Fprintf(out, "  converged in %v:\n", roundDuration(time.Since(start)))
	describe(out, running)
	return nil
}

// demoReplica is one replica running in this process.
type demoReplica struct {
	*replica
	id       string
	stopOnce sync.Once
	cancel   context.CancelFunc
	done     chan struct{}
}

func startDemoReplica(ctx context.Context, cfg client.Config, id string) (*demoReplica, error) {
	r, err := newReplica(cfg, options{id: id})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	d := &demoReplica{replica: r, id: id, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(d.done)
		if err := r.m.Run(ctx); err != nil {
			fmt.Println("sharded:", id, err)
		}
	}()
	return d, nil
}

func (d *demoReplica) stop() {
	d.stopOnce.Do(func() {
		d.cancel()
		<-d.done
	})
}

// describe prints each replica's share.
func describe(out io.Writer, running map[string]*demoReplica) {
	ids := make([]string, 0, len(running))
	for id := range running {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		r := running[id]
		st := r.m.Member().Status()
		fmt.Fprintf(out, "    %s: %d of 64 slots in %d ranges, %d Widgets cached\n", id, st.Acting, len(st.Selector.Ranges), r.widgets.Store().Len())
	}
}

// waitSettled waits until the ring is balanced, every replica's cache
// holds its part and nothing else, every Widget is cached once, and the
// server holds what the operator defines for each.
func waitSettled(ctx context.Context, c *client.Client, running map[string]*demoReplica) error {
	var why string
	_, err := waitFor(ctx, "convergence", func() (bool, error) {
		why = settled(ctx, c, running)
		return why == "", nil
	})
	if err != nil {
		return fmt.Errorf("%w: %s", err, why)
	}
	return nil
}

func settled(ctx context.Context, c *client.Client, running map[string]*demoReplica) string {
	cached := map[string]int{}
	for id, r := range running {
		st := r.m.Member().Status()
		if len(st.Members) != len(running) || st.Acting != st.Assigned {
			return fmt.Sprintf("%s: ring not settled (%d members, %d of %d slots)", id, len(st.Members), st.Acting, st.Assigned)
		}
		if got, ok := r.widgets.SyncedShard(); !ok || !got.Equal(st.Selector) {
			return id + ": cache not synced with its part"
		}
		for _, k := range r.widgets.Store().ListKeys() {
			cached[k]++
		}
	}
	ws, err := client.For[*v1.Widget](c).Namespace("default").List(ctx, client.ListOptions{})
	if err != nil {
		return err.Error()
	}
	cms, err := client.For[*corev1.ConfigMap](c).Namespace("default").List(ctx, client.ListOptions{})
	if err != nil {
		return err.Error()
	}
	byName := map[string]*corev1.ConfigMap{}
	for _, cm := range cms.Items {
		byName[cm.Name] = cm
	}
	for _, w := range ws.Items {
		cm := byName[w.Name+"-widget"]
		switch {
		case cached["default/"+w.Name] != 1:
			return fmt.Sprintf("%s cached %d times", w.Name, cached["default/"+w.Name])
		case cm == nil || cm.Data["color"] != w.Spec.Color:
			return w.Name + ": ConfigMap missing or stale"
		case w.Status.ObservedGeneration != w.Generation || !slices.Contains(w.Finalizers, finalizer):
			return w.Name + ": status or finalizer missing"
		}
	}
	return ""
}

// waitFor polls cond until it holds, for at most a minute.
func waitFor(ctx context.Context, what string, cond func() (bool, error)) (time.Duration, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		ok, err := cond()
		if err != nil || ok {
			return time.Since(start), err
		}
		select {
		case <-ctx.Done():
			return time.Since(start), fmt.Errorf("waiting for %s: %w", what, errors.Join(ctx.Err()))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func roundDuration(d time.Duration) time.Duration { return d.Round(10 * time.Millisecond) }
