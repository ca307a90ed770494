package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"

	"github.com/kubewire/kubewire/api/unstructured"
)

// readWebhookCA reads the -webhook-ca file.
func readWebhookCA(file string) ([]byte, error) {
	ca, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(ca, []byte("-----BEGIN CERTIFICATE-----")) {
		return nil, fmt.Errorf("-webhook-ca %s: no PEM certificate in it", file)
	}
	return ca, nil
}

// injectCABundle sets caPEM as the caBundle of every webhook of the
// Mutating- and ValidatingWebhookConfigurations of ms and of the
// conversion webhook of its CustomResourceDefinitions, and returns how
// many it set.
func injectCABundle(ms []manifest, caPEM []byte) int {
	bundle := base64.StdEncoding.EncodeToString(caPEM)
	n := 0
	for _, m := range ms {
		for _, cc := range webhookClientConfigs(m.obj) {
			cc["caBundle"] = bundle
			n++
		}
	}
	return n
}

// webhookClientConfigs returns the clientConfig maps of u's webhooks.
func webhookClientConfigs(u *unstructured.Unstructured) []map[string]any {
	group, _, kind := u.GroupVersionKind()
	var out []map[string]any
	switch {
	case group == "admissionregistration.k8s.io" && (kind == "MutatingWebhookConfiguration" || kind == "ValidatingWebhookConfiguration"):
		hooks, _ := u.Object["webhooks"].([]any)
		for _, h := range hooks {
			hm, _ := h.(map[string]any)
			if cc, ok := hm["clientConfig"].(map[string]any); ok {
				out = append(out, cc)
			}
		}
	case group == "apiextensions.k8s.io" && kind == "CustomResourceDefinition":
		if cc, ok, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", "conversion", "webhook", "clientConfig"); ok {
			if m, ok := cc.(map[string]any); ok {
				out = append(out, m)
			}
		}
	}
	return out
}
