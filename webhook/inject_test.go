package webhook_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/kubewire/kubewire/codec"
	"github.com/kubewire/kubewire/webhook"
)

const manifests = `# generated
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: mutating
webhooks:
- name: m1.example.com
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /mutate}
- name: m2.example.com
  clientConfig:
    service: {name: webhook-service, namespace: system, path: /mutate2}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: untouched}
data: {a: "1"}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.test.kubewire.dev}
spec:
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig:
        service: {name: webhook-service, namespace: system, path: /convert}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: others.test.kubewire.dev}
spec:
  conversion: {strategy: None}
`

func TestInjectCABundle(t *testing.T) {
	certs, err := webhook.SelfSigned([]string{"webhook-service.system.svc"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, n, err := webhook.InjectCABundle([]byte(manifests), certs.CAPEM)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("%d caBundles set, want 3", n)
	}
	docs := codec.SplitYAMLDocuments(out)
	if len(docs) != 4 {
		t.Fatalf("%d documents:\n%s", len(docs), out)
	}
	want := base64.StdEncoding.EncodeToString(certs.CAPEM)
	for i, d := range docs {
		got := strings.Count(string(d), "caBundle: "+want)
		if wantN := []int{2, 0, 1, 0}[i]; got != wantN {
			t.Errorf("document %d has %d caBundles, want %d:\n%s", i+1, got, wantN, d)
		}
	}
	if !strings.Contains(string(docs[1]), "name: untouched") || !strings.HasPrefix(string(docs[0]), "apiVersion") {
		t.Errorf("documents not in order:\n%s", out)
	}
	j, err := codec.YAMLToJSON(docs[0])
	if err != nil || !strings.Contains(string(j), `"path":"/mutate2"`) {
		t.Errorf("the service reference was not kept: %v %s", err, j)
	}
	if _, _, err := webhook.InjectCABundle([]byte(manifests), []byte("not a certificate")); err == nil {
		t.Error("a CA bundle without a certificate was injected")
	}
	if _, _, err := webhook.InjectCABundle([]byte("a: [\n"), certs.CAPEM); err == nil {
		t.Error("broken YAML accepted")
	}
}

func TestPointAt(t *testing.T) {
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	out, n, err := webhook.PointAt([]byte(manifests), "https://127.0.0.1:9443/", certs.CAPEM)
	if err != nil || n != 3 {
		t.Fatalf("%d rewritten, %v", n, err)
	}
	docs := codec.SplitYAMLDocuments(out)
	for i, want := range []string{"url: https://127.0.0.1:9443/mutate\n", "", "url: https://127.0.0.1:9443/convert\n", ""} {
		if want != "" && (!strings.Contains(string(docs[i]), want) || strings.Contains(string(docs[i]), "service:")) {
			t.Errorf("document %d:\n%s", i+1, docs[i])
		}
	}
	if !strings.Contains(string(docs[0]), "url: https://127.0.0.1:9443/mutate2\n") {
		t.Errorf("second webhook:\n%s", docs[0])
	}
}
