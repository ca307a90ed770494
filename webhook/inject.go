package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kubewire/kubewire/codec"
)

// InjectCABundle sets caBundle to caPEM (the authority that signed the
// webhook server's certificate, as Certificates.CAPEM) wherever
// manifests call a webhook: every webhook of a Validating- or
// MutatingWebhookConfiguration, and the conversion webhook of a
// CustomResourceDefinition with strategy Webhook. It is what
// cert-manager's CA injector does, for tests and for clusters without
// it. manifests is YAML (several documents separated by "---") or
// JSON; the result is YAML, the documents in the same order, those
// with nothing to inject unchanged. It returns how many caBundles it
// set.
func InjectCABundle(manifests, caPEM []byte) ([]byte, int, error) {
	return rewriteClientConfigs(manifests, caPEM, func(cc map[string]any) { cc["caBundle"] = caPEM })
}

// PointAt rewrites manifests as InjectCABundle does, and also makes
// every webhook and conversion webhook call baseURL (such as
// "https://127.0.0.1:9443") at the path of its service reference or URL,
// the service reference removed: for a webhook server running outside
// the cluster, as in tests (envtest, the fake server) and local runs.
func PointAt(manifests []byte, baseURL string, caPEM []byte) ([]byte, int, error) {
	baseURL = strings.TrimSuffix(baseURL, "/")
	return rewriteClientConfigs(manifests, caPEM, func(cc map[string]any) {
		path := ""
		if svc, ok := cc["service"].(map[string]any); ok {
			path, _ = svc["path"].(string)
		} else if u, ok := cc["url"].(string); ok {
			rest := strings.TrimPrefix(u, "https://")
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				path = rest[i:]
			}
		}
		delete(cc, "service")
		cc["url"] = baseURL + path
		cc["caBundle"] = caPEM
	})
}

// rewriteClientConfigs applies set to every clientConfig of manifests.
func rewriteClientConfigs(manifests, caPEM []byte, set func(cc map[string]any)) ([]byte, int, error) {
	if !bytes.Contains(caPEM, []byte("-----BEGIN CERTIFICATE-----")) {
		return nil, 0, fmt.Errorf("webhook: the CA bundle holds no PEM certificate")
	}
	var out [][]byte
	n := 0
	for i, doc := range codec.SplitYAMLDocuments(manifests) {
		j, err := codec.YAMLToJSON(doc)
		if err != nil {
			return nil, 0, fmt.Errorf("webhook: document %d: %w", i+1, err)
		}
		var obj map[string]any
		if t := bytes.TrimSpace(j); len(t) == 0 || string(t) == "null" {
			out = append(out, doc)
			continue
		}
		if err := json.Unmarshal(j, &obj); err != nil {
			return nil, 0, fmt.Errorf("webhook: document %d is not an object: %w", i+1, err)
		}
		ccs := clientConfigs(obj)
		if len(ccs) == 0 {
			out = append(out, doc)
			continue
		}
		for _, cc := range ccs {
			set(cc) // encoding/json writes a []byte caBundle as base64, as the field wants
		}
		n += len(ccs)
		b, err := json.Marshal(obj)
		if err != nil {
			return nil, 0, err
		}
		y, err := codec.JSONToYAML(b)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, y)
	}
	return joinYAML(out), n, nil
}

// clientConfigs returns the clientConfig objects of a webhook
// configuration or of a CustomResourceDefinition's conversion webhook.
func clientConfigs(obj map[string]any) []map[string]any {
	var out []map[string]any
	switch obj["kind"] {
	case "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration":
		hooks, _ := obj["webhooks"].([]any)
		for _, h := range hooks {
			if hm, ok := h.(map[string]any); ok {
				if cc, ok := hm["clientConfig"].(map[string]any); ok {
					out = append(out, cc)
				}
			}
		}
	case "CustomResourceDefinition":
		spec, _ := obj["spec"].(map[string]any)
		conv, _ := spec["conversion"].(map[string]any)
		if conv["strategy"] != "Webhook" {
			return nil
		}
		wh, _ := conv["webhook"].(map[string]any)
		if cc, ok := wh["clientConfig"].(map[string]any); ok {
			out = append(out, cc)
		}
	}
	return out
}

// SplitYAML splits a YAML stream at its "---" separator lines.
//
// Deprecated: use codec.SplitYAMLDocuments, which this calls.
func SplitYAML(b []byte) [][]byte { return codec.SplitYAMLDocuments(b) }

func joinYAML(docs [][]byte) []byte {
	var b bytes.Buffer
	for i, d := range docs {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(d)
		if len(d) > 0 && d[len(d)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}
