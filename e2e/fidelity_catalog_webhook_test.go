package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/webhook"
	gadgetv1 "github.com/kubewire/kubewire/webhook/testdata/api/v1"
	gadgetv2 "github.com/kubewire/kubewire/webhook/testdata/api/v2"
)

// The webhook scenario: one webhook server in the test process, called
// by both targets (the fake over loopback, kube-apiserver too): a
// defaulting and a validating webhook, and the conversion of package
// webhook's test kind Gadget (test.kubewire.dev, v1 hub and v2).

// startFidelityWebhooks serves the Gadget's webhooks until the test ends
// and returns the catalog's variables hookURL and hookCA.
func startFidelityWebhooks(t *testing.T) map[string]string {
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
	srv, err := webhook.NewServer(webhook.Options{CertDir: dir, Listener: ln})
	if err != nil {
		t.Fatal(err)
	}
	err = srv.Register(
		webhook.Mutating[*gadgetv1.Gadget](webhook.DefaulterFunc[*gadgetv1.Gadget](func(ctx context.Context, g *gadgetv1.Gadget) error {
			if g.Spec.Color == "" {
				g.Spec.Color = "teal"
			}
			return nil
		})),
		webhook.Validating[*gadgetv1.Gadget](webhook.ValidatorFuncs[*gadgetv1.Gadget]{
			Create: func(ctx context.Context, g *gadgetv1.Gadget) (webhook.Warnings, error) {
				var w webhook.Warnings
				if g.Spec.Color == "pink" {
					w = append(w, "pink is deprecated")
				}
				if len(strings.Fields(g.Spec.Schedule)) != 5 {
					return w, webhook.Invalid(g, webhook.FieldError{Field: "spec.schedule", Value: g.Spec.Schedule, Detail: "a cron schedule has five fields"})
				}
				return w, nil
			},
		}),
		webhook.Convert(&gadgetv1.Gadget{}, &gadgetv2.Gadget{}),
		fidelityPatchHook("/patch-test-fails", `[{"op":"test","path":"/spec/color","value":"never"}]`),
		fidelityPatchHook("/patch-undecodable", `{"op":"add"}`),
		fidelityPatchHook("/patch-daily", `[{"op":"replace","path":"/spec/schedule","value":"@daily"}]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	return map[string]string{"hookURL": "https://" + ln.Addr().String(), "hookCA": base64.StdEncoding.EncodeToString(certs.CAPEM)}
}

// fidelityGadgetCRD is the Gadget's generated definition with its
// conversion webhook at the test's server.
func fidelityGadgetCRD() string {
	j, err := codec.YAMLToJSON(gadgetv1.CustomResourceDefinitions()[0])
	if err != nil {
		panic(err)
	}
	var m map[string]any
	if err := json.Unmarshal(j, &m); err != nil {
		panic(err)
	}
	m["spec"].(map[string]any)["conversion"] = map[string]any{"strategy": "Webhook", "webhook": map[string]any{
		"conversionReviewVersions": []string{"v1"},
		"clientConfig":             map[string]any{"url": "${hookURL}/convert", "caBundle": "${hookCA}"},
	}}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func hookConfig(kind, name, hook, path string) string {
	return `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"` + kind + `","metadata":{"name":"` + name + `"},"webhooks":[{"name":"` + hook + `",` +
		`"clientConfig":{"url":"${hookURL}` + path + `","caBundle":"${hookCA}"},` +
		`"rules":[{"apiGroups":["test.kubewire.dev"],"apiVersions":["v1"],"resources":["gadgets"],"operations":["CREATE","UPDATE"]}],` +
		`"sideEffects":"None","admissionReviewVersions":["v1"],"timeoutSeconds":5}]}`
}

func webhookScenario(c *catalog) {
	c.begin("webhooks", "fid-hooks")
	crds := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	c.post("create CRD with a conversion webhook", crds, fidelityGadgetCRD()).onlyCode()
	c.waitFor("established", crds+"/gadgets.test.kubewire.dev", established)
	v1 := "/apis/test.kubewire.dev/v1/namespaces/${ns}/gadgets"
	v2 := "/apis/test.kubewire.dev/v2/namespaces/${ns}/gadgets"
	c.waitFor("served", v1, codeIs(200))
	mutating := "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations"
	validating := "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations"
	c.post("create MutatingWebhookConfiguration", mutating, hookConfig("MutatingWebhookConfiguration", "fid-gadget-mutating", "mgadget.fid.example.com", "/mutate-test-kubewire-dev-v1-gadget"))
	c.post("create ValidatingWebhookConfiguration", validating, hookConfig("ValidatingWebhookConfiguration", "fid-gadget-validating", "vgadget.fid.example.com", "/validate-test-kubewire-dev-v1-gadget"))
	gadget := func(name, schedule, extra string) string {
		return `{"apiVersion":"test.kubewire.dev/v1","kind":"Gadget","metadata":{"name":"` + name + `"},"spec":{"schedule":"` + schedule + `"` + extra + `}}`
	}
	// kube-apiserver calls new configurations after a moment.
	s := c.add("wait: webhooks called", "POST", v1+"?dryRun=All", gadget("probe", "weekly", ""))
	s.wait = codeIs(422)
	s = c.add("wait: defaults applied", "POST", v1+"?dryRun=All", gadget("probe", "* * * * *", ""))
	s.wait = func(code int, body any) bool {
		v, ok := lookupPath(body, "spec.color")
		return code == 201 && ok && v == "teal"
	}
	c.post("invalid refused by the validating webhook", v1, gadget("bad", "weekly", ""))
	c.post("defaults patched in by the mutating webhook", v1, gadget("hub", "5 4 * * *", `,"tags":["a","b"]`))
	c.post("dry run defaulted", v1+"?dryRun=All", gadget("dry", "0 * * * *", ""))
	c.post("warning of the validating webhook", v1, gadget("pink", "0 * * * *", `,"color":"pink"`))
	c.post("v2 create defaulted through v1 (matchPolicy Equivalent)", v2, `{"apiVersion":"test.kubewire.dev/v2","kind":"Gadget","metadata":{"name":"spoke"},"spec":{"schedule":{"dayOfWeek":"1"}}}`)
	c.get("v1 object read as v2 (conversion)", v2+"/hub")
	c.get("v2 object read as v1 (conversion)", v1+"/spoke")
	c.get("list as v2", v2)
	c.patch("merge patch through v2", v2+"/hub", ctMerge, `{"spec":{"paint":"green"}}`)
	c.get("v1 after the v2 patch keeps the tags", v1+"/hub")
	patchFailures(c, v1, v2, mutating)
	c.del("delete MutatingWebhookConfiguration", mutating+"/fid-gadget-mutating", "")
	c.del("delete ValidatingWebhookConfiguration", validating+"/fid-gadget-validating", "")
	c.del("delete CRD", crds+"/gadgets.test.kubewire.dev", "").onlyCode()
}

// fidelityPatchHook is a mutating webhook at path that allows every
// request with the JSON patch ops, as is.
func fidelityPatchHook(path, ops string) *webhook.Hook {
	return webhook.Admission(path, func(context.Context, *webhook.AdmissionRequest) *webhook.AdmissionResponse {
		r := webhook.Allowed()
		jp := webhook.PatchTypeJSONPatch
		r.Patch, r.PatchType = []byte(ops), &jp
		return r
	})
}

// patchFailures: mutating webhooks whose patches fail, each chosen by the
// gadget's label "patch": a patch that does not apply (policy Ignore),
// an undecodable one (Ignore, then Fail), and one whose result does not
// convert back to the request's version.
func patchFailures(c *catalog, v1, v2, mutating string) {
	hook := func(name, path, policy string) string {
		return `{"name":"` + name + `.fid.example.com","clientConfig":{"url":"${hookURL}` + path + `","caBundle":"${hookCA}"},` +
			`"rules":[{"apiGroups":["test.kubewire.dev"],"apiVersions":["v1"],"resources":["gadgets"],"operations":["CREATE"]}],` +
			`"objectSelector":{"matchLabels":{"patch":"` + name + `"}},"failurePolicy":"` + policy + `",` +
			`"sideEffects":"None","admissionReviewVersions":["v1"],"timeoutSeconds":5}`
	}
	c.post("create MutatingWebhookConfiguration with failing patches", mutating, `{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration","metadata":{"name":"fid-gadget-patches"},"webhooks":[`+
		hook("test-fails", "/patch-test-fails", "Ignore")+","+hook("undecodable-ignore", "/patch-undecodable", "Ignore")+","+
		hook("undecodable-fail", "/patch-undecodable", "Fail")+","+hook("daily", "/patch-daily", "Ignore")+`]}`)
	labelled := func(name, patch string) string {
		return `{"apiVersion":"test.kubewire.dev/v1","kind":"Gadget","metadata":{"name":"` + name + `","labels":{"patch":"` + patch + `"}},"spec":{"schedule":"0 * * * *"}}`
	}
	s := c.add("wait: patch webhooks called", "POST", v1+"?dryRun=All", labelled("probe", "undecodable-fail"))
	s.wait = codeIs(500)
	// The two patch libraries word their errors differently (kube-apiserver's
	// names its Go type jsonpatch.Patch): only the codes are compared here;
	// fake's TestFakeMutatingWebhookPatchFailures checks the reasons.
	c.post("a patch that does not apply (policy Ignore) is an internal error", v1, labelled("test-fails", "test-fails")).onlyCode()
	c.post("an undecodable patch with policy Ignore is let through", v1, labelled("undecodable-ignore", "undecodable-ignore"))
	c.post("an undecodable patch with policy Fail is the webhook's failure", v1, labelled("undecodable-fail", "undecodable-fail")).onlyCode()
	c.post("a patched object that does not convert back to v2", v2, `{"apiVersion":"test.kubewire.dev/v2","kind":"Gadget","metadata":{"name":"daily","labels":{"patch":"daily"}},"spec":{"schedule":{"dayOfWeek":"1"}}}`)
	c.del("delete the patches' MutatingWebhookConfiguration", mutating+"/fid-gadget-patches", "")
}
