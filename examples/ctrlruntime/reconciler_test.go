package main

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	eventsv1 "github.com/kubewire/kubewire/api/events/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/ctrlutil"
	v1 "github.com/kubewire/kubewire/examples/crd/api/v1"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/manager"
)

// The tests a controller-runtime user writes with envtest or the fake
// client and its interceptors, written with kubewire's tools only: the
// fake API server in memory inside a testing/synctest bubble (backoffs
// and RequeueAfter take no real time, and synctest.Wait returns once the
// controller has nothing left to do), faults in place of interceptors,
// Events read from the server in place of a FakeRecorder, and the
// requests seen on the wire in place of the fake clientset's Actions().

// harness is one test's server, client, running manager and request log.
type harness struct {
	srv     *fake.Server
	c       *client.Client
	widgets *client.Resource[*v1.Widget]

	mu     sync.Mutex
	writes []string // "VERB path" of every request but GETs, as sent
}

// start starts the fake server in memory and the manager running the
// controller; both stop when the test's bubble ends.
func start(t *testing.T) *harness {
	h := &harness{srv: fake.New(fake.Options{})}
	t.Cleanup(h.srv.Close)
	cfg := fakeclient.Config(h.srv)
	// In memory: no socket, so that synctest.Wait sees the whole program.
	cfg.Host, cfg.TLS, cfg.Transport = "http://fake", client.TLSConfig{}, h.srv.RoundTripper()
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if req.Method != http.MethodGet {
				h.mu.Lock()
				h.writes = append(h.writes, req.Method+" "+req.URL.Path)
				h.mu.Unlock()
			}
			return rt.RoundTrip(req)
		})
	}
	var err error
	if h.c, err = client.New(cfg); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	if err := crd.Install(ctx, h.c, v1.CustomResourceDefinitions(), crd.Options{}); err != nil {
		t.Fatal(err)
	}
	m, err := manager.New(h.c, manager.Options{Name: "widget-controller", Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if err := setup(m); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	h.widgets = client.For[*v1.Widget](h.c).Namespace("default")
	return h
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// settle lets the bubble's clock run for d, then waits until every
// goroutine of the test is idle: the controller has done what it would.
func settle(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

// takeWrites returns the requests logged since the last call.
func (h *harness) takeWrites() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	w := h.writes
	h.writes = nil
	return w
}

func (h *harness) ready(t *testing.T, name string) *metav1.Condition {
	t.Helper()
	w, err := h.widgets.Get(t.Context(), name, client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ctrlutil.FindStatusCondition(w.Status.Conditions, "Ready")
}

// A 409 on the status write (interceptor.Funcs{SubResourcePatch: ...}
// in controller-runtime's fake client) fails one Reconcile; the retry
// after the backoff sets Ready.
func TestStatusConflictIsRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		h.srv.Faults().Add(fake.Fault{
			Match: fake.Match{Verbs: []string{"patch"}, Resource: "widgets", Subresource: "status"},
			Code:  409, Times: 1,
		})
		if _, err := h.widgets.Create(t.Context(), &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "shop"}, Spec: v1.WidgetSpec{Image: "shop:1.0", Size: "small"}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		settle(time.Minute)
		if c := h.ready(t, "shop"); c == nil || c.Status != metav1.ConditionTrue {
			t.Fatalf("Ready after a conflict on the first status write: %+v, want True", c)
		}
		statusPatches := 0
		for _, w := range h.takeWrites() {
			if w == "PATCH /apis/examples.kubewire.dev/v1/namespaces/default/widgets/shop/status" {
				statusPatches++
			}
		}
		if statusPatches != 2 {
			t.Errorf("%d status patches, want 2 (the refused one and its retry)", statusPatches)
		}
	})
}

// Dropped watches (a restarted API server, a load balancer's idle
// timeout) do not lose a change: the informers resume, and an edit made
// after the drop is reconciled.
func TestChangeAfterDroppedWatchesIsReconciled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		ctx := t.Context()
		w, err := h.widgets.Create(ctx, &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "shop"}, Spec: v1.WidgetSpec{Image: "shop:1.0", Size: "small"}}, client.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		settle(time.Second)
		h.srv.Faults().DropWatches()
		w, err = h.widgets.Get(ctx, w.Name, client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		w.Spec.Image = "shop:2.0"
		if _, err := h.widgets.Update(ctx, w, client.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		settle(time.Minute)
		cm, err := client.For[*corev1.ConfigMap](h.c).Namespace("default").Get(ctx, "shop-config", client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if cm.Data["image"] != "shop:2.0" {
			t.Errorf("ConfigMap after an edit made while the watches were down: %v, want image shop:2.0", cm.Data)
		}
	})
}

// The events the Reconcile records are on the server (where kubectl
// describe finds them), not in a test double: assert them there.
func TestEventsRecorded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		ctx := t.Context()
		if _, err := h.widgets.Create(ctx, &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "shop"}, Spec: v1.WidgetSpec{Image: "shop:1.0", Size: "small"}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		settle(time.Minute)
		list, err := client.For[*eventsv1.Event](h.c).Namespace("default").List(ctx, client.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range list.Items {
			got = append(got, e.Type+" "+e.Reason+" "+e.Regarding.Kind+"/"+e.Regarding.Name+": "+e.Note)
		}
		want := []string{"Normal ConfigMapWritten Widget/shop: ConfigMap shop-config created"}
		if !slices.Equal(got, want) {
			t.Errorf("events %q, want %q", got, want)
		}
	})
}

// A Reconcile with nothing to change writes nothing: the hourly
// RequeueAfter reads the cache and sends no request.
func TestNothingWrittenWhenInStep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		if _, err := h.widgets.Create(t.Context(), &v1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "shop"}, Spec: v1.WidgetSpec{Image: "shop:1.0", Size: "small"}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		settle(time.Minute)
		h.takeWrites()
		settle(3 * time.Hour) // three RequeueAfters
		if w := h.takeWrites(); len(w) != 0 {
			t.Errorf("in step, the controller sent %q", w)
		}
	})
}
