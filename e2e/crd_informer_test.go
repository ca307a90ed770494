package e2e

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	shapesv1 "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1"
	shapesac "github.com/kubewire/kubewire/cmd/kubewire-gen/testdata/api/v1/applyconfig"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/internal/testing/chaos"
	"github.com/kubewire/kubewire/reflector"
)

// TestCRDInformer runs a typed informer of the generated Widget kind,
// shared through a factory and with an index, while Widgets churn
// (typed creates, updates, status writes and applies, none with
// TypeMeta, and deletes), against the fake and against a kube-apiserver
// reading from etcd, where an etcd compaction and an apiserver restart
// force a 410 relist. The cache, the index and a handler's view must end
// equal to the server's list.
func TestCRDInformer(t *testing.T) {
	const ns = "crd-informer"
	srv, cfg := fakeclient.Start(fake.Options{Namespaces: []string{"default", ns}})
	t.Cleanup(srv.Close)
	err := srv.AddCustomResource(fake.CustomResource{Group: "shapes.kubewire.dev", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true, Status: true,
		Scale: &fake.CustomResourceScale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas", LabelSelectorPath: ".status.selector"}})
	if err != nil {
		t.Fatal(err)
	}
	fc, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	targets := []clientTarget{{name: "fake", client: fc, ns: ns,
		compact: func(context.Context) error { srv.Compact(); return nil },
		restart: func(context.Context) error { srv.Restart(); return nil },
	}}

	cluster := harness.StartForTest(t, harness.Options{Name: "crd-informer", APIServerFlags: []string{"--watch-cache=false"}})
	if err := cluster.CreateNamespace(t.Context(), ns); err != nil {
		t.Fatal(err)
	}
	kc := realClient(t, cluster)
	installShapes(t, kc)
	targets = append(targets, clientTarget{name: "kube-apiserver-no-watch-cache", client: kc, ns: ns,
		compact: compactFunc(cluster), restart: cluster.RestartAPIServer})

	for _, tgt := range targets {
		t.Run(tgt.name, func(t *testing.T) { testCRDInformer(t, tgt) })
	}
}

func minimalWidget(name, color string) *shapesv1.Widget {
	return &shapesv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: shapesv1.WidgetSpec{Name: name, Color: color}}
}

var colors = []string{"red", "green", "blue"}

func testCRDInformer(t *testing.T, tgt clientTarget) {
	ctx := t.Context()
	widgets := client.For[*shapesv1.Widget](tgt.client).Namespace(tgt.ns)
	for i := range 30 {
		if _, err := widgets.Create(ctx, minimalWidget(fmt.Sprintf("seed-%02d", i), colors[i%3]), client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := informer.NewFactory(tgt.client, informer.FactoryOptions{
		Reflector: reflector.Options{InitialBackoff: 50 * time.Millisecond, MaxBackoff: time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	inf := informer.Shared[*shapesv1.Widget](f, informer.Scope{Namespace: tgt.ns})
	if informer.Shared[*shapesv1.Widget](f, informer.Scope{Namespace: tgt.ns}) != inf {
		t.Error("the factory made a second informer for the same kind and scope")
	}
	err = inf.Store().AddIndexes(map[string]informer.IndexFunc[*shapesv1.Widget]{
		"color": func(w *shapesv1.Widget) []string { return []string{w.Spec.Color} },
	})
	if err != nil {
		t.Fatal(err)
	}
	tracker := chaos.NewTracker[*shapesv1.Widget]("handler")
	inf.AddHandler(tracker, informer.HandlerOptions{})
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- f.Run(runCtx) }()
	defer func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("Run = %v", err)
		}
	}()
	if err := f.WaitForSync(ctx); err != nil {
		t.Fatal(err)
	}
	convergeWidgets(t, widgets, inf, tracker.Versions)

	churn := func(round int) {
		for i := range 45 {
			name := fmt.Sprintf("seed-%02d", (i+round)%30)
			var err error
			switch i % 5 {
			case 0: // update, from a read, without TypeMeta
				var w *shapesv1.Widget
				if w, err = widgets.Get(ctx, name, client.GetOptions{}); err == nil {
					w.TypeMeta = metav1.TypeMeta{}
					w.Spec.Color = colors[(i+round+1)%3]
					_, err = widgets.Update(ctx, w, client.UpdateOptions{})
				}
			case 1: // status
				var w *shapesv1.Widget
				if w, err = widgets.Get(ctx, name, client.GetOptions{}); err == nil {
					w.TypeMeta = metav1.TypeMeta{}
					w.Status.ObservedGeneration = w.Generation
					w.Status.Replicas = int32(i)
					_, err = widgets.UpdateStatus(ctx, w, client.UpdateOptions{})
				}
			case 2: // apply
				_, err = widgets.Apply(ctx, shapesac.Widget(name, tgt.ns).WithSpec(shapesac.WidgetSpec().WithName(name).WithColor(colors[i%3]).WithSize("large")),
					client.ApplyOptions{FieldManager: "crd-informer-test", Force: true})
			case 3:
				err = widgets.Delete(ctx, name, client.DeleteOptions{})
			case 4:
				_, err = widgets.Create(ctx, minimalWidget(fmt.Sprintf("new-%d-%02d", round, i), colors[i%3]), client.CreateOptions{})
			}
			if err != nil && !errors.Is(err, client.ErrNotFound) && !errors.Is(err, client.ErrConflict) {
				t.Fatal(err)
			}
		}
	}
	churn(0)
	convergeWidgets(t, widgets, inf, tracker.Versions)

	// History the informer has not seen expires, and the watch is
	// dropped: it must relist.
	relists := inf.Reflector().Relists()
	other := client.For[*shapesv1.Widget](tgt.client).Namespace("default")
	if _, err := other.Create(ctx, minimalWidget(fmt.Sprintf("elsewhere-%d", time.Now().UnixNano()%1e6), "red"), client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := tgt.compact(ctx); err != nil {
		t.Fatal(err)
	}
	if err := tgt.restart(ctx); err != nil {
		t.Fatal(err)
	}
	for attempt := 1; ; attempt++ { // a write on a connection the restart closed can fail
		err := widgets.Delete(ctx, "seed-05", client.DeleteOptions{})
		if err == nil || errors.Is(err, client.ErrNotFound) {
			break
		}
		if attempt == 5 {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	churn(1)
	convergeWidgets(t, widgets, inf, tracker.Versions)
	if n := inf.Reflector().Relists(); n <= relists {
		t.Errorf("relists %d after the compaction and restart, want more than %d", n, relists)
	}

	// The index agrees with the server.
	list, err := widgets.List(ctx, client.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, color := range colors {
		var want, got []string
		for _, w := range list.Items {
			if w.Spec.Color == color {
				want = append(want, w.Name)
			}
		}
		byColor, err := inf.Store().ByIndex("color", color)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range byColor {
			got = append(got, w.Name)
		}
		slices.Sort(want)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("index color=%s (-server +cache):\n%s", color, diff)
		}
	}
	_, problems := tracker.Report()
	for _, p := range problems {
		t.Error(p)
	}
}

// convergeWidgets waits until the cache and the handler's view equal the
// server's list.
func convergeWidgets(t *testing.T, res *client.Resource[*shapesv1.Widget], inf *informer.Informer[*shapesv1.Widget], seen func() map[string]string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		l, err := res.List(t.Context(), client.ListOptions{})
		if err == nil {
			want := widgetVersions(l.Items)
			cache, handler := widgetVersions(inf.Store().List()), seen()
			if maps.Equal(want, cache) && maps.Equal(want, handler) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("no convergence: cache (-server +cache):\n%s\nhandler (-server +handler):\n%s",
					cmp.Diff(want, cache), cmp.Diff(want, handler))
			}
		} else if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func widgetVersions(objs []*shapesv1.Widget) map[string]string {
	m := map[string]string{}
	for _, o := range objs {
		m[o.Namespace+"/"+o.Name] = o.ResourceVersion
	}
	return m
}
