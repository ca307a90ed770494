package manager_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
	"github.com/kubewire/kubewire/informer"
	"github.com/kubewire/kubewire/leaderelection"
	"github.com/kubewire/kubewire/manager"
	"github.com/kubewire/kubewire/webhook"
)

// Every replica serves its webhooks, the standby as well as the leader,
// from the start; /readyz says so; Run stops the server.
func TestWebhookServedOnEveryReplica(t *testing.T) {
	_, cfg := newServer(t)
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	type rep struct {
		m    *manager.Manager
		url  string
		done chan error
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var reps []*rep
	for _, id := range []string{"a", "b"} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv, err := webhook.NewServer(webhook.Options{CertDir: dir, Listener: ln})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.Register(webhook.Validating[*corev1.ConfigMap](webhook.ValidatorFuncs[*corev1.ConfigMap]{
			Create: func(ctx context.Context, cm *corev1.ConfigMap) (webhook.Warnings, error) {
				return webhook.Warnings{"seen by " + id}, nil
			},
		})); err != nil {
			t.Fatal(err)
		}
		m, err := manager.New(newClient(t, cfg), manager.Options{Name: "webhooks", Webhook: srv,
			LeaderElection: &leaderelection.Config{Namespace: "default", Identity: id,
				LeaseDuration: 2 * time.Second, RenewDeadline: 1500 * time.Millisecond, RetryPeriod: 200 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		informer.Shared[*corev1.ConfigMap](m.Factory(), informer.Scope{Namespace: "default"})
		r := &rep{m: m, url: "https://" + ln.Addr().String(), done: make(chan error, 1)}
		go func() { r.done <- m.Run(ctx) }()
		reps = append(reps, r)
	}
	eventually(t, "a replica leads", func() bool { return reps[0].m.IsLeader() || reps[1].m.IsLeader() })
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certs.CAPEM)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	body := `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"1","kind":{"group":"","version":"v1","kind":"ConfigMap"},` +
		`"resource":{"group":"","version":"v1","resource":"configmaps"},"operation":"CREATE","userInfo":{},"object":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}}}`
	for i, r := range reps {
		resp, err := c.Post(r.url+"/validate--v1-configmap", "application/json", bytes.NewReader([]byte(body)))
		if err != nil {
			t.Fatalf("replica %d (leader %v): %v", i, r.m.IsLeader(), err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var review webhook.AdmissionReview
		if err := json.Unmarshal(b, &review); err != nil || !review.Response.Allowed || review.Response.Warnings[0] != "seen by "+[]string{"a", "b"}[i] {
			t.Errorf("replica %d: %v %s", i, err, b)
		}
	}
	for _, r := range reps {
		eventually(t, "/readyz lists the webhook", func() bool {
			return r.m.Ready() == nil && strings.Contains(readyz(t, r.m), "[+]webhook ok")
		})
	}
	cancel()
	for _, r := range reps {
		if err := <-r.done; err != nil {
			t.Errorf("Run: %v", err)
		}
		if _, err := c.Get(r.url + "/healthz"); err == nil {
			t.Error("the webhook server still serves after Run returned")
		}
	}
}

func readyz(t *testing.T, m *manager.Manager) string {
	_, body := get(t, m.Handler(), "/readyz")
	return body
}

func TestWebhookServerThatCannotStartEndsRun(t *testing.T) {
	_, cfg := newServer(t)
	srv, err := webhook.NewServer(webhook.Options{CertDir: t.TempDir(), Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "webhooks", Webhook: srv})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := m.Run(ctx); err == nil || !strings.Contains(err.Error(), "webhook server") || !strings.Contains(err.Error(), "serving certificate") {
		t.Errorf("Run: %v", err)
	}
}

// A nil *webhook.Server in Options.Webhook (an interface) is no webhook
// server: no /readyz line, and Run does not call it.
func TestNilWebhookServerIsNone(t *testing.T) {
	_, cfg := newServer(t)
	var srv *webhook.Server
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "webhooks", Webhook: srv})
	if err != nil {
		t.Fatal(err)
	}
	if body := readyz(t, m); strings.Contains(body, "webhook") {
		t.Errorf("/readyz has a webhook line:\n%s", body)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// The manager's logger gets the webhook server's lines (certificate
// loads, and an expired or unloadable certificate) when the server was
// made without one; before, they were discarded.
func TestWebhookServerLogsToTheManagersLogger(t *testing.T) {
	_, cfg := newServer(t)
	certs, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := certs.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	srv, err := webhook.NewServer(webhook.Options{CertDir: dir, Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	logs := &lockedBuffer{}
	m, err := manager.New(newClient(t, cfg), manager.Options{Name: "webhooks", Webhook: srv, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx) }()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(logs.String(), "webhook: serving") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"webhook: certificate loaded", "webhook: serving"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the manager's logger got %q, want %q in it", logs.String(), want)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for the manager's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
