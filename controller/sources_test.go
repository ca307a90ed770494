package controller_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/api/registry"
	"github.com/kubewire/kubewire/api/unstructured"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/controller"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/informer"
)

var widgetGVR = client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}

func widget(name string, color string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"metadata": map[string]any{"name": name, "namespace": "default"},
		"spec":     map[string]any{"color": color},
	}}
	u.SetGroupVersionKind("example.com", "v1", "Widget")
	return u
}

// recorder is a Reconciler that records the Requests it gets.
type recorder struct {
	mu   sync.Mutex
	seen []controller.Request
	ch   chan controller.Request
}

func newRecorder() *recorder { return &recorder{ch: make(chan controller.Request, 1000)} }

func (r *recorder) Reconcile(_ context.Context, req controller.Request) (controller.Result, error) {
	r.mu.Lock()
	r.seen = append(r.seen, req)
	r.mu.Unlock()
	r.ch <- req
	return controller.Result{}, nil
}

// next returns the next Request reconciled, or fails after a while.
func (r *recorder) next(t *testing.T) controller.Request {
	t.Helper()
	select {
	case req := <-r.ch:
		return req
	case <-time.After(10 * time.Second):
		t.Fatal("no reconcile within 10s")
		return controller.Request{}
	}
}

// quiet fails if a Request is reconciled within d.
func (r *recorder) quiet(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case req := <-r.ch:
		t.Errorf("unexpected reconcile of %s", req)
	case <-time.After(d):
	}
}

// A dynamic primary (custom resource as Unstructured) filtered with
// GenerationChanged: spec changes reconcile, status and label changes do
// not. A metadata-only informer of ConfigMaps is watched through a map
// function (its "widget" label names the Widget), and owned ConfigMaps
// are recognised with Options.Kind.
func TestDynamicPrimaryPredicatesAndMaps(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		if err := e.srv.AddCustomResource(fake.CustomResource{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgets", Namespaced: true, Status: true}); err != nil {
			t.Fatal(err)
		}
		widgets := client.Dynamic(e.direct, widgetGVR).Namespace("default")
		w, err := widgets.Create(t.Context(), widget("w1", "red"), client.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}

		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		winf := informer.SharedDynamic(f, widgetGVR, informer.Scope{Namespace: "default"})
		cmGVR := client.GroupVersionResource{Version: "v1", Resource: "configmaps"}
		cmMeta := informer.SharedMetadata(f, cmGVR, informer.Scope{Namespace: "default"})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default", LabelSelector: client.MatchLabels(map[string]string{"owned": "yes"})})

		rec := newRecorder()
		ctl := newController(t, "widgets", winf, rec, controller.Options{Queue: fastQueue,
			Kind: registry.Kind{Group: "example.com", Version: "v1", Kind: "Widget", Namespaced: true}})
		ctl.Filter(controller.GenerationChanged)
		controller.Owns(ctl, cms)
		controller.Watches(ctl, cmMeta, func(m *metav1.PartialObjectMetadata) []controller.Request {
			if w := m.Labels["widget"]; w != "" {
				return []controller.Request{{Namespace: m.Namespace, Name: w}}
			}
			return nil
		}, controller.LabelsChanged)
		running(t, f.Run)
		running(t, ctl.Run)

		want := controller.Request{Namespace: "default", Name: "w1"}
		if got := rec.next(t); got != want {
			t.Fatalf("initial reconcile of %v, want %v", got, want)
		}
		rec.quiet(t, 100*time.Millisecond)

		ctx := t.Context()
		steps := []struct {
			name      string
			change    func() error
			reconcile bool
		}{
			{"StatusChanged", func() error {
				w.Object["status"] = map[string]any{"seen": true}
				var err error
				w, err = widgets.UpdateStatus(ctx, w, client.UpdateOptions{})
				return err
			}, false},
			{"LabelChanged", func() error {
				w.SetLabels(map[string]string{"tier": "gold"})
				var err error
				w, err = widgets.Update(ctx, w, client.UpdateOptions{})
				return err
			}, false},
			{"SpecChanged", func() error {
				w.Object["spec"] = map[string]any{"color": "blue"}
				var err error
				w, err = widgets.Update(ctx, w, client.UpdateOptions{})
				return err
			}, true},
			{"MappedObjectCreated", func() error {
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "mapped", Namespace: "default", Labels: map[string]string{"widget": "w1"}}}
				_, err := client.For[*corev1.ConfigMap](e.direct).Create(ctx, cm, client.CreateOptions{})
				return err
			}, true},
			{"MappedObjectDataChanged", func() error {
				cms := client.For[*corev1.ConfigMap](e.direct).Namespace("default")
				cm, err := cms.Get(ctx, "mapped", client.GetOptions{})
				if err != nil {
					return err
				}
				cm.Data = map[string]string{"a": "b"} // LabelsChanged drops it
				_, err = cms.Update(ctx, cm, client.UpdateOptions{})
				return err
			}, false},
			{"OwnedObjectCreated", func() error {
				yes := true
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owned", Namespace: "default", Labels: map[string]string{"owned": "yes"},
					OwnerReferences: []metav1.OwnerReference{{APIVersion: "example.com/v1", Kind: "Widget", Name: "w1", UID: w.GetUID(), Controller: &yes}}}}
				_, err := client.For[*corev1.ConfigMap](e.direct).Create(ctx, cm, client.CreateOptions{})
				return err
			}, true},
			{"OwnedByAnotherKind", func() error {
				yes := true
				cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "other", Namespace: "default", Labels: map[string]string{"owned": "yes"},
					OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "w1", UID: "x", Controller: &yes}}}}
				_, err := client.For[*corev1.ConfigMap](e.direct).Create(ctx, cm, client.CreateOptions{})
				return err
			}, false},
		}
		for _, step := range steps {
			func() {
				t.Logf("step %s", step.name)
				if err := step.change(); err != nil {
					t.Fatal(err)
				}
				if step.reconcile {
					if got := rec.next(t); got != want {
						t.Errorf("reconciled %v, want %v", got, want)
					}
				}
				rec.quiet(t, 150*time.Millisecond)
			}()
		}
	})
}

// Predicates, as functions of an event.
func TestPredicates(t *testing.T) {
	cm := func(gen int64, labels, annotations map[string]string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Generation: gen, Labels: labels, Annotations: annotations}}
	}
	a, b := cm(1, map[string]string{"x": "1"}, nil), cm(2, map[string]string{"x": "1"}, map[string]string{"n": "1"})
	c := cm(1, map[string]string{"x": "2"}, nil)
	type ev = controller.Event[*corev1.ConfigMap]
	type cmp = *corev1.ConfigMap
	gen, labels, annotations := controller.GenerationChanged[cmp], controller.LabelsChanged[cmp], controller.AnnotationsChanged[cmp]
	tests := []struct {
		name string
		p    controller.Predicate[*corev1.ConfigMap]
		e    ev
		want bool
	}{
		{"GenerationChanged/Add", gen, ev{Type: controller.Added, Object: a}, true},
		{"GenerationChanged/Delete", gen, ev{Type: controller.Deleted, Object: a}, true},
		{"GenerationChanged/Changed", gen, ev{Type: controller.Updated, Old: a, Object: b}, true},
		{"GenerationChanged/Same", gen, ev{Type: controller.Updated, Old: a, Object: c}, false},
		{"GenerationChanged/Resync", gen, ev{Type: controller.Updated, Old: a, Object: a}, true},
		{"LabelsChanged/Changed", labels, ev{Type: controller.Updated, Old: a, Object: c}, true},
		{"LabelsChanged/Same", labels, ev{Type: controller.Updated, Old: a, Object: b}, false},
		{"AnnotationsChanged/Changed", annotations, ev{Type: controller.Updated, Old: a, Object: b}, true},
		{"AnnotationsChanged/Same", annotations, ev{Type: controller.Updated, Old: a, Object: c}, false},
		{"Or/Either", controller.Or(labels, annotations), ev{Type: controller.Updated, Old: a, Object: c}, true},
		{"Or/Neither", controller.Or(labels, annotations), ev{Type: controller.Updated, Old: c, Object: cm(5, c.Labels, nil)}, false},
		{"Not", controller.Not(gen), ev{Type: controller.Updated, Old: a, Object: c}, true},
		{"Custom", func(e ev) bool { return e.Object.Labels["x"] == "2" }, ev{Type: controller.Added, Object: c}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p(tt.e); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// A source whose resource the server does not serve (a CRD not
// installed) makes Run fail at once with ErrNotSynced and the server's
// error instead of waiting forever; Ready says the same without Run.
func TestSyncFailureIsReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
		missing := informer.SharedDynamic(f, client.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "gadgets"}, informer.Scope{})
		ctl := newController(t, "gadgets", cms, newRecorder(), controller.Options{})
		controller.Watches(ctl, missing, func(*unstructured.Unstructured) []controller.Request { return nil })
		running(t, f.Run)

		// Run returns: with the default SyncTimeout of two minutes, a test
		// timeout would say it did not.
		err := ctl.Run(t.Context())
		if !errors.Is(err, controller.ErrNotSynced) || !errors.Is(err, client.ErrNotFound) {
			t.Fatalf("Run = %v, want ErrNotSynced and ErrNotFound", err)
		}
		for _, want := range []string{"controller gadgets", "gadgets (example.com/v1)", "CustomResourceDefinition must be installed first"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		if strings.Contains(err.Error(), "*unstructured.Unstructured") {
			t.Errorf("error %q names the dynamic source by its Go type, not its resource", err)
		}
		if err := ctl.Ready(); !errors.Is(err, client.ErrNotFound) {
			t.Errorf("Ready = %v, want the source that is not synced", err)
		}
		t.Logf("Run: %v", err)
	})
}

// A cache that does not sync for reasons that may pass (the server
// answers 503) is waited for until SyncTimeout, and the error says what
// kept it; a controller stopped while waiting returns nil.
func TestSyncTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		e.srv.Faults().FailNext(1_000_000, http.StatusServiceUnavailable, 0)
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
		running(t, f.Run)

		ctl := newController(t, "unavailable", cms, newRecorder(), controller.Options{SyncTimeout: 300 * time.Millisecond})
		err := ctl.Run(t.Context())
		if !errors.Is(err, controller.ErrNotSynced) || !strings.Contains(err.Error(), "after 300ms") || !strings.Contains(err.Error(), "configmaps") {
			t.Errorf("Run = %v, want ErrNotSynced after 300ms naming configmaps", err)
		}
		t.Logf("Run: %v", err)

		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		if err := newController(t, "stopped", cms, newRecorder(), controller.Options{}).Run(ctx); err != nil {
			t.Errorf("Run stopped while syncing = %v, want nil", err)
		}
	})
}

// A controller whose informer nobody runs (a program without a manager
// that forgot go factory.Run(ctx)) says so when SyncTimeout passes,
// instead of only that the cache has no full state.
func TestSyncTimeoutInformerNotRunning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
		ctl := newController(t, "idle", cms, newRecorder(), controller.Options{SyncTimeout: 300 * time.Millisecond})
		err := ctl.Run(t.Context())
		if !errors.Is(err, controller.ErrNotSynced) || !strings.Contains(err.Error(), "informer is not running") {
			t.Errorf("Run = %v, want ErrNotSynced saying the informer is not running", err)
		}
		if err := ctl.Ready(); err == nil || !strings.Contains(err.Error(), "informer is not running") {
			t.Errorf("Ready = %v, want it to say the informer is not running", err)
		}
		t.Logf("Run: %v", err)
	})
}

// Ready reports each source's sync.
func TestReady(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		f := newFactory(t, e.ctl, informer.FactoryOptions{})
		cms := informer.Shared[*corev1.ConfigMap](f, informer.Scope{Namespace: "default"})
		ctl := newController(t, "ready", cms, newRecorder(), controller.Options{})
		if err := ctl.Ready(); err == nil {
			t.Error("Ready before the informer ran = nil")
		}
		running(t, f.Run)
		if err := f.WaitForSync(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := ctl.Ready(); err != nil {
			t.Errorf("Ready after sync = %v", err)
		}
		if got := fmt.Sprint(ctl); got != "controller ready" {
			t.Errorf("String = %q", got)
		}
	})
}
