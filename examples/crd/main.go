// Command crd is an operator's view of a custom resource typed end to
// end: the Widget kind of package api/v1, a plain Go struct whose kind
// info, deep copies, list type, apply configurations and
// CustomResourceDefinition kubewire-gen wrote (see gen.go).
//
// It installs the definition (crd.Install: apply, then wait until the
// resource is served), starts a typed informer from a shared factory,
// creates a Widget without filling apiVersion and kind (the client takes
// them from the kind info), writes its status as a controller does (read
// from the cache, DeepCopy, UpdateStatus), changes its replicas with a
// typed server-side apply that sends only that field, reads its scale
// subresource, and deletes it, printing what the informer's handler
// sees after each step. Custom resources have no protobuf: the typed
// client offers CBOR, then JSON, and reads whichever the server answers.
//
// By default it runs against kubewire's in-memory API server (package
// fake), which serves Widgets as the definition says. With KUBECONFIG
// set, or -kubeconfig given, it uses a real cluster: there it installs
// the definition (and removes it at the end if it was not there before),
// and the Widget it creates is deleted at the end.
//
//	go run ./examples/crd
//	go run ./examples/crd -kubeconfig ~/.kube/config -namespace sandbox
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	apiextv1 "github.com/kubewire/kubewire/api/apiextensions/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	widgetv1 "github.com/kubewire/kubewire/examples/crd/api/v1"
	widgetac "github.com/kubewire/kubewire/examples/crd/api/v1/applyconfig"
	"github.com/kubewire/kubewire/examples/internal/exampleenv"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
)

// config is what the flags say.
type config struct {
	kubeconfig string
	namespace  string
	name       string
}

func main() {
	var cfg config
	kubeconfig := exampleenv.KubeconfigFlag(flag.CommandLine)
	flag.StringVar(&cfg.namespace, "namespace", "default", "namespace of the Widget to create")
	flag.StringVar(&cfg.name, "name", "gizmo", "name of the Widget to create (it must not exist)")
	flag.Parse()
	cfg.kubeconfig = *kubeconfig

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "crd:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, cfg config, out io.Writer) error {
	env, err := exampleenv.Connect(exampleenv.Options{Kubeconfig: cfg.kubeconfig, Setup: serveWidgets})
	if err != nil {
		return err
	}
	defer env.Close()
	c, err := client.New(env.Config)
	if err != nil {
		return err
	}
	defer c.CloseIdleConnections()
	widgetKind := (*widgetv1.Widget)(nil).KindInfo() // what kubewire-gen wrote
	fmt.Fprintf(out, "crd: %s (%s) on %s\n", widgetKind.Kind, widgetKind.APIVersion(), env)
	step := func(format string, args ...any) { fmt.Fprintf(out, "  "+format+"\n", args...) }

	// The CustomResourceDefinition kubewire-gen wrote is compiled in.
	if env.Real() {
		remove, err := install(ctx, c)
		if err != nil {
			return err
		}
		defer remove()
		step("install: %s applied, Established and served", widgetKind.Resource+"."+widgetKind.Group)
	} else {
		step("install: the fake server serves %s as its definition says", widgetKind.Resource)
	}
	widgets := client.For[*widgetv1.Widget](c).Namespace(cfg.namespace)

	// A typed informer, from a factory as a program with several
	// controllers would share it; the handler reports our Widget's
	// changes in order.
	factory, err := informer.NewFactory(c, informer.FactoryOptions{DropManagedFields: true})
	if err != nil {
		return err
	}
	cache := informer.Shared[*widgetv1.Widget](factory, informer.Scope{Namespace: cfg.namespace})
	events := make(chan string, 16)
	cache.AddHandler(handler(cfg.name, events), informer.HandlerOptions{})
	runCtx, stopInformers := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- factory.Run(runCtx) }()
	defer func() { stopInformers(); <-ran }()
	if err := factory.WaitForSync(ctx); err != nil {
		return err
	}
	step("informer: synced, %d Widgets cached in %s", len(cache.Store().List()), cfg.namespace)
	next := func() error {
		select {
		case e := <-events:
			step("  informer: %s", e)
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(30 * time.Second):
			return errors.New("the informer saw no change for 30s")
		}
	}

	// Create: a plain struct, apiVersion and kind left empty.
	replicas := int32(2)
	w := &widgetv1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: cfg.name, Labels: map[string]string{"app": cfg.name}},
		Spec:       widgetv1.WidgetSpec{Image: "registry.example.com/shop/widget:1.4.2", Replicas: &replicas},
	}
	created, err := widgets.Create(ctx, w, client.CreateOptions{})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	deleted := false
	defer func() { // on the way out after an error
		if !deleted {
			_ = widgets.Delete(context.WithoutCancel(ctx), cfg.name, client.DeleteOptions{})
		}
	}()
	step("create: %s/%s, generation %d, replicas %d", created.Namespace, created.Name, created.Generation, *created.Spec.Replicas)
	if err := next(); err != nil {
		return err
	}

	// Status, as a controller writes it: from the cache's object, copied
	// first (cached objects are shared).
	cached, ok := cache.Lister().Namespace(cfg.namespace).Get(cfg.name)
	if !ok {
		return errors.New("the informer has no " + cfg.name)
	}
	upd := cached.DeepCopy()
	upd.Status = widgetv1.WidgetStatus{
		Replicas: *upd.Spec.Replicas, ReadyReplicas: *upd.Spec.Replicas, Selector: "app=" + cfg.name,
		ObservedGeneration: upd.Generation,
		Conditions: []metav1.Condition{{Type: "Ready", Status: "True", Reason: "WorkersReady", Message: "all workers are ready",
			ObservedGeneration: upd.Generation, LastTransitionTime: metav1.NewTime(time.Date(2026, 10, 1, 2, 0, 0, 0, time.UTC))}},
	}
	withStatus, err := widgets.UpdateStatus(ctx, upd, client.UpdateOptions{})
	if err != nil {
		return fmt.Errorf("update status: %w", err)
	}
	step("update status: %d of %d ready, Ready=%s, generation still %d", withStatus.Status.ReadyReplicas, withStatus.Status.Replicas,
		withStatus.Status.Conditions[0].Status, withStatus.Generation)
	if err := next(); err != nil {
		return err
	}

	// Typed server-side apply: the autoscaler owns replicas and sends
	// nothing else; Force takes the field over from its creator.
	scaleUp := widgetac.Widget(cfg.name, cfg.namespace).WithSpec(widgetac.WidgetSpec().WithReplicas(5))
	body, _ := json.Marshal(scaleUp)
	applied, err := widgets.Apply(ctx, scaleUp, client.ApplyOptions{FieldManager: "widget-autoscaler", Force: true})
	if err != nil {
		return fmt.Errorf("apply: %w", err)
	}
	step("apply: sent %s", body)
	step("       replicas %d, generation %d, image still %s; managers: %s", *applied.Spec.Replicas, applied.Generation, applied.Spec.Image, managers(applied))
	if err := next(); err != nil {
		return err
	}

	sc, err := widgets.GetScale(ctx, cfg.name, client.GetOptions{})
	if err != nil {
		return fmt.Errorf("scale: %w", err)
	}
	step("scale: spec.replicas %d, status.replicas %d, selector %s", sc.Spec.Replicas, sc.Status.Replicas, sc.Status.Selector)

	if err := widgets.Delete(ctx, cfg.name, client.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	deleted = true
	step("delete: %s/%s", cfg.namespace, cfg.name)
	return next()
}

// handler reports the changes of the Widget named name.
func handler(name string, events chan<- string) informer.HandlerFuncs[*widgetv1.Widget] {
	describe := func(w *widgetv1.Widget) string {
		return fmt.Sprintf("%s/%s generation %d, replicas %d, ready %d", w.Namespace, w.Name, w.Generation, *w.Spec.Replicas, w.Status.ReadyReplicas)
	}
	return informer.HandlerFuncs[*widgetv1.Widget]{
		Add: func(w *widgetv1.Widget, _ bool) {
			if w.Name == name {
				events <- "ADDED   " + describe(w)
			}
		},
		Update: func(_, w *widgetv1.Widget) {
			if w.Name == name {
				events <- "UPDATED " + describe(w)
			}
		},
		Delete: func(w *widgetv1.Widget, _ bool) {
			if w.Name == name {
				events <- "DELETED " + w.Namespace + "/" + w.Name
			}
		},
	}
}

// managers lists an object's field managers and their operations.
func managers(w *widgetv1.Widget) string {
	var m []string
	for _, e := range w.ManagedFields {
		op := string(e.Operation)
		if e.Subresource != "" {
			op += " " + e.Subresource
		}
		m = append(m, fmt.Sprintf("%s (%s)", e.Manager, op))
	}
	slices.Sort(m)
	return strings.Join(m, ", ")
}

// serveWidgets registers Widgets on the fake server as their
// CustomResourceDefinition describes them, which is what installing it
// does on a real server.
func serveWidgets(s *fake.Server) error {
	crds, err := crd.Parse(widgetv1.CustomResourceDefinitions()...)
	if err != nil {
		return err
	}
	def := crds[0]
	sub := def.Spec.Versions[0].Subresources
	return s.AddCustomResource(fake.CustomResource{
		Group: def.Spec.Group, Version: def.Spec.Versions[0].Name, Kind: def.Spec.Names.Kind, Resource: def.Spec.Names.Plural,
		Namespaced: def.Spec.Scope == "Namespaced", Status: sub.Status != nil,
		Scale: &fake.CustomResourceScale{SpecReplicasPath: sub.Scale.SpecReplicasPath, StatusReplicasPath: sub.Scale.StatusReplicasPath, LabelSelectorPath: *sub.Scale.LabelSelectorPath},
	})
}

// install applies the definition and waits until Widgets are served; it
// returns a function removing the definition if it was not there before.
func install(ctx context.Context, c *client.Client) (remove func(), err error) {
	defs := client.For[*apiextv1.CustomResourceDefinition](c)
	kind := (*widgetv1.Widget)(nil).KindInfo()
	name := kind.Resource + "." + kind.Group
	_, err = defs.Get(ctx, name, client.GetOptions{})
	existed := err == nil
	if err != nil && !errors.Is(err, client.ErrNotFound) {
		return nil, err
	}
	if err := crd.Install(ctx, c, widgetv1.CustomResourceDefinitions(), crd.Options{FieldManager: "kubewire-crd-example"}); err != nil {
		return nil, err
	}
	return func() {
		if !existed {
			_ = defs.Delete(context.Background(), name, client.DeleteOptions{})
		}
	}, nil
}
