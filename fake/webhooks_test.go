package fake_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"

	admregv1 "github.com/kubewire/kubewire/api/admissionregistration/v1"
	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/client/crd"
	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/webhook"
	gadgetv1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
	gadgetv2 "github.com/kubewire/kubewire/webhook/testdata/api/v2"
)

// webhookEnv is a fake server calling a webhook server of the test's
// over TLS, as kube-apiserver calls webhooks.
type webhookEnv struct {
	srv   *fake.Server
	c     *client.Client
	hooks *webhook.Server
	url   string
	ca    []byte
	calls sync.Map // path -> *int
}

const gadgetWebhooks = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: gadget-mutating}
webhooks:
- name: mgadget-v1.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /mutate-test-kubewire-dev-v1-gadget}}
  rules: [{apiGroups: [test.kubewire.dev], apiVersions: [v1], resources: [gadgets], operations: [CREATE, UPDATE]}]
  sideEffects: NoneOnDryRun
  admissionReviewVersions: [v1]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: gadget-validating}
webhooks:
- name: vgadget-v1.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /validate-test-kubewire-dev-v1-gadget}}
  rules: [{apiGroups: [test.kubewire.dev], apiVersions: [v1], resources: [gadgets], operations: [CREATE, UPDATE]}]
  sideEffects: None
  admissionReviewVersions: [v1]
`

func startWebhookEnv(t *testing.T, opts fake.Options, manifests string) *webhookEnv {
	t.Helper()
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hooks, err := webhook.NewServer(webhook.Options{CertDir: dir, Listener: ln})
	if err != nil {
		t.Fatal(err)
	}
	e := &webhookEnv{hooks: hooks, url: "https://" + ln.Addr().String(), ca: certs.CAPEM}
	err = hooks.Register(
		webhook.Mutating[*gadgetv1.Gadget](webhook.DefaulterFunc[*gadgetv1.Gadget](func(ctx context.Context, g *gadgetv1.Gadget) error {
			if g.Spec.Color == "" {
				g.Spec.Color = "teal"
			}
			if webhook.DryRun(ctx) {
				g.Spec.Tags = append(g.Spec.Tags, "dry-run-seen")
			}
			return nil
		})),
		webhook.Validating[*gadgetv1.Gadget](webhook.ValidatorFuncs[*gadgetv1.Gadget]{
			Create: func(ctx context.Context, g *gadgetv1.Gadget) (webhook.Warnings, error) {
				if len(strings.Fields(g.Spec.Schedule)) != 5 {
					return nil, webhook.Invalid(g, webhook.FieldError{Field: "spec.schedule", Value: g.Spec.Schedule, Detail: "a cron schedule has five fields"})
				}
				if g.Spec.Color == "pink" {
					return webhook.Warnings{"pink is deprecated"}, nil
				}
				return nil, nil
			},
		}),
		webhook.Convert(&gadgetv1.Gadget{}, &gadgetv2.Gadget{}),
		webhook.Admission("/hang", func(ctx context.Context, _ *webhook.AdmissionRequest) *webhook.AdmissionResponse {
			<-ctx.Done()
			return webhook.Allowed()
		}),
		patchHook("/patch-test-fails", `[{"op":"test","path":"/spec/color","value":"never"}]`),
		patchHook("/patch-undecodable", `{"op":"add"}`),
		patchHook("/patch-daily", `[{"op":"replace","path":"/spec/schedule","value":"@daily"}]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- hooks.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	var cfg client.Config
	e.srv, cfg = fakeclient.Start(opts)
	cfg.Retry.MaxAttempts = 1 // a webhook's failure is a 500, final here
	t.Cleanup(e.srv.Close)
	if e.c, err = client.New(cfg); err != nil {
		t.Fatal(err)
	}
	crdYAML, err := gadgetCRD()
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := webhook.PointAt([]byte(manifests+"---\n"+string(crdYAML)), e.url, e.ca)
	if err != nil {
		t.Fatal(err)
	}
	e.install(t, all)
	return e
}

func gadgetCRD() ([]byte, error) {
	return codec.JSONToYAML(gadgetv1.CustomResourceDefinitions()[0])
}

// install creates the configurations and definitions of manifests.
func (e *webhookEnv) install(t *testing.T, manifests []byte) {
	t.Helper()
	ctx := context.Background()
	for _, doc := range codec.SplitYAMLDocuments(manifests) {
		var head metav1.TypeMeta
		if err := codec.DecodeYAML(doc, &head); err != nil {
			t.Fatal(err)
		}
		var err error
		switch head.Kind {
		case "CustomResourceDefinition":
			err = crd.Install(ctx, e.c, [][]byte{doc}, crd.Options{})
		case "MutatingWebhookConfiguration":
			var m admregv1.MutatingWebhookConfiguration
			if err = codec.DecodeYAML(doc, &m); err == nil {
				_, err = client.For[*admregv1.MutatingWebhookConfiguration](e.c).Create(ctx, &m, client.CreateOptions{})
			}
		case "ValidatingWebhookConfiguration":
			var v admregv1.ValidatingWebhookConfiguration
			if err = codec.DecodeYAML(doc, &v); err == nil {
				_, err = client.For[*admregv1.ValidatingWebhookConfiguration](e.c).Create(ctx, &v, client.CreateOptions{})
			}
		}
		if err != nil {
			t.Fatalf("install %s: %v", head.Kind, err)
		}
	}
}

func gadget(name, schedule string) *gadgetv1.Gadget {
	return &gadgetv1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}, Spec: gadgetv1.GadgetSpec{Schedule: schedule}}
}

// The fake calls the webhooks its configurations register, as
// kube-apiserver does (e2e/TestWebhooksOnKubeAPIServer is the same
// story on the real server).
func TestFakeCallsAdmissionWebhooks(t *testing.T) {
	e := startWebhookEnv(t, fake.Options{}, gadgetWebhooks)
	ctx := context.Background()
	v1s := client.For[*gadgetv1.Gadget](e.c).Namespace("default")
	v2s := client.For[*gadgetv2.Gadget](e.c).Namespace("default")

	_, err := v1s.Create(ctx, gadget("bad", "weekly"), client.CreateOptions{})
	want := `admission webhook "vgadget-v1.kubewire.dev" denied the request: Gadget.test.kubewire.dev "bad" is invalid: spec.schedule: Invalid value: "weekly": a cron schedule has five fields`
	var se *client.StatusError
	if !errors.Is(err, client.ErrInvalid) || !errors.As(err, &se) || se.Status.Message != want || se.Status.Details == nil || se.Status.Details.Causes[0].Field != "spec.schedule" {
		t.Errorf("invalid create: %v", err)
	}
	g, err := v1s.Create(ctx, gadget("good", "0 * * * *"), client.CreateOptions{})
	if err != nil || g.Spec.Color != "teal" {
		t.Fatalf("defaulted create: %v %+v", err, g)
	}
	// A v2 create is defaulted and validated by the v1 webhooks
	// (matchPolicy Equivalent): converted for them, and back.
	g2, err := v2s.Create(ctx, &gadgetv2.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "v2"}}, client.CreateOptions{})
	if err != nil || g2.Spec.Paint != "teal" {
		t.Fatalf("v2 create: %v %+v", err, g2)
	}
	dry, err := v1s.Create(ctx, gadget("dry", "0 * * * *"), client.CreateOptions{DryRun: true})
	if err != nil || strings.Join(dry.Spec.Tags, ",") != "dry-run-seen" {
		t.Errorf("dry run: %v %+v", err, dry)
	}
	if _, err := v1s.Get(ctx, "dry", client.GetOptions{}); !errors.Is(err, client.ErrNotFound) {
		t.Errorf("a dry run stored its object: %v", err)
	}
	var warnings []string
	cfg := fakeclient.Config(e.srv)
	cfg.WarningHandler = client.WarningHandlerFunc(func(w client.Warning) { warnings = append(warnings, w.Text) })
	wc, _ := client.New(cfg)
	pink := gadget("pink", "0 * * * *")
	pink.Spec.Color = "pink"
	if _, err := client.For[*gadgetv1.Gadget](wc).Namespace("default").Create(ctx, pink, client.CreateOptions{}); err != nil || len(warnings) != 1 || warnings[0] != "pink is deprecated" {
		t.Errorf("warnings %q, %v", warnings, err)
	}
	// Webhooks do not see writes their rules do not match.
	if _, err := client.For[*corev1.ConfigMap](e.c).Namespace("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}, client.CreateOptions{}); err != nil {
		t.Error(err)
	}
}

func TestFakeCallsConversionWebhooks(t *testing.T) {
	e := startWebhookEnv(t, fake.Options{}, gadgetWebhooks)
	ctx := context.Background()
	v1s := client.For[*gadgetv1.Gadget](e.c).Namespace("default")
	v2s := client.For[*gadgetv2.Gadget](e.c).Namespace("default")
	hub := gadget("hub", "5 4 * * *")
	hub.Spec.Tags = []string{"a", "b"}
	hub.Labels = map[string]string{"set": "x"}
	if _, err := v1s.Create(ctx, hub, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	w, err := v2s.Watch(ctx, client.WatchOptions{LabelSelector: client.MatchLabels(map[string]string{"set": "x"})})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	as2, err := v2s.Get(ctx, "hub", client.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if as2.APIVersion != "test.kubewire.dev/v2" || *as2.Spec.Schedule.Minute != "5" || as2.Spec.Paint != "teal" || !strings.Contains(as2.Annotations[webhook.HubDataAnnotation], `"tags":["a","b"]`) {
		t.Errorf("v1 read as v2: %+v %+v", as2.Spec, as2.Annotations)
	}
	m := "30"
	as2.Spec.Schedule.Minute = &m
	if _, err := v2s.Update(ctx, as2, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := v1s.Get(ctx, "hub", client.GetOptions{})
	if err != nil || back.Spec.Schedule != "30 4 * * *" || strings.Join(back.Spec.Tags, ",") != "a,b" {
		t.Errorf("v2 written back, read as v1: %v %+v", err, back)
	}
	for range 2 {
		l1 := gadget("l", "0 0 * * *")
		l1.GenerateName, l1.Name = "l-", ""
		l1.Labels = map[string]string{"set": "x"}
		if _, err := v1s.Create(ctx, l1, client.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := v2s.List(ctx, client.ListOptions{LabelSelector: client.MatchLabels(map[string]string{"set": "x"})})
	if err != nil || len(list.Items) != 3 {
		t.Fatalf("v2 list: %v %d", err, len(list.Items))
	}
	for _, it := range list.Items {
		if it.APIVersion != "test.kubewire.dev/v2" || it.Spec.Schedule.Hour == nil {
			t.Errorf("listed %+v %+v", it.TypeMeta, it.Spec)
		}
	}
	n := 0
	for ev, err := range w.Events() {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Object.APIVersion != "test.kubewire.dev/v2" || ev.Object.Spec.Schedule.Hour == nil {
			t.Errorf("watch event %s: %+v", ev.Type, ev.Object.Spec)
		}
		if n++; n == 4 { // the hub's add and update, the two list objects
			break
		}
	}
	// A schedule v2 cannot hold (updates are not validated here): the
	// conversion webhook's failure is the read's, as kube-apiserver
	// answers it.
	back.Spec.Schedule = "@daily"
	if _, err := v1s.Update(ctx, back, client.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = v2s.Get(ctx, "hub", client.GetOptions{})
	want := `Internal error occurred: conversion webhook for test.kubewire.dev/v1, Kind=Gadget failed: object 1 of 1: Gadget default/hub: converting test.kubewire.dev/v1 to test.kubewire.dev/v2: schedule "@daily" does not have five fields`
	if !errors.Is(err, client.ErrInternal) || !strings.HasSuffix(err.Error(), ": "+want) {
		t.Errorf("a failed conversion: %v\nwant %s", err, want)
	}
	if _, err := v2s.List(ctx, client.ListOptions{}); !errors.Is(err, client.ErrInternal) {
		t.Errorf("a list with an object that does not convert: %v", err)
	}
}

func TestFakeWebhookFailures(t *testing.T) {
	const hanging = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: hanging}
webhooks:
- name: hang-fail.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /hang}}
  rules: [{apiGroups: [""], apiVersions: [v1], resources: [configmaps], operations: [CREATE]}]
  objectSelector: {matchLabels: {hang: fail}}
  sideEffects: None
  timeoutSeconds: 1
  admissionReviewVersions: [v1]
- name: hang-ignore.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /hang}}
  rules: [{apiGroups: [""], apiVersions: [v1], resources: [configmaps], operations: [CREATE]}]
  objectSelector: {matchLabels: {hang: ignore}}
  failurePolicy: Ignore
  sideEffects: None
  timeoutSeconds: 1
  admissionReviewVersions: [v1]
- name: elsewhere.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /validate-test-kubewire-dev-v1-gadget}}
  rules: [{apiGroups: [""], apiVersions: [v1], resources: [configmaps], operations: [CREATE]}]
  namespaceSelector: {matchLabels: {team: elsewhere}}
  sideEffects: None
  admissionReviewVersions: [v1]
`
	e := startWebhookEnv(t, fake.Options{}, hanging)
	ctx := context.Background()
	cms := client.For[*corev1.ConfigMap](e.c).Namespace("default")
	_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "f", Labels: map[string]string{"hang": "fail"}}}, client.CreateOptions{})
	if !errors.Is(err, client.ErrInternal) || !strings.Contains(err.Error(), `Internal error occurred: failed calling webhook "hang-fail.kubewire.dev": failed to call webhook: Post "`+e.url+`/hang?timeout=1s": context deadline exceeded`) {
		t.Errorf("failurePolicy Fail: %v", err)
	}
	if _, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "i", Labels: map[string]string{"hang": "ignore"}}}, client.CreateOptions{}); err != nil {
		t.Errorf("failurePolicy Ignore: %v", err)
	}
	// The namespace selector: default has no team label; a namespace that
	// does gets the webhook, which decodes a ConfigMap as a Gadget and
	// refuses it.
	if _, err := client.For[*corev1.Namespace](e.c).Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "elsewhere", Labels: map[string]string{"team": "elsewhere"}}}, client.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = client.For[*corev1.ConfigMap](e.c).Namespace("elsewhere").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "x"}}, client.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), `admission webhook "elsewhere.kubewire.dev" denied the request: this webhook admits test.kubewire.dev/v1 Gadget objects`) {
		t.Errorf("namespace selector: %v", err)
	}
}

// A webhook named by its Service is called at the address
// Options.WebhookServices gives; without one, the failure policy
// applies.
func TestFakeWebhookServices(t *testing.T) {
	certs, _ := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	_ = certs
	e := startWebhookEnv(t, fake.Options{}, "")
	host := strings.TrimPrefix(e.url, "https://")
	srv, cfg := fakeclient.Start(fake.Options{WebhookServices: map[string]string{"system/webhook-service": host}})
	defer srv.Close()
	c, _ := client.New(cfg)
	withCA, _, err := webhook.InjectCABundle([]byte(gadgetWebhooks), e.ca)
	if err != nil {
		t.Fatal(err)
	}
	crdYAML, _ := gadgetCRD()
	crdWithCA, _, _ := webhook.InjectCABundle(crdYAML, e.ca)
	other := &webhookEnv{srv: srv, c: c}
	other.install(t, append(append(withCA, "---\n"...), crdWithCA...))
	_, err = client.For[*gadgetv1.Gadget](c).Namespace("default").Create(context.Background(), gadget("bad", "x"), client.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), "denied the request") {
		t.Errorf("through the Service: %v", err)
	}
	srv2, cfg2 := fakeclient.Start(fake.Options{})
	defer srv2.Close()
	c2, _ := client.New(cfg2)
	(&webhookEnv{srv: srv2, c: c2}).install(t, append(append(withCA, "---\n"...), crdWithCA...))
	_, err = client.For[*gadgetv1.Gadget](c2).Namespace("default").Create(context.Background(), gadget("g", "* * * * *"), client.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), `failed calling webhook "mgadget-v1.kubewire.dev": failed to call webhook: service system/webhook-service (port 443) is not reachable from the fake server`) {
		t.Errorf("an unmapped Service: %v", err)
	}
}

// A write whose object cannot be converted to the version a webhook
// registered is refused with the conversion's error, as kube-apiserver
// v1.36.3's dispatchers answer it (the mutating one wraps it twice), not
// as the admission webhook's failure: the webhook is never called, and
// its failurePolicy Ignore does not apply.
func TestFakeConversionFailureBeforeAWebhook(t *testing.T) {
	const v2Only = `apiVersion: admissionregistration.k8s.io/v1
kind: %s
metadata: {name: v2-only}
webhooks:
- name: v2-only.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /hang}}
  rules: [{apiGroups: [test.kubewire.dev], apiVersions: [v2], resources: [gadgets], operations: [CREATE]}]
  failurePolicy: Ignore
  sideEffects: None
  timeoutSeconds: 1
  admissionReviewVersions: [v1]
`
	const conversion = `conversion webhook for test.kubewire.dev/v1, Kind=Gadget failed: object 1 of 1: Gadget default/daily: converting test.kubewire.dev/v1 to test.kubewire.dev/v2: schedule "@daily" does not have five fields`
	for _, tc := range []struct {
		kind, want string
	}{
		{"ValidatingWebhookConfiguration", "Internal error occurred: " + conversion},
		{"MutatingWebhookConfiguration", "Internal error occurred: Internal error occurred: " + conversion},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			e := startWebhookEnv(t, fake.Options{}, strings.Replace(v2Only, "%s", tc.kind, 1))
			v1s := client.For[*gadgetv1.Gadget](e.c).Namespace("default")
			_, err := v1s.Create(context.Background(), gadget("daily", "@daily"), client.CreateOptions{})
			var se *client.StatusError
			if !errors.Is(err, client.ErrInternal) || !errors.As(err, &se) {
				t.Fatalf("create: %v", err)
			}
			if se.Status.Message != tc.want || se.Status.Reason != "InternalError" || se.Status.Code != 500 {
				t.Errorf("got %d %s %q\nwant %q", se.Status.Code, se.Status.Reason, se.Status.Message, tc.want)
			}
			if strings.Contains(se.Status.Message, "v2-only.kubewire.dev") {
				t.Errorf("the webhook is blamed: %s", se.Status.Message)
			}
			if _, err := v1s.Create(context.Background(), gadget("hourly", "0 * * * *"), client.CreateOptions{}); err != nil {
				t.Errorf("a create that converts, its webhook failing with policy Ignore: %v", err)
			}
		})
	}
}

// A conversion webhook that cannot be reached fails the write with the
// transport's error after kube-apiserver's "conversion webhook for
// GROUP/VERSION, Kind=KIND failed: ", without admission's "failed to
// call webhook".
func TestFakeUnreachableConversionWebhook(t *testing.T) {
	e := startWebhookEnv(t, fake.Options{}, "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "https://" + ln.Addr().String()
	ln.Close()
	ctx := context.Background()
	crdYAML, err := gadgetCRD()
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := webhook.PointAt(crdYAML, gone, e.ca)
	if err != nil {
		t.Fatal(err)
	}
	if err := crd.Install(ctx, e.c, [][]byte{all}, crd.Options{}); err != nil {
		t.Fatal(err)
	}
	_, err = client.For[*gadgetv2.Gadget](e.c).Namespace("default").Create(ctx, &gadgetv2.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "v2"}}, client.CreateOptions{})
	want := `Internal error occurred: conversion webhook for test.kubewire.dev/v2, Kind=Gadget failed: Post "` + gone + `/convert?timeout=30s": dial tcp `
	var se *client.StatusError
	if !errors.Is(err, client.ErrInternal) || !errors.As(err, &se) || !strings.HasPrefix(se.Status.Message, want) {
		t.Errorf("create through an unreachable conversion webhook: %v\nwant prefix %s", err, want)
	}
}

// patchHook is a mutating webhook at path that allows every request
// with the JSON patch ops, as is.
func patchHook(path, ops string) *webhook.Hook {
	return webhook.Admission(path, func(context.Context, *webhook.AdmissionRequest) *webhook.AdmissionResponse {
		r := webhook.Allowed()
		jp := webhook.PatchTypeJSONPatch
		r.Patch, r.PatchType = []byte(ops), &jp
		return r
	})
}

// A mutating webhook's patch fails the write as kube-apiserver v1.36.3's
// dispatcher fails it: a patch that does not apply is an internal error
// whatever the failurePolicy; an undecodable one is the webhook's
// failure, which policy Ignore lets through; a patched object that does
// not convert back to the request's version is the conversion's error,
// a 500 with only its message, the webhook not named.
func TestFakeMutatingWebhookPatchFailures(t *testing.T) {
	const hooks = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata: {name: patches}
webhooks:
- name: test-fails.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /patch-test-fails}}
  rules: [{apiGroups: [test.kubewire.dev], apiVersions: [v1], resources: [gadgets], operations: [CREATE]}]
  objectSelector: {matchLabels: {patch: test-fails}}
  failurePolicy: Ignore
  sideEffects: None
  admissionReviewVersions: [v1]
- name: undecodable-ignore.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /patch-undecodable}}
  rules: [{apiGroups: [test.kubewire.dev], apiVersions: [v1], resources: [gadgets], operations: [CREATE]}]
  objectSelector: {matchLabels: {patch: undecodable-ignore}}
  failurePolicy: Ignore
  sideEffects: None
  admissionReviewVersions: [v1]
- name: undecodable-fail.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /patch-undecodable}}
  rules: [{apiGroups: [test.kubewire.dev], apiVersions: [v1], resources: [gadgets], operations: [CREATE]}]
  objectSelector: {matchLabels: {patch: undecodable-fail}}
  sideEffects: None
  admissionReviewVersions: [v1]
- name: daily.kubewire.dev
  clientConfig: {service: {name: webhook-service, namespace: system, path: /patch-daily}}
  rules: [{apiGroups: [test.kubewire.dev], apiVersions: [v1], resources: [gadgets], operations: [CREATE]}]
  objectSelector: {matchLabels: {patch: daily}}
  failurePolicy: Ignore
  matchPolicy: Equivalent
  sideEffects: None
  admissionReviewVersions: [v1]
`
	e := startWebhookEnv(t, fake.Options{}, hooks)
	ctx := context.Background()
	v1s := client.For[*gadgetv1.Gadget](e.c).Namespace("default")
	labelled := func(name, patch string) *gadgetv1.Gadget {
		g := gadget(name, "0 * * * *")
		g.Labels = map[string]string{"patch": patch}
		return g
	}
	status := func(t *testing.T, err error) *client.StatusError {
		t.Helper()
		var se *client.StatusError
		if !errors.As(err, &se) {
			t.Fatalf("want a StatusError, got %v", err)
		}
		return se
	}

	_, err := v1s.Create(ctx, labelled("test-fails", "test-fails"), client.CreateOptions{})
	se := status(t, err)
	if se.Status.Code != 500 || se.Status.Reason != "InternalError" || !strings.HasPrefix(se.Status.Message, "Internal error occurred: ") || strings.Contains(se.Status.Message, "failed calling webhook") {
		t.Errorf("a patch that does not apply, policy Ignore: %d %s %q", se.Status.Code, se.Status.Reason, se.Status.Message)
	}

	if _, err := v1s.Create(ctx, labelled("undecodable-ignore", "undecodable-ignore"), client.CreateOptions{}); err != nil {
		t.Errorf("an undecodable patch, policy Ignore: %v", err)
	}
	_, err = v1s.Create(ctx, labelled("undecodable-fail", "undecodable-fail"), client.CreateOptions{})
	se = status(t, err)
	if se.Status.Code != 500 || !strings.Contains(se.Status.Message, `failed calling webhook "undecodable-fail.kubewire.dev": received undecodable patch in webhook response`) {
		t.Errorf("an undecodable patch, policy Fail: %d %q", se.Status.Code, se.Status.Message)
	}

	// Created at v2, the webhook sees v1 and sets a schedule v2 cannot
	// hold: converting back fails.
	g2 := &gadgetv2.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "daily", Labels: map[string]string{"patch": "daily"}}}
	_, err = client.For[*gadgetv2.Gadget](e.c).Namespace("default").Create(ctx, g2, client.CreateOptions{})
	se = status(t, err)
	const conversion = `conversion webhook for test.kubewire.dev/v1, Kind=Gadget failed: object 1 of 1: Gadget default/daily: converting test.kubewire.dev/v1 to test.kubewire.dev/v2: schedule "@daily" does not have five fields`
	if se.Status.Code != 500 || se.Status.Reason != "" || se.Status.Message != conversion {
		t.Errorf("a patched object that does not convert back: %d %q %q\nwant 500 \"\" %q", se.Status.Code, se.Status.Reason, se.Status.Message, conversion)
	}
}
