package e2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/e2e/harness"
	"github.com/kubewire/kubewire/envtest"
	"github.com/kubewire/kubewire/webhook"
	gadgetv1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
	gadgetv2 "github.com/kubewire/kubewire/webhook/testdata/api/v2"
)

// gadgetHooks are the test kind's webhooks: defaults (color, replicas),
// a validation of the schedule, the conversion between v1 and v2, and a
// webhook that never answers.
type gadgetHooks struct {
	applied, dryRuns atomic.Int64  // defaulting calls with and without effect
	hangEnded        chan struct{} // a /hang call ended with its request
	maxConverted     atomic.Int64  // the most objects one ConversionReview carried
}

func (g *gadgetHooks) register(t *testing.T, srv *webhook.Server) {
	t.Helper()
	err := srv.Register(
		webhook.Mutating[*gadgetv1.Gadget](webhook.DefaulterFunc[*gadgetv1.Gadget](func(ctx context.Context, o *gadgetv1.Gadget) error {
			if webhook.DryRun(ctx) {
				g.dryRuns.Add(1)
			} else {
				g.applied.Add(1) // a side effect, skipped on dry runs (sideEffects NoneOnDryRun)
			}
			if o.Spec.Color == "" {
				o.Spec.Color = "teal"
			}
			if o.Spec.Replicas == nil {
				one := int32(1)
				o.Spec.Replicas = &one
			}
			return nil
		})),
		webhook.Validating[*gadgetv1.Gadget](webhook.ValidatorFuncs[*gadgetv1.Gadget]{
			Create: func(ctx context.Context, o *gadgetv1.Gadget) (webhook.Warnings, error) { return validGadget(o) },
			Update: func(ctx context.Context, _, o *gadgetv1.Gadget) (webhook.Warnings, error) { return validGadget(o) },
		}),
		webhook.Convert(&gadgetv1.Gadget{}, &gadgetv2.Gadget{}),
		webhook.Admission("/hang", func(ctx context.Context, _ *webhook.AdmissionRequest) *webhook.AdmissionResponse {
			<-ctx.Done() // kube-apiserver gave up: its timeout closed the request
			select {
			case g.hangEnded <- struct{}{}:
			default:
			}
			return webhook.Allowed()
		}),
	)
	if err != nil {
		t.Fatal(err)
	}
}

func validGadget(o *gadgetv1.Gadget) (webhook.Warnings, error) {
	if len(strings.Fields(o.Spec.Schedule)) != 5 {
		return nil, webhook.Invalid(o, webhook.FieldError{Field: "spec.schedule", Value: o.Spec.Schedule, Detail: "a cron schedule has five fields"})
	}
	var w webhook.Warnings
	if o.Spec.Color == "pink" {
		w = append(w, "pink is deprecated")
	}
	return w, nil
}

// conversionCounter records how many objects each ConversionReview had,
// from the server's debug log lines.
type conversionCounter struct{ max *atomic.Int64 }

func (c conversionCounter) Enabled(context.Context, slog.Level) bool { return true }
func (c conversionCounter) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c conversionCounter) WithGroup(string) slog.Handler            { return c }
func (c conversionCounter) Handle(_ context.Context, r slog.Record) error {
	if r.Message == "webhook: conversion" {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "objects" {
				for n := a.Value.Int64(); ; {
					old := c.max.Load()
					if n <= old || c.max.CompareAndSwap(old, n) {
						break
					}
				}
			}
			return true
		})
	}
	return nil
}

// runServer runs a webhook server with the Env's serving options until
// the returned stop is called.
func runServer(t *testing.T, wh *envtest.Webhooks, hooks *gadgetHooks) (*webhook.Server, func()) {
	t.Helper()
	opts, err := wh.ServerOptions()
	if err != nil {
		t.Fatal(err)
	}
	opts.Logger = slog.New(conversionCounter{&hooks.maxConverted})
	srv, err := webhook.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	hooks.register(t, srv)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("webhook server: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return srv, stop
}

func TestWebhooksOnKubeAPIServer(t *testing.T) {
	c := harness.Shared(t, "webhooks", harness.Options{})
	env := c.Env()
	wh, err := env.Webhooks()
	if err != nil {
		t.Fatal(err)
	}
	outer := t
	hooks := &gadgetHooks{hangEnded: make(chan struct{}, 8)}
	srv, stop := runServer(t, wh, hooks)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	start := time.Now()
	if err := wh.Install(ctx, envtest.WebhookInstall{Paths: []string{"testdata/webhooks/manifests.yaml", "testdata/webhooks/hang.yaml", "../webhook/testdata/api/crd"}}); err != nil {
		t.Fatal(err)
	}
	if err := wh.WaitForServer(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("webhooks installed and called in %s", time.Since(start).Round(time.Millisecond))
	kc := realClient(t, c)
	v1s := client.For[*gadgetv1.Gadget](kc).Namespace("default")
	v2s := client.For[*gadgetv2.Gadget](kc).Namespace("default")
	gadget := func(name, schedule string) *gadgetv1.Gadget {
		return &gadgetv1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: gadgetv1.GadgetSpec{Schedule: schedule}}
	}

	t.Run("InvalidRefusedWithTheValidatorsMessage", func(t *testing.T) {
		_, err := v1s.Create(ctx, gadget("bad", "weekly"), client.CreateOptions{})
		want := `admission webhook "vgadget-v1.kubewire.dev" denied the request: Gadget.test.kubewire.dev "bad" is invalid: spec.schedule: Invalid value: "weekly": a cron schedule has five fields`
		var se *client.StatusError
		if !errors.Is(err, client.ErrInvalid) || !errors.As(err, &se) || se.Status.Message != want {
			t.Fatalf("error %v\nwant 422 %q", err, want)
		}
		if d := se.Status.Details; d == nil || len(d.Causes) != 1 || d.Causes[0].Field != "spec.schedule" {
			t.Errorf("details %+v", se.Status.Details)
		}
		if _, err := v1s.Get(ctx, "bad", client.GetOptions{}); !errors.Is(err, client.ErrNotFound) {
			t.Errorf("the refused object exists: %v", err)
		}
	})

	t.Run("DefaultsAppear", func(t *testing.T) {
		g, err := v1s.Create(ctx, gadget("defaulted", "0 * * * *"), client.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g.Spec.Color != "teal" || g.Spec.Replicas == nil || *g.Spec.Replicas != 1 {
			t.Errorf("defaults not applied: %+v", g.Spec)
		}
		// A v2 write is defaulted by the v1 webhook (matchPolicy Equivalent
		// converts it for the webhook, and the patch back).
		g2, err := v2s.Create(ctx, &gadgetv2.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "defaulted-v2"}}, client.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if g2.Spec.Paint != "teal" || *g2.Spec.Replicas != 1 {
			t.Errorf("v2 defaults not applied: %+v", g2.Spec)
		}
	})

	t.Run("DryRunRespected", func(t *testing.T) {
		applied, dry := hooks.applied.Load(), hooks.dryRuns.Load()
		g, err := v1s.Create(ctx, gadget("dry", "0 * * * *"), client.CreateOptions{DryRun: true})
		if err != nil {
			t.Fatal(err)
		}
		if g.Spec.Color != "teal" {
			t.Errorf("a dry run is not defaulted: %+v", g.Spec)
		}
		if _, err := v1s.Get(ctx, "dry", client.GetOptions{}); !errors.Is(err, client.ErrNotFound) {
			t.Errorf("a dry run stored the object: %v", err)
		}
		if hooks.dryRuns.Load() != dry+1 || hooks.applied.Load() != applied {
			t.Errorf("the webhook saw %d dry runs and made %d side effects, want 1 and 0", hooks.dryRuns.Load()-dry, hooks.applied.Load()-applied)
		}
	})

	t.Run("WarningsReachTheClient", func(t *testing.T) {
		var got []string
		var mu sync.Mutex
		cfg := env.Config()
		cfg.WarningHandler = client.WarningHandlerFunc(func(w client.Warning) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, w.Text)
		})
		wk, err := client.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		g := gadget("pink", "0 * * * *")
		g.Spec.Color = "pink"
		if _, err := client.For[*gadgetv1.Gadget](wk).Namespace("default").Create(ctx, g, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 1 || got[0] != "pink is deprecated" {
			t.Errorf("warnings %q", got)
		}
	})

	t.Run("V1ReadsBackAsV2AndTheReverse", func(t *testing.T) {
		g := gadget("hub", "5 4 * * *")
		g.Spec.Color, g.Spec.Tags = "red", []string{"a", "b"}
		if _, err := v1s.Create(ctx, g, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		as2, err := v2s.Get(ctx, "hub", client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		s := as2.Spec.Schedule
		if as2.APIVersion != "test.kubewire.dev/v2" || *s.Minute != "5" || *s.Hour != "4" || s.DayOfMonth != nil || as2.Spec.Paint != "red" {
			t.Errorf("v1 read as v2: %+v %+v", as2.TypeMeta, as2.Spec)
		}
		if !strings.Contains(as2.Annotations[webhook.HubDataAnnotation], `"tags":["a","b"]`) {
			t.Errorf("the tags v2 cannot hold are not kept: %v", as2.Annotations)
		}
		// Written back as v2 with a change: stored v1 has the change and
		// the tags, without the annotation.
		m := "30"
		as2.Spec.Schedule.Minute = &m
		if _, err := v2s.Update(ctx, as2, client.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		back, err := v1s.Get(ctx, "hub", client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if back.Spec.Schedule != "30 4 * * *" || strings.Join(back.Spec.Tags, ",") != "a,b" || back.Annotations[webhook.HubDataAnnotation] != "" {
			t.Errorf("v2 written back, read as v1: %+v %v", back.Spec, back.Annotations)
		}
		// Written as v2, read as v1.
		d := "1"
		if _, err := v2s.Create(ctx, &gadgetv2.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "spoke"},
			Spec: gadgetv2.GadgetSpec{Schedule: gadgetv2.Schedule{DayOfWeek: &d}, Paint: "blue"}}, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		as1, err := v1s.Get(ctx, "spoke", client.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if as1.APIVersion != "test.kubewire.dev/v1" || as1.Spec.Schedule != "* * * * 1" || as1.Spec.Color != "blue" {
			t.Errorf("v2 read as v1: %+v", as1.Spec)
		}
	})

	t.Run("V2ListOfObjectsStoredAsV1", func(t *testing.T) {
		for _, n := range []string{"l1", "l2", "l3"} {
			g := gadget(n, "0 0 * * *")
			g.Labels = map[string]string{"list": "v2"}
			if _, err := v1s.Create(ctx, g, client.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		list, err := v2s.List(ctx, client.ListOptions{LabelSelector: client.MatchLabels(map[string]string{"list": "v2"})})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != 3 {
			t.Fatalf("%d items", len(list.Items))
		}
		for _, g := range list.Items {
			if *g.Spec.Schedule.Minute != "0" || *g.Spec.Schedule.Hour != "0" || g.Spec.Paint != "teal" {
				t.Errorf("%s: %+v", g.Name, g.Spec)
			}
		}
		// kube-apiserver v1.36 encodes lists item by item (streaming list
		// encoding, GA in 1.34), converting each in a review of its own;
		// reviews of several objects are converted too (package webhook's
		// tests, and the fake).
		t.Logf("at most %d objects per ConversionReview", hooks.maxConverted.Load())
	})

	t.Run("NewCertificateKeepsServing", func(t *testing.T) {
		first := servedCertificate(t, wh)
		if err := wh.RotateCertificate(); err != nil {
			t.Fatal(err)
		}
		if err := srv.ReloadCertificates(); err != nil {
			t.Fatal(err)
		}
		rotated := servedCertificate(t, wh)
		if rotated == first {
			t.Fatal("the rotated certificate is not served")
		}
		if _, err := v1s.Create(ctx, gadget("rotated", "0 * * * *"), client.CreateOptions{}); err != nil {
			t.Fatalf("after the rotation: %v", err)
		}
		// Restarted, with another new certificate, on the same port.
		stop()
		if err := wh.RotateCertificate(); err != nil {
			t.Fatal(err)
		}
		runServer(outer, wh, hooks) // serves on for the later subtests
		if servedCertificate(t, wh) == rotated {
			t.Fatal("the restarted server serves the old certificate")
		}
		got, err := v1s.Create(ctx, gadget("restarted", "0 * * * *"), client.CreateOptions{})
		if err != nil {
			t.Fatalf("after the restart: %v", err)
		}
		if got.Spec.Color != "teal" {
			t.Errorf("the restarted server did not default: %+v", got.Spec)
		}
		if _, err := v2s.Get(ctx, "restarted", client.GetOptions{}); err != nil {
			t.Errorf("conversion after the restart: %v", err)
		}
	})

	t.Run("HangingWebhookTimesOut", func(t *testing.T) {
		cms := client.For[*corev1.ConfigMap](kc).Namespace("default")
		_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "hang-fail", Labels: map[string]string{"hang": "fail"}}}, client.CreateOptions{})
		if !errors.Is(err, client.ErrInternal) || !strings.Contains(err.Error(), `failed calling webhook "hang-fail.kubewire.dev"`) || !strings.Contains(err.Error(), "deadline exceeded") {
			t.Errorf("failurePolicy Fail: %v", err)
		}
		if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "hang-ignore", Labels: map[string]string{"hang": "ignore"}}}, client.CreateOptions{}); err != nil {
			t.Errorf("failurePolicy Ignore: %v", err)
		}
		// Each handler ends when kube-apiserver closes its request.
		for i := range 2 {
			select {
			case <-hooks.hangEnded:
			case <-time.After(30 * time.Second):
				t.Fatalf("%d of 2 hanging calls ended with their requests", i)
			}
		}
	})
}

// servedCertificate returns the serial number of the certificate the
// webhook server serves, checked against the Env's authority.
func servedCertificate(t *testing.T, wh *envtest.Webhooks) string {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(wh.CAPEM())
	conn, err := tls.Dial("tcp", wh.Addr(), &tls.Config{RootCAs: pool, ServerName: "127.0.0.1"})
	if err != nil {
		t.Fatalf("the webhook server's certificate: %v", err)
	}
	defer conn.Close()
	return conn.ConnectionState().PeerCertificates[0].SerialNumber.String()
}
