package envtest

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/webhook"
)

// Install points every webhook and conversion webhook at the test's
// server: the path of a service reference or URL on 127.0.0.1:PORT,
// with the authority; other documents are skipped.
func TestWebhookDocsPointAtTheTestServer(t *testing.T) {
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	w := &Webhooks{port: 9876, certs: certs}
	manifest := `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: v}
webhooks:
- name: a.example.com
  clientConfig: {service: {name: webhook-service, namespace: system, path: /validate-a}}
- name: b.example.com
  clientConfig: {url: "https://hooks.example.com:8443/validate-b"}
---
apiVersion: v1
kind: Service
metadata: {name: webhook-service}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.test.kubewire.dev}
spec:
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {service: {name: webhook-service, namespace: system, path: /convert}}
status: {acceptedNames: {kind: ""}}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: plain.test.kubewire.dev}
spec: {conversion: {strategy: None}}
`
	docs, err := w.readDocs(WebhookInstall{Manifests: [][]byte{[]byte(manifest)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 3 {
		t.Fatalf("%d documents, want the configuration and both definitions", len(docs))
	}
	ca := base64.StdEncoding.EncodeToString(certs.CAPEM)
	var urls []string
	for _, h := range docs[0].Object["webhooks"].([]any) {
		cc := h.(map[string]any)["clientConfig"].(map[string]any)
		if cc["caBundle"] != ca || cc["service"] != nil {
			t.Errorf("clientConfig %v", cc)
		}
		urls = append(urls, cc["url"].(string))
	}
	if got := strings.Join(urls, " "); got != "https://127.0.0.1:9876/validate-a https://127.0.0.1:9876/validate-b" {
		t.Errorf("urls %s", got)
	}
	conv := docs[1].Object["spec"].(map[string]any)["conversion"].(map[string]any)["webhook"].(map[string]any)
	if cc := conv["clientConfig"].(map[string]any); cc["url"] != "https://127.0.0.1:9876/convert" || cc["caBundle"] != ca {
		t.Errorf("conversion clientConfig %v", cc)
	}
	if _, ok := docs[1].Object["status"]; ok {
		t.Error("status kept")
	}
	if _, err := w.readDocs(WebhookInstall{Paths: []string{"no/such/path"}}); err == nil {
		t.Error("a missing path was accepted")
	}
}
