package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	metav1 "github.com/kubewire/kubewire/api/meta/v1"
	"github.com/kubewire/kubewire/client"
	"github.com/kubewire/kubewire/webhook"
)

// A webhook configuration as kubewire-gen and kubebuilder write it (a
// Service reference, no caBundle), loaded with -f, calls a webhook
// server run beside the command through -webhook-service and
// -webhook-ca.
func TestWebhookServiceAndCA(t *testing.T) {
	dir := t.TempDir()
	certs, err := webhook.SelfSigned([]string{"127.0.0.1", "webhook-service.system.svc"}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	ca := filepath.Join(dir, "ca.crt")
	if err := os.WriteFile(ca, certs.CAPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	srv, err := webhook.NewServer(webhook.Options{Addr: "127.0.0.1:0", CertDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	err = srv.Register(webhook.Validating[*corev1.ConfigMap](webhook.ValidatorFuncs[*corev1.ConfigMap]{
		Create: func(ctx context.Context, cm *corev1.ConfigMap) (webhook.Warnings, error) {
			if strings.HasPrefix(cm.Name, "bad-") {
				return nil, errors.New("no bad ConfigMaps")
			}
			return nil, nil
		},
	}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- srv.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("webhook server: %v", err)
		}
	}()
	for srv.Addr() == "" || srv.Ready() != nil { // until it listens with its certificate
		select {
		case err := <-served:
			t.Fatalf("webhook server ended: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
	manifest := filepath.Join(dir, "webhook.yaml")
	if err := os.WriteFile(manifest, []byte(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: validating-webhook-configuration
webhooks:
- name: vconfigmap.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  failurePolicy: Fail
  clientConfig:
    service: {name: webhook-service, namespace: system, path: `+srv.Paths()[0]+`}
  rules:
  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
`), 0o600); err != nil {
		t.Fatal(err)
	}

	s := start(t, "-f", manifest, "-webhook-service", "system/webhook-service="+srv.Addr(), "-webhook-ca", ca)
	cms := client.For[*corev1.ConfigMap](s.client).Namespace("default")
	if _, err := cms.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "good"}}, client.CreateOptions{}); err != nil {
		t.Errorf("create of a ConfigMap the hook allows: %v", err)
	}
	_, err = cms.Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "bad-one"}}, client.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), "no bad ConfigMaps") {
		t.Errorf("create of a ConfigMap the hook denies: %v, want its denial", err)
	}
}

func TestParseWebhookService(t *testing.T) {
	for _, bad := range []string{"system/svc", "svc=127.0.0.1:9443", "/svc=127.0.0.1:9443", "system/=127.0.0.1:9443", "a/b/c=127.0.0.1:9443", "system/svc=127.0.0.1"} {
		if _, _, err := parseWebhookService(bad); err == nil {
			t.Errorf("parseWebhookService(%q) accepted it", bad)
		}
	}
	svc, addr, err := parseWebhookService("system/webhook-service=127.0.0.1:9443")
	if err != nil || svc != "system/webhook-service" || addr != "127.0.0.1:9443" {
		t.Errorf("parseWebhookService: %q %q %v", svc, addr, err)
	}
}
