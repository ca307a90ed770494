package webhooktest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/fake"
	"github.com/kubewire/kubewire/fake/fakeclient"
	"github.com/kubewire/kubewire/webhook"
	v1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
	v2 "github.com/kubewire/kubewire/webhook/testdata/api/v2"
	"github.com/kubewire/kubewire/webhook/webhooktest"
)

// configurations are webhook manifests as kubewire-gen writes them,
// calling a Service: Serve points them at the test's server.
const configurations = `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /mutate-test-kubewire-dev-v1-gadget}
  failurePolicy: Fail
  name: mgadget.kubewire.dev
  rules:
  - apiGroups: [test.kubewire.dev]
    apiVersions: [v1]
    operations: [CREATE, UPDATE]
    resources: [gadgets]
  sideEffects: None
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- admissionReviewVersions: [v1]
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /validate-test-kubewire-dev-v1-gadget}
  failurePolicy: Fail
  name: vgadget.kubewire.dev
  rules:
  - apiGroups: [test.kubewire.dev]
    apiVersions: [v1]
    operations: [CREATE, UPDATE]
    resources: [gadgets]
  sideEffects: None
`

// The fake calls the test's hooks for the writes the configurations
// match, and converts through its conversion webhook: a default set, a
// refusal with the hook's message, a hub read as its spoke.
func TestServeOnTheFake(t *testing.T) {
	srv, cfg := fakeclient.Start(fake.Options{})
	defer srv.Close()
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	webhooktest.Serve(t, c, webhooktest.Install{Manifests: [][]byte{[]byte(configurations)}, Paths: []string{"../testdata/api/crd"}},
		webhook.Mutating[*v1.Gadget](webhook.DefaulterFunc[*v1.Gadget](func(_ context.Context, g *v1.Gadget) error {
			if g.Spec.Color == "" {
				g.Spec.Color = "blue"
			}
			return nil
		})),
		webhook.Validating[*v1.Gadget](webhook.ValidatorFuncs[*v1.Gadget]{Create: func(_ context.Context, g *v1.Gadget) (webhook.Warnings, error) {
			if g.Spec.Color == "plaid" {
				return nil, webhook.Invalid(g, webhook.FieldError{Field: "spec.color", Value: g.Spec.Color, Detail: "not a color"})
			}
			return nil, nil
		}}),
		webhook.Convert(&v1.Gadget{}, &v2.Gadget{}),
	)
	ctx := t.Context()
	gadgets := client.For[*v1.Gadget](c).Namespace("default")
	g, err := gadgets.Create(ctx, &v1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "g"}, Spec: v1.GadgetSpec{Schedule: "0 * * * *"}}, client.CreateOptions{})
	if err != nil || g.Spec.Color != "blue" {
		t.Fatalf("create: color %q, %v; want the defaulter's blue", g.Spec.Color, err)
	}
	_, err = gadgets.Create(ctx, &v1.Gadget{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: v1.GadgetSpec{Schedule: "0 * * * *", Color: "plaid"}}, client.CreateOptions{})
	if !errors.Is(err, client.ErrInvalid) || !strings.Contains(err.Error(), "not a color") {
		t.Fatalf("create plaid: %v; want the validator's 422", err)
	}
	spoke, err := client.For[*v2.Gadget](c).Namespace("default").Get(ctx, "g", client.GetOptions{})
	if err != nil || spoke.Spec.Paint != "blue" || spoke.Spec.Schedule.Minute == nil || *spoke.Spec.Schedule.Minute != "0" || spoke.Spec.Schedule.Hour != nil {
		t.Fatalf("read as v2: %+v, %v; want paint blue, minute 0 and no hour (v2 splits the schedule)", spoke.Spec, err)
	}
}
