package webhook_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/kubewire/kubewire/webhook"
	v1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
	v2 "github.com/kubewire/kubewire/webhook/testdata/api/v2"
)

func Example() {
	defaults := webhook.DefaulterFunc[*v1.Gadget](func(ctx context.Context, g *v1.Gadget) error {
		if g.Spec.Color == "" {
			g.Spec.Color = "teal"
		}
		return nil
	})
	validate := webhook.ValidatorFuncs[*v1.Gadget]{
		Create: func(ctx context.Context, g *v1.Gadget) (webhook.Warnings, error) {
			if len(strings.Fields(g.Spec.Schedule)) != 5 {
				return nil, webhook.Invalid(g, webhook.FieldError{Field: "spec.schedule", Value: g.Spec.Schedule, Detail: "want five fields"})
			}
			return nil, nil
		},
	}
	srv, err := webhook.NewServer(webhook.Options{Addr: ":9443", CertDir: "/tmp/k8s-webhook-server/serving-certs"})
	if err != nil {
		log.Fatal(err)
	}
	err = srv.Register(
		webhook.Mutating[*v1.Gadget](defaults),
		webhook.Validating[*v1.Gadget](validate),
		webhook.Convert(&v1.Gadget{}, &v2.Gadget{}),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(srv.Paths())
	// srv.Run(ctx) serves until ctx ends.

	// Output:
	// [/convert /mutate-test-kubewire-dev-v1-gadget /validate-test-kubewire-dev-v1-gadget]
}

func ExampleJSONPatch() {
	original := []byte(`{"spec":{"schedule":"* * * * *","future":1}}`)  // as kube-apiserver sent it
	before := []byte(`{"spec":{"schedule":"* * * * *","color":""}}`)    // decoded and encoded again
	after := []byte(`{"spec":{"schedule":"* * * * *","color":"teal"}}`) // once defaulted
	ops, _ := webhook.JSONPatch(original, before, after)
	fmt.Printf("%+v\n", ops)
	// Output:
	// [{Op:add Path:/spec/color Value:teal}]
}
