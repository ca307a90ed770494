package webhook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubewire/kubewire/webhook"
)

// recordedMetrics records what a Server tells its webhook.Metrics.
type recordedMetrics struct {
	mu     sync.Mutex
	events []string
}

func (r *recordedMetrics) add(e string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, e)
}
func (r *recordedMetrics) WebhookServing(path string) { r.add("serving " + path) }
func (r *recordedMetrics) WebhookStarted(path string) { r.add("started " + path) }
func (r *recordedMetrics) WebhookFinished(path string, code int, took time.Duration) {
	if took < 0 {
		r.add("negative duration")
	}
	r.add("finished " + path + " " + http.StatusText(code))
}
func (r *recordedMetrics) WebhookCertificateRead(err error) {
	if err != nil {
		r.add("certificate read failed")
		return
	}
	r.add("certificate read")
}
func (r *recordedMetrics) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.events
	r.events = nil
	return e
}

func serveReview(t *testing.T, h http.Handler, path, body string) int {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code
}

// The Server tells its Metrics of each path once, before its first
// review, however the metrics came (Options or InheritMetrics, before
// or after Register), and of every review of a served path with the
// status answered: a handler that panics counts as a 500.
func TestServerObservesReviews(t *testing.T) {
	review := `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"1","operation":"CREATE","object":{}}}`
	allow := webhook.Admission("/allow", func(context.Context, *webhook.AdmissionRequest) *webhook.AdmissionResponse { return webhook.Allowed() })
	crash := webhook.Admission("/crash", func(context.Context, *webhook.AdmissionRequest) *webhook.AdmissionResponse { panic("boom") })

	rec := &recordedMetrics{}
	s, err := webhook.NewServer(webhook.Options{Metrics: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Register(allow); err != nil {
		t.Fatal(err)
	}
	if err := s.Register(crash); err != nil {
		t.Fatal(err)
	}
	s.InheritMetrics(&recordedMetrics{}) // Options' metrics are kept
	serveReview(t, s, "/allow", review)
	serveReview(t, s, "/allow", "{")
	serveReview(t, s, "/crash", review)
	serveReview(t, s, "/none", review)
	serveReview(t, s, "/healthz", "")
	want := []string{"serving /allow", "serving /crash",
		"started /allow", "finished /allow OK",
		"started /allow", "finished /allow Bad Request",
		"started /crash", "finished /crash OK"}
	if got := rec.take(); !slices.Equal(got, want) {
		t.Errorf("observed %q\nwant %q", got, want)
	}

	late, err := webhook.NewServer(webhook.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := late.Register(allow); err != nil {
		t.Fatal(err)
	}
	serveReview(t, late, "/allow", review) // no metrics yet: not observed
	rec2 := &recordedMetrics{}
	late.InheritMetrics(rec2)
	late.InheritMetrics(rec) // the first wins
	if err := late.Register(crash); err != nil {
		t.Fatal(err)
	}
	serveReview(t, late, "/allow", review)
	want = []string{"serving /allow", "serving /crash", "started /allow", "finished /allow OK"}
	if got := rec2.take(); !slices.Equal(got, want) {
		t.Errorf("inherited metrics observed %q\nwant %q", got, want)
	}
	if got := rec.take(); len(got) != 0 {
		t.Errorf("a second InheritMetrics was used: %q", got)
	}
}

// Package webhook links no metrics library, and the packages every
// controller program links (manager, metrics) link no webhook code: the
// series come through the unnamed webhook.Metrics interface.
func TestMetricsLayering(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const mod = "github.com/kubewire/kubewire/"
	deps := func(pkgs ...string) []string {
		args := []string{"list", "-deps"}
		for _, p := range pkgs {
			args = append(args, mod+p)
		}
		out, err := exec.Command("go", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %v: %v\n%s", pkgs, err, out)
		}
		d := strings.Fields(string(out))
		if len(d) < 10 {
			t.Fatalf("go list -deps %v listed %d packages", pkgs, len(d))
		}
		return d
	}
	for _, d := range deps("webhook") {
		if strings.HasPrefix(d, "github.com/prometheus/") {
			t.Errorf("webhook links %s", d)
		}
	}
	for _, d := range deps("manager", "metrics") {
		if d == mod+"webhook" || strings.HasPrefix(d, mod+"webhook/") {
			t.Errorf("a program without webhooks links %s", d)
		}
	}
}

// Every read of the certificate files is told to the Metrics, with its
// failure: the read when Run starts, a rotation whose key does not match
// its certificate, and the one that fixes it.
func TestServerObservesCertificateReads(t *testing.T) {
	rec := &recordedMetrics{}
	s := serve(t, webhook.Options{Metrics: rec, CertPollInterval: time.Hour})
	if _, _, err := postTo(clientFor(s.certs.CAPEM, nil), s.url+"/healthz", nil); err != nil {
		t.Fatal(err) // served: Run has read the files
	}
	next, err := webhook.SelfSigned([]string{"127.0.0.1"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.dir, "tls.crt"), next.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.srv.ReloadCertificates(); err == nil {
		t.Fatal("a mismatched pair loaded")
	}
	if err := next.WriteFiles(s.dir); err != nil {
		t.Fatal(err)
	}
	if err := s.srv.ReloadCertificates(); err != nil {
		t.Fatal(err)
	}
	var reads []string
	for _, e := range rec.take() {
		if strings.HasPrefix(e, "certificate") {
			reads = append(reads, e)
		}
	}
	if want := []string{"certificate read", "certificate read failed", "certificate read"}; !slices.Equal(reads, want) {
		t.Errorf("certificate reads told: %q, want %q", reads, want)
	}
}
